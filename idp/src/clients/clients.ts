/**
 * Registered relying parties. Secrets are stored hashed only (crypto/secrets.ts says how).
 * Every way in — `pqid clients add`, dynamic registration (RFC 7591/7592), the demo seed, tests —
 * goes through `Clients.register`/`replace`, which read the metadata through the attribute table
 * (attributes.ts, metadata.ts): one set of rules for every client.
 */
import { hashGeneratedSecret, hashSecret, randomToken, verifySecret } from '../crypto/secrets.ts';
import { OutboundAllowlist } from '../policy/addresses.ts';
import type { Adapter } from '../storage/adapter.ts';
import { type Model, typed } from '../storage/model.ts';
import type { Client, ClientInput } from './attributes.ts';
import { ClientCache } from './client-cache.ts';
import { ClientError } from './client-error.ts';
import { needsSecret } from './enums.ts';
import { inTableOrder, parseClientMetadata, resolveClient } from './metadata.ts';
import type { Trust } from './outbound.ts';

export type { Client, ClientInput } from './attributes.ts';
export {
  ACCESS_TOKEN_FORMATS,
  ACCESS_TOKEN_STORAGES,
  type AccessTokenFormat,
  AUTH_METHODS,
  GRANT_TYPES,
  type GrantType,
  type TokenEndpointAuthMethod,
} from './enums.ts';
export { describeClient, parseClientMetadata } from './metadata.ts';
export { ClientError };

export interface ClientPolicy {
  /** Accept SLH-DSA for the algorithms the IdP signs with per token (keys.allowSlhDsaHotPath). */
  allowSlhDsaHotPath?: boolean;
  /** Seconds a record read from storage is reused (config `clientCacheTtl`; 0 or absent: never). */
  cacheTtl?: number;
  /** `outbound.allow`: hosts and ranges a dynamically registered client's server URLs may name. */
  outboundAllow?: OutboundAllowlist;
  /** The provider's encryption key algorithms (`keys.encryptionAlgs`): what request objects may use. */
  encryptionAlgs?: readonly string[];
}

/** What the provider assigns a dynamically registered client (RFC 7591 §3.2.1, RFC 7592). */
export type RegistrationMembers = Pick<Client, 'registration_access_token_hash' | 'client_id_issued_at'>;

/** Registered by an anonymous party through dynamic registration (RFC 7591), not the operator. */
export const isDynamic = (client: Pick<Client, 'registration_access_token_hash'>): boolean =>
  client.registration_access_token_hash !== undefined;

/** The outbound trust of requests made for this client (clients/outbound.ts). */
export const trustOf = (client: Pick<Client, 'registration_access_token_hash'>): Trust =>
  isDynamic(client) ? 'dynamic' : 'operator';

const NO_EXCEPTIONS = new OutboundAllowlist();

const now = () => Math.floor(Date.now() / 1000);

/**
 * A secret for a method that needs one: the caller's (slow hash: it may be guessable) or a
 * generated one (fast hash: it is not). The plaintext is returned to be shown once.
 */
async function newSecret(chosen: string | undefined): Promise<{ plain: string; hash: string }> {
  if (chosen !== undefined) return { plain: chosen, hash: await hashSecret(chosen) };
  const plain = randomToken(32);
  return { plain, hash: hashGeneratedSecret(plain) };
}

export class Clients {
  readonly #store: Model<Client>;
  readonly #defaultAlg: string;
  readonly #policy: ClientPolicy;
  readonly #cache: ClientCache<Client>;
  constructor(store: Adapter, defaultAlg: string, policy: ClientPolicy = {}) {
    this.#store = typed<Client>(store);
    this.#defaultAlg = defaultAlg;
    this.#policy = policy;
    this.#cache = new ClientCache(policy.cacheTtl ?? 0);
  }

  /** Every write of a client goes through here: the cached record is dropped once it is stored. */
  async #write(client: Client): Promise<void> {
    try {
      await this.#store.upsert(client.client_id, client);
    } finally {
      this.#cache.invalidate(client.client_id);
    }
  }

  /** The record of checked metadata: defaults, checks and rules (metadata.ts). */
  #resolve(meta: ClientInput, clientId: string, dynamic: boolean): Promise<Client> {
    return resolveClient(meta, clientId, {
      defaultAlg: this.#defaultAlg,
      dynamic,
      allowSlowSigners: this.#policy.allowSlhDsaHotPath ?? false,
      allow: this.#policy.outboundAllow ?? NO_EXCEPTIONS,
      encryptionAlgs: this.#policy.encryptionAlgs,
    });
  }

  /** The record an operator's `register` would store (without its secret), checked but not stored. */
  preview(input: ClientInput): Promise<Client> {
    const meta = parseClientMetadata(input, 'operator');
    return this.#resolve(meta, meta.client_id ?? randomToken(16), false);
  }

  /** Register a client; returns it with the plaintext secret (shown once). */
  async register(
    input: ClientInput,
    extra: RegistrationMembers = {},
  ): Promise<{ client: Client; clientSecret?: string }> {
    // A registration (RFC 7591) may not choose its client_id or secret (attributes.ts `setBy`).
    const dynamic = extra.registration_access_token_hash !== undefined;
    const meta = parseClientMetadata(input, dynamic ? 'registration' : 'operator');
    const client = await this.#resolve(meta, meta.client_id ?? randomToken(16), dynamic);
    const secret = needsSecret(client.token_endpoint_auth_method)
      ? await newSecret(meta.client_secret)
      : undefined;
    const stored = inTableOrder({
      ...client,
      ...(secret ? { client_secret_hash: secret.hash } : {}),
      // Every registration is stamped: tokens issued before it belong to an earlier one (holderOf).
      client_id_issued_at: now(),
      ...extra,
    });
    await this.#write(stored);
    return secret ? { client: stored, clientSecret: secret.plain } : { client: stored };
  }

  /**
   * Replace a client's metadata (RFC 7592 §2.2), validated like a new registration. The secret
   * stays (a `client_secret` in the input must be the current one); so does the registration
   * access token.
   */
  async replace(existing: Client, input: ClientInput): Promise<{ client: Client; clientSecret?: string }> {
    const meta = parseClientMetadata(input, 'update');
    if (meta.client_secret !== undefined && !(await this.checkSecret(existing, meta.client_secret)))
      throw new ClientError('client_secret does not match the current secret', 'client_secret');
    const client = await this.#resolve(meta, existing.client_id, isDynamic(existing));
    // The secret survives a change between secret-based methods; one is minted only if there was none.
    const secretBased = needsSecret(client.token_endpoint_auth_method);
    const kept = secretBased ? existing.client_secret_hash : undefined;
    const secret = secretBased && kept === undefined ? await newSecret(undefined) : undefined;
    const stored = inTableOrder({
      ...client,
      client_secret_hash: kept ?? secret?.hash,
      registration_access_token_hash: existing.registration_access_token_hash,
      client_id_issued_at: existing.client_id_issued_at,
    });
    await this.#write(stored);
    return secret ? { client: stored, clientSecret: secret.plain } : { client: stored };
  }

  /** The client, from this instance's cache when read in the last `cacheTtl` seconds. */
  async find(clientId: string): Promise<Client | undefined> {
    if (!this.#cache.enabled) return this.#store.find(clientId);
    const cached = this.#cache.get(clientId);
    if (cached !== undefined) return cached;
    const generation = this.#cache.generation;
    const client = await this.#store.find(clientId);
    return client === undefined ? undefined : this.#cache.set(clientId, client, generation);
  }

  async list(): Promise<Client[]> {
    return (await this.#store.list()).map((r) => r.payload);
  }

  /**
   * The registration a token of `clientId` issued at `issuedAt` (epoch seconds; absent in records
   * older than the stamp: 0) was issued to, if it still exists. Every presented token is checked
   * here (introspection, userinfo, refresh, code, pushed request, logout delivery), so removing a
   * client ends all it holds with no scan and no write per token. Read from storage, never from
   * the cache: another instance's removal must end the token here at once, not `cacheTtl`
   * seconds later. A client registered again under the same id has a later `client_id_issued_at`
   * than every token of the removed one (`remove` returns in a later second), so none of them
   * passes as its own.
   */
  async holderOf(clientId: string, issuedAt: number | undefined): Promise<Client | undefined> {
    const generation = this.#cache.generation;
    const client = await this.#store.find(clientId);
    if (client === undefined) {
      // Removed elsewhere: stop authenticating it here too. Only when cached, so that tokens of
      // long-gone clients do not keep other reads from being cached (a write bumps the generation).
      if (this.#cache.get(clientId) !== undefined) this.#cache.invalidate(clientId);
      return undefined;
    }
    // What was just read is the freshest copy: this instance's requests use it from now on.
    const current = this.#cache.enabled ? this.#cache.set(clientId, client, generation) : client;
    return (issuedAt ?? 0) >= (current.client_id_issued_at ?? 0) ? current : undefined;
  }

  /**
   * Remove a client. Its tokens, codes and pushed requests end with it (`holderOf`), on every
   * instance. Returns once the clock's second has turned, so that a registration under the same
   * id is stamped later than anything issued to this one.
   */
  async remove(clientId: string): Promise<void> {
    try {
      await this.#store.destroy(clientId);
    } finally {
      this.#cache.invalidate(clientId);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000)));
  }

  async checkSecret(client: Client, secret: string): Promise<boolean> {
    return verifySecret(secret, client.client_secret_hash);
  }
}

/** The algorithms a client's tokens may be signed with (keys to publish before first use). */
export function signingAlgs(client: Client, accessTokenAlg?: string): string[] {
  const algs = [client.id_token_signed_response_alg];
  if (client.userinfo_signed_response_alg) algs.push(client.userinfo_signed_response_alg);
  if (client.introspection_signed_response_alg) algs.push(client.introspection_signed_response_alg);
  if ((client.access_token_format ?? 'reference') !== 'reference')
    algs.push(accessTokenAlgOf(client, accessTokenAlg));
  return [...new Set(algs)];
}

/**
 * Client override, then the configured access-token alg, then the client's ID-token alg. Key
 * placement (`keys.placement.accessToken`, which `accessTokenSigningAlg` feeds) may still fix one.
 */
export function accessTokenAlgOf(client: Client, configured?: string): string {
  return client.access_token_signed_response_alg ?? configured ?? client.id_token_signed_response_alg;
}
