/**
 * private_key_jwt assertions (RFC 7523 §3, OIDC Core §9): signed by a key from the client's
 * registered `jwks` or `jwks_uri`, with the client's registered alg only; iss = sub = client_id;
 * aud one of ours; exp required and near; jti single-use until the assertion expires.
 */
import { createHash } from 'node:crypto';
import { createLocalJWKSet, createRemoteJWKSet, type KeySet, verifyJwt } from '@pqid/jose';
import { type Client, trustOf } from '../../clients/clients.ts';
import type { IdpContext } from '../../context.ts';

// An assertion is a one-shot credential; a long-lived one would be a password in disguise.
const MAX_LIFETIME = 600;
const CLOCK_TOLERANCE = 30;
// ML-DSA-87 composites with RSA reach ~10 KB; anything far beyond that is not an assertion.
const MAX_ASSERTION_BYTES = 32 * 1024;

/**
 * Remote key sets are cached per URL and trust level (one guard per provider) so their
 * freshness and cooldown survive across requests; at most this many (dynamic registration lets
 * anyone add URLs), least recently used dropped.
 */
const MAX_REMOTE_SETS = 1000;
const remoteSets = new WeakMap<IdpContext['outbound'], Map<string, KeySet>>();

/**
 * The client's registered public keys (`jwks` or `jwks_uri`): client assertions, request
 * objects. A `jwks_uri` is fetched through the outbound guard, under the client's trust.
 */
export function keySetFor(ctx: IdpContext, client: Client): Promise<KeySet> | KeySet {
  if (client.jwks) return createLocalJWKSet(client.jwks);
  const url = client.jwks_uri as string;
  const trust = trustOf(client);
  let sets = remoteSets.get(ctx.outbound);
  if (!sets) {
    sets = new Map();
    remoteSets.set(ctx.outbound, sets);
  }
  const key = `${trust}\0${url}`;
  let set = sets.get(key);
  if (set) sets.delete(key);
  else set = createRemoteJWKSet(url, { timeoutDuration: 3000, fetch: ctx.outbound.fetcher(trust) });
  sets.set(key, set);
  if (sets.size > MAX_REMOTE_SETS) sets.delete(sets.keys().next().value as string);
  return set;
}

export async function verifyClientAssertion(
  ctx: IdpContext,
  client: Client,
  assertion: string,
  audiences: string[],
): Promise<boolean> {
  const alg = client.token_endpoint_auth_signing_alg;
  if (!alg || (!client.jwks && !client.jwks_uri)) return false;
  let claims: Record<string, unknown>;
  try {
    ({ claims } = await verifyJwt(assertion, await keySetFor(ctx, client), {
      algorithms: [alg],
      issuer: client.client_id,
      subject: client.client_id,
      audience: [...new Set(audiences)],
      requiredClaims: ['exp', 'jti'],
      clockTolerance: CLOCK_TOLERANCE,
      maxTokenBytes: MAX_ASSERTION_BYTES,
    }));
  } catch {
    // Bad signature, wrong alg, wrong claims, unreachable jwks_uri: all one invalid_client.
    return false;
  }
  const now = Math.floor(Date.now() / 1000);
  const exp = claims.exp as number;
  const jti = claims.jti;
  if (typeof jti !== 'string' || jti === '' || jti.length > 256) return false;
  if (exp - now > MAX_LIFETIME) return false;
  const id = createHash('sha256').update(`${client.client_id}\0${jti}`).digest('base64url');
  // One atomic insert in the shared store: of concurrent uses of one assertion, on any number of
  // instances, exactly one gets here first. Kept until it could no longer be accepted anyway
  // (exp + tolerance); an expired marker does not block (its assertion is refused above).
  return ctx.storage
    .adapter('ClientAssertion')
    .insertIfAbsent(id, { clientId: client.client_id }, Math.max(1, exp - now + CLOCK_TOLERANCE));
}
