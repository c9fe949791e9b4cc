/**
 * A client's registered public keys (`jwks` or `jwks_uri`), for what the client signs: client
 * assertions (client-assertion.ts) and request objects (authorization/request-object.ts).
 */
import { createLocalJWKSet, createRemoteJWKSet, type KeySet } from '@pqid/jose';
import { type Client, trustOf } from '../../clients/clients.ts';
import type { IdpContext } from '../../context.ts';

/**
 * Remote key sets are cached per URL and trust level (one guard per provider) so their
 * freshness and cooldown survive across requests; at most this many (dynamic registration lets
 * anyone add URLs), least recently used dropped.
 */
const MAX_REMOTE_SETS = 1000;

/**
 * The largest JWK set a client's `jwks_uri` may answer: room for the 16 keys a registered `jwks`
 * may hold, each as large as an ML-DSA-87 or composite public key. A cached set then costs at
 * most this much, not the megabyte the outbound guard lets any answer be.
 */
export const MAX_REMOTE_JWKS_BYTES = 128 * 1024;
const remoteSets = new WeakMap<IdpContext['outbound'], Map<string, KeySet>>();

/** The client's key set. A `jwks_uri` is fetched through the outbound guard, under the client's trust. */
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
  else
    set = createRemoteJWKSet(url, {
      timeoutDuration: 3000,
      maxBytes: MAX_REMOTE_JWKS_BYTES,
      fetch: ctx.outbound.fetcher(trust),
    });
  sets.set(key, set);
  if (sets.size > MAX_REMOTE_SETS) sets.delete(sets.keys().next().value as string);
  return set;
}
