/**
 * The bearer tokens of dynamic registration: the initial access token (`registration.mode`
 * `token`, RFC 7591 §3) and each client's registration access token (RFC 7592 §1), random and
 * stored only as its SHA-256 digest on the client. A wrong token and an unknown client get the
 * same answer, so client ids cannot be probed.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Client } from '../../clients/clients.ts';
import type { IdpContext } from '../../context.ts';
import { verifySecret } from '../../crypto/secrets.ts';
import { OAuthError } from '../shared/errors.ts';

const bearer = (req: FastifyRequest): string | undefined => {
  const m = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(req.headers.authorization ?? '');
  return m?.[1];
};

const invalidToken = (description: string) =>
  new OAuthError('invalid_token', description, 401, {
    'www-authenticate': `Bearer error="invalid_token", error_description="${description}"`,
  });

const digest = (s: string) => createHash('sha256').update(s).digest();

/** The check of the initial access token, when one is configured. */
export function initialAccessTokenCheck(
  initialAccessToken: string | undefined,
): (req: FastifyRequest) => void {
  if (initialAccessToken === undefined) return () => {};
  const expected = digest(initialAccessToken);
  return (req) => {
    const given = bearer(req);
    // Digests of equal length: the comparison takes the same time whatever was sent.
    if (given === undefined || !timingSafeEqual(digest(given), expected))
      throw invalidToken('registration needs a valid initial access token');
  };
}

/** The client this registration access token manages; the same refusal for every mismatch. */
export async function managedClient(ctx: IdpContext, req: FastifyRequest, clientId: string): Promise<Client> {
  const token = bearer(req);
  const client = await ctx.clients.find(clientId);
  const ok = await verifySecret(token ?? '', client?.registration_access_token_hash ?? 'sha256$');
  if (!client || token === undefined || !ok)
    throw invalidToken('the registration access token is not valid for this client');
  return client;
}
