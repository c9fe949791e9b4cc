/** Small pieces of HTTP every OAuth endpoint here shares. */
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { invalidRequest } from './errors.ts';

/**
 * Back-channel requests are form bodies only: RFC 6749 §3.2 (token), RFC 7662 §2.1
 * (introspection), RFC 7009 §2.1 (revocation), RFC 9126 §2.1 (PAR).
 */
export function requireForm(req: FastifyRequest, what = 'the request'): void {
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? ''))
    throw invalidRequest(`${what} must be application/x-www-form-urlencoded`);
}

/** Answers carrying tokens or credentials are never cached (RFC 6749 §5.1). */
export const noStore = (reply: FastifyReply): FastifyReply =>
  reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' });

/** The `resource` parameter (RFC 8707): once, or repeated. */
export const RESOURCE_SCHEMA = {
  anyOf: [
    { type: 'string', maxLength: 2048 },
    { type: 'array', maxItems: 16, items: { type: 'string', maxLength: 2048 } },
  ],
} as const;

/** The client's redirect_uri with response parameters added to its query (response_mode=query). */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.href;
}

/** Request parameters, each once (a schema bounds them). */
type Params = Partial<Record<string, string | string[]>>;

/**
 * A browser endpoint served alike by GET (the query) and POST (a form body), as OIDC Core §3.1.2.1
 * and RP-Initiated Logout §2 require.
 */
export function getAndPost<P extends Params>(
  app: FastifyInstance,
  path: string,
  schema: FastifySchema['querystring'],
  handler: (req: FastifyRequest, reply: FastifyReply, params: P) => Promise<FastifyReply>,
): void {
  // The schema has checked the parameters; they are strings (or, for `resource`, a list).
  app.get(path, { schema: { querystring: schema } }, (req, reply) => handler(req, reply, req.query as P));
  app.post(path, { schema: { body: schema } }, (req, reply) => handler(req, reply, (req.body ?? {}) as P));
}
