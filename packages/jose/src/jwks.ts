/**
 * Key sets. A local set imports a JWKS once; a remote set fetches, caches for `cacheMaxAge`,
 * and refetches on an unknown `kid` at most once per `cooldownDuration` (so a flood of tokens
 * with random kids cannot turn into a flood of fetches).
 */
import { isRegistered } from './algorithms/registry.ts';
import { InvalidArgument, JwksFetchFailed, JwksNoMatchingKey } from './errors.ts';
import type { JoseHeader } from './jws/parse.ts';
import { type KeySet, selectKeys } from './jws/verification-keys.ts';
import { PublicKey } from './keys/handles.ts';
import { importJWK } from './keys/jwk.ts';
import type { Jwk } from './lib/jwk.ts';

export interface Jwks {
  keys: Jwk[];
}

/** Imports the usable public keys of a JWKS; keys of unknown algorithms or with private parts are skipped. */
export async function importJwks(jwks: unknown): Promise<PublicKey[]> {
  if (typeof jwks !== 'object' || jwks === null || !Array.isArray((jwks as Jwks).keys)) {
    throw new InvalidArgument('a JWKS is an object with a "keys" array');
  }
  const out: PublicKey[] = [];
  for (const jwk of (jwks as Jwks).keys) {
    if (typeof jwk !== 'object' || jwk === null) continue;
    if (jwk.use !== undefined && jwk.use !== 'sig') continue;
    try {
      const k = await importJWK(jwk);
      // A JWKS is public by definition; a private key found in one is refused, not used.
      if (k instanceof PublicKey) out.push(k);
    } catch {
      /* unknown or malformed keys are ignored, like every JWKS consumer does */
    }
  }
  return out;
}

function noMatch(header: JoseHeader): never {
  throw new JwksNoMatchingKey(
    `no key in the set for alg ${header.alg}${header.kid ? ` kid ${header.kid}` : ''}`,
  );
}

export async function createLocalJWKSet(jwks: unknown): Promise<KeySet & { keys: readonly PublicKey[] }> {
  const keys = await importJwks(jwks);
  const set = (header: JoseHeader) => {
    const found = selectKeys(keys, header);
    return found.length ? found : noMatch(header);
  };
  return Object.assign(set, { keys });
}

export interface RemoteJwksOptions {
  /** How long a fetched set is fresh (ms, default 10 min). */
  cacheMaxAge?: number;
  /** Minimum time between fetches triggered by unknown kids (ms, default 30 s). */
  cooldownDuration?: number;
  /** Fetch timeout (ms, default 5 s). */
  timeoutDuration?: number;
  /** Largest accepted response (bytes, default 1 MiB: PQ keys are big, but not that big). */
  maxBytes?: number;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
}

export interface RemoteKeySet extends KeySet {
  /** Fetch now (ignores freshness, respects nothing): for warm-up and tests. */
  reload(): Promise<void>;
  readonly fresh: boolean;
}

export function createRemoteJWKSet(url: URL | string, opts: RemoteJwksOptions = {}): RemoteKeySet {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new InvalidArgument(`invalid JWKS URL ${JSON.stringify(String(url))}`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    throw new InvalidArgument('JWKS URL must be http(s)');
  const {
    cacheMaxAge = 600_000,
    cooldownDuration = 30_000,
    timeoutDuration = 5_000,
    maxBytes = 1 << 20,
  } = opts;
  const doFetch = opts.fetch ?? fetch;
  let keys: PublicKey[] | undefined;
  let fetchedAt = 0;
  let pending: Promise<void> | undefined;

  const load = () => {
    pending ??= (async () => {
      try {
        const res = await doFetch(u, {
          headers: { accept: 'application/json, application/jwk-set+json', ...opts.headers },
          signal: AbortSignal.timeout(timeoutDuration),
          redirect: 'manual',
        });
        if (res.status !== 200) throw new JwksFetchFailed(`JWKS fetch returned HTTP ${res.status}`);
        const body = await readLimited(res, maxBytes);
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          throw new JwksFetchFailed('JWKS response is not JSON');
        }
        keys = await importJwks(json).catch((e) => {
          throw new JwksFetchFailed(`JWKS response is not a JWKS: ${(e as Error).message}`);
        });
        fetchedAt = Date.now();
      } catch (e) {
        if (e instanceof JwksFetchFailed) throw e;
        throw new JwksFetchFailed(`JWKS fetch failed: ${(e as Error).message}`, { cause: e });
      } finally {
        pending = undefined;
      }
    })();
    return pending;
  };

  const set = async (header: JoseHeader) => {
    if (!isRegistered(header.alg)) noMatch(header);
    if (!keys || Date.now() - fetchedAt > cacheMaxAge) await load();
    let found = selectKeys(keys as PublicKey[], header);
    if (found.length === 0 && Date.now() - fetchedAt > cooldownDuration) {
      await load();
      found = selectKeys(keys as PublicKey[], header);
    }
    return found.length ? found : noMatch(header);
  };
  // defineProperties, not Object.assign: assign would copy the getter's value once.
  return Object.defineProperties(set, {
    reload: { value: load },
    fresh: { get: () => !!keys && Date.now() - fetchedAt <= cacheMaxAge },
  }) as unknown as RemoteKeySet;
}

/** Reads a body up to `max` bytes, stopping early instead of buffering whatever a server sends. */
async function readLimited(res: Response, max: number): Promise<string> {
  const tooBig = () => new JwksFetchFailed(`JWKS response larger than ${max} bytes`);
  if (Number(res.headers.get('content-length') ?? 0) > max) throw tooBig();
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) throw tooBig(); // leaving the loop cancels the stream
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
