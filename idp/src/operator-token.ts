/**
 * The operator's bearer token (`metricsToken`), which opens the endpoints meant for operators
 * rather than users: /metrics, and the detail of /healthz.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/**
 * A check of `Authorization: Bearer <token>` against `token`, or undefined when no token is
 * configured. Digests of equal length are compared, so the time taken says nothing of the token.
 */
export function operatorTokenCheck(
  token: string | undefined,
): ((req: FastifyRequest) => boolean) | undefined {
  if (token === undefined) return undefined;
  const expected = digest(token);
  return (req) => {
    const auth = req.headers.authorization ?? '';
    const given = /^Bearer /i.test(auth) ? auth.slice(7).trim() : '';
    return timingSafeEqual(digest(given), expected);
  };
}
