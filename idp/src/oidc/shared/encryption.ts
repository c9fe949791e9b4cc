/**
 * Encrypting to a client: what it registered in an `_encrypted_response_alg`/`_enc` pair
 * (clients/encryption.ts), to its public key for that `alg` from its `jwks`, or from its
 * `jwks_uri` — fetched only through the outbound guard (clients/outbound.ts), under the
 * client's trust, and cached like its signature keys (shared/client-keys.ts): fresh for ten
 * minutes, refetched early at most every 30 seconds when no key for the `alg` is found, and no
 * larger than a registered `jwks` may be (MAX_REMOTE_JWKS_BYTES).
 *
 * A client whose keys cannot be had gets `invalid_client_metadata` saying why, before anything is
 * spent (the token endpoint resolves the key before the grant consumes a code); never plaintext.
 */
import { type EncryptionKey, encryptCompact, encryptionKeysFor, encryptJwt } from '@pqid/jose';
import { type Client, trustOf } from '../../clients/clients.ts';
import { encOf } from '../../clients/encryption.ts';
import type { IdpContext } from '../../context.ts';
import type { TokenKind } from '../../metrics.ts';
import { MAX_REMOTE_JWKS_BYTES } from './client-keys.ts';
import { OAuthError } from './errors.ts';
import { observeSent } from './signing.ts';

/** What the provider encrypts to a client, by the prefix of its metadata pair. */
export type EncryptedResponse = 'id_token' | 'userinfo' | 'introspection';

const FRESH_MS = 600_000;
const COOLDOWN_MS = 30_000;
const TIMEOUT_MS = 3000;
/** Remote sets kept per guard (dynamic registration lets anyone add URLs); oldest dropped. */
const MAX_REMOTE_SETS = 1000;

interface Fetched {
  jwks: unknown;
  at: number;
}
const remoteSets = new WeakMap<IdpContext['outbound'], Map<string, Fetched>>();

/** The client's keys cannot be had: a clear answer, and nothing is sent in the clear. */
export class ClientKeyUnavailable extends OAuthError {
  constructor(message: string) {
    super('invalid_client_metadata', message, 400);
  }
}

/** The registered pair of `what`, or undefined when the client did not ask for encryption. */
export function encryptionOf(
  client: Client,
  what: EncryptedResponse,
): { alg: string; enc?: string } | undefined {
  const alg = client[`${what}_encrypted_response_alg`];
  if (alg === undefined) return undefined;
  const enc = encOf(alg, client[`${what}_encrypted_response_enc`]);
  return enc === undefined ? { alg } : { alg, enc };
}

async function fetchJwks(ctx: IdpContext, client: Client, url: string): Promise<unknown> {
  let res: Response;
  try {
    res = await ctx.outbound.fetch(trustOf(client), url, {
      headers: { accept: 'application/json, application/jwk-set+json' },
      timeout: TIMEOUT_MS,
    });
  } catch (e) {
    throw new ClientKeyUnavailable(`the client's jwks_uri could not be fetched: ${(e as Error).message}`);
  }
  if (res.status !== 200) throw new ClientKeyUnavailable(`the client's jwks_uri answered HTTP ${res.status}`);
  let text: string;
  try {
    text = await res.text();
  } catch (e) {
    throw new ClientKeyUnavailable(`the client's jwks_uri could not be read: ${(e as Error).message}`);
  }
  if (Buffer.byteLength(text) > MAX_REMOTE_JWKS_BYTES)
    throw new ClientKeyUnavailable(
      `the client's jwks_uri answered a set larger than ${MAX_REMOTE_JWKS_BYTES} bytes`,
    );
  try {
    return JSON.parse(text);
  } catch {
    throw new ClientKeyUnavailable("the client's jwks_uri did not answer with JSON");
  }
}

/** The client's JWKS from its `jwks_uri`, cached; `stale`: refetch unless fetched within the cooldown. */
async function remoteJwks(ctx: IdpContext, client: Client, url: string, stale: boolean): Promise<unknown> {
  let sets = remoteSets.get(ctx.outbound);
  if (!sets) {
    sets = new Map();
    remoteSets.set(ctx.outbound, sets);
  }
  const id = `${trustOf(client)}\0${url}`;
  const cached = sets.get(id);
  const age = cached ? Date.now() - cached.at : Number.POSITIVE_INFINITY;
  if (cached && age < FRESH_MS && !(stale && age >= COOLDOWN_MS)) return cached.jwks;
  const jwks = await fetchJwks(ctx, client, url);
  sets.delete(id);
  sets.set(id, { jwks, at: Date.now() });
  if (sets.size > MAX_REMOTE_SETS) sets.delete(sets.keys().next().value as string);
  return jwks;
}

/**
 * Imported keys by key set and `alg`: importing an X-Wing key costs about a quarter of the
 * encryption itself, so it is done once per key set, not per token. Bounded, oldest dropped.
 */
const imported = new Map<string, Promise<EncryptionKey[]>>();
const MAX_IMPORTED = 1000;

async function keysIn(jwks: unknown, alg: string): Promise<EncryptionKey[]> {
  const id = `${alg}\0${JSON.stringify(jwks)}`;
  let keys = imported.get(id);
  if (!keys) {
    keys = encryptionKeysFor(jwks, alg);
    imported.set(id, keys);
    if (imported.size > MAX_IMPORTED) imported.delete(imported.keys().next().value as string);
    keys.catch(() => imported.delete(id));
  }
  try {
    return await keys;
  } catch {
    throw new ClientKeyUnavailable("the client's jwks_uri did not answer with a JWK set");
  }
}

/** The client's public key for `alg`: the first usable one its key set holds. */
export async function clientEncryptionKey(
  ctx: IdpContext,
  client: Client,
  alg: string,
): Promise<EncryptionKey> {
  let found: EncryptionKey[];
  if (client.jwks) found = await keysIn(client.jwks, alg);
  else if (client.jwks_uri !== undefined) {
    found = await keysIn(await remoteJwks(ctx, client, client.jwks_uri, false), alg);
    // A key rotated in at the client since the last fetch: look again, at most every cooldown.
    if (found.length === 0) found = await keysIn(await remoteJwks(ctx, client, client.jwks_uri, true), alg);
  } else throw new ClientKeyUnavailable(`the client asked for ${alg} encryption but has no jwks or jwks_uri`);
  const key = found[0];
  if (!key) throw new ClientKeyUnavailable(`the client's key set holds no public key for ${alg} (use "enc")`);
  return key;
}

/**
 * The client's key for `what`, if it asked for encryption: resolved before the response is
 * made, so a client without a usable key gets an error and loses nothing.
 */
export async function recipientFor(
  ctx: IdpContext,
  client: Client,
  what: EncryptedResponse,
): Promise<Recipient | undefined> {
  const pair = encryptionOf(client, what);
  if (!pair) return undefined;
  return { ...pair, key: await clientEncryptionKey(ctx, client, pair.alg) };
}

export interface Recipient {
  alg: string;
  enc?: string;
  key: EncryptionKey;
}

/** The `alg` of one of our own signed JWTs (its protected header). */
const signedAlgOf = (jwt: string): string =>
  String(JSON.parse(Buffer.from(jwt.slice(0, jwt.indexOf('.')), 'base64url').toString('utf8')).alg);

/**
 * A signed JWT, encrypted to the recipient: a Nested JWT (`cty: "JWT"`), counted at the size
 * sent under its signing alg and the JWE alg (signToken left it to this).
 */
export async function encryptSignedJwt(
  ctx: IdpContext,
  kind: TokenKind,
  jwt: string,
  to: Recipient,
): Promise<string> {
  const jwe = await encryptJwt(jwt, to.key, to.enc !== undefined ? { enc: to.enc } : {});
  observeSent(ctx, kind, signedAlgOf(jwt), to.alg, jwe);
  return jwe;
}

/** JSON, encrypted to the recipient (an unsigned encrypted userinfo answer, OIDC Core §5.3.2). */
export async function encryptJson(ctx: IdpContext, value: unknown, to: Recipient): Promise<string> {
  const jwe = await encryptCompact(
    JSON.stringify(value),
    to.key,
    to.enc !== undefined ? { enc: to.enc } : {},
  );
  observeSent(ctx, 'userinfo', 'none', to.alg, jwe);
  return jwe;
}
