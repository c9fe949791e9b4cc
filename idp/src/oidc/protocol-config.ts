/**
 * Configuration of the OAuth extensions: DPoP, pushed authorization requests, dynamic client
 * registration, resource servers (RFC 8707) and back-channel logout, plus the HTTP header limit
 * that lets post-quantum DPoP proofs in. Every section is validated at start like the rest of
 * config.ts; `fail` throws the ConfigError that names the setting.
 */
import { algorithms } from '@pqid/jose';
import { OutboundAllowlist } from '../clients/address-policy.ts';

export interface DpopConfig {
  /** Larger `DPoP` headers are refused with invalid_dpop_proof (an ML-DSA-87 composite proof is ~11.3 KB). */
  maxProofBytes: number;
  /** Seconds a proof's `iat` may differ from now, either way; also how long its `jti` is remembered. */
  iatWindow: number;
  /** Every proof must carry a current server nonce (`DPoP-Nonce`, RFC 9449 §8). */
  requireNonce: boolean;
  /** Seconds one nonce is current; the previous one is still accepted, so a nonce lives 1–2×. */
  nonceLifetime: number;
}

export interface ParConfig {
  /** Every client must push its authorization requests (RFC 9126 §5). */
  required: boolean;
  /** Seconds a `request_uri` stays usable (once). */
  requestUriLifetime: number;
}

export type RegistrationMode = 'off' | 'open' | 'token';

export interface RegistrationConfig {
  /** `off`: no registration endpoint; `open`: anyone may register; `token`: an initial access token is needed. */
  mode: RegistrationMode;
  /** The initial access token for `token` mode (RFC 7591 §3): a bearer token of at least 16 characters. */
  initialAccessToken?: string;
}

export interface ResourceServerConfig {
  /** The resource indicator (RFC 8707 §2): absolute URI without fragment, the `aud` of its tokens. */
  uri: string;
  /** Scopes this resource accepts; its access tokens carry only granted scopes from this list. */
  scope: string[];
  /** Algorithm of its JWT access tokens (default: the client's access-token algorithm). */
  accessTokenSigningAlg?: string;
  /** `jwt` (default: the resource verifies locally) or `reference` (it introspects). */
  accessTokenFormat: 'jwt' | 'reference';
}

export interface BackchannelLogoutConfig {
  /** Deliveries in flight at once, over all sign-outs of this instance. */
  concurrency: number;
  /** Tries per RP before giving up (1 = no retry). */
  attempts: number;
  /** Seconds one POST may take (fractions allowed). */
  timeout: number;
  /** Seconds before the first retry, doubled for each further one (fractions allowed). */
  retryDelay: number;
  /** Seconds between looks at the shared outbox for deliveries no live instance works on. */
  sweepInterval: number;
}

export interface OutboundConfig {
  /**
   * Host names, IP addresses and CIDR ranges that dynamically registered clients may make the
   * provider reach although they are internal (loopback, private, link-local, …), and over http.
   * Empty by default: such clients reach public https URLs only (clients/outbound.ts).
   */
  allow: string[];
}

export interface RequestObjectConfig {
  /**
   * Refuse request objects without a `jti`. Off by default (RFC 9101 makes `jti` optional);
   * a `jti`, when present, is accepted once in any case.
   */
  requireJti: boolean;
}

export interface ProtocolConfig {
  /** Node's limit on the request line plus all headers (http `maxHeaderSize`), bytes. */
  maxHeaderBytes: number;
  dpop: DpopConfig;
  par: ParConfig;
  registration: RegistrationConfig;
  /** Keyed by resource indicator. */
  resourceServers: Record<string, ResourceServerConfig>;
  backchannelLogout: BackchannelLogoutConfig;
  outbound: OutboundConfig;
  requestObjects: RequestObjectConfig;
}

export const PROTOCOL_KEYS = [
  'maxHeaderBytes',
  'dpop',
  'par',
  'registration',
  'resourceServers',
  'backchannelLogout',
  'outbound',
  'requestObjects',
] as const;

export type ProtocolOverrides = {
  maxHeaderBytes?: number;
  dpop?: Partial<DpopConfig>;
  par?: Partial<ParConfig>;
  registration?: Partial<RegistrationConfig>;
  resourceServers?: Record<
    string,
    Partial<Omit<ResourceServerConfig, 'scope'>> & { scope?: string | string[] }
  >;
  backchannelLogout?: Partial<BackchannelLogoutConfig>;
  outbound?: Partial<OutboundConfig>;
  requestObjects?: Partial<RequestObjectConfig>;
};

export const protocolDefaults = (): ProtocolConfig => ({
  // Room for an ML-DSA-87 composite DPoP proof (~11.3 KB) next to an ML-DSA-87 JWT access
  // token (~6.8 KB) and ordinary headers; Node's own default is 16 KiB.
  maxHeaderBytes: 32 * 1024,
  dpop: { maxProofBytes: 16 * 1024, iatWindow: 300, requireNonce: false, nonceLifetime: 300 },
  par: { required: false, requestUriLifetime: 60 },
  registration: { mode: 'off' },
  resourceServers: {},
  backchannelLogout: { concurrency: 8, attempts: 3, timeout: 5, retryDelay: 1, sweepInterval: 30 },
  outbound: { allow: [] },
  requestObjects: { requireJti: false },
});

type Fail = (message: string) => never;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function positiveInt(v: unknown, name: string, fail: Fail): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) fail(`${name} must be a positive integer`);
  return v as number;
}

function bool(v: unknown, name: string, fail: Fail): boolean {
  if (typeof v !== 'boolean') fail(`${name} must be true or false`);
  return v as boolean;
}

/** Merge object layers of one section, each key checked by `set`. */
function section(
  name: string,
  layers: unknown[],
  set: (key: string, value: unknown) => boolean,
  fail: Fail,
): void {
  for (const raw of layers) {
    if (raw === undefined) continue;
    if (!isObject(raw)) fail(`${name} must be an object`);
    for (const [k, v] of Object.entries(raw as Record<string, unknown>))
      if (!set(k, v)) fail(`${name}: unknown setting "${k}"`);
  }
}

/** An absolute URI without fragment (RFC 8707 §2), as written (it is compared exactly). */
export function checkResourceUri(uri: unknown): string | undefined {
  if (typeof uri !== 'string' || uri === '' || uri.length > 2048) return undefined;
  try {
    const url = new URL(uri);
    if (url.hash || uri.includes('#')) return undefined;
  } catch {
    return undefined;
  }
  return uri;
}

function resourceServer(uri: string, raw: unknown, fail: Fail): ResourceServerConfig {
  const name = `resourceServers[${JSON.stringify(uri)}]`;
  if (checkResourceUri(uri) === undefined)
    fail(`${name}: a resource indicator must be an absolute URI without a fragment`);
  if (!isObject(raw)) fail(`${name} must be an object`);
  const rs: ResourceServerConfig = { uri, scope: [], accessTokenFormat: 'jwt' };
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    if (k === 'scope') {
      const list = typeof v === 'string' ? v.split(' ').filter(Boolean) : v;
      if (
        !Array.isArray(list) ||
        list.some((s) => typeof s !== 'string' || !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s))
      )
        fail(`${name}.scope must be a space-separated string or an array of scope tokens`);
      rs.scope = [...new Set(list as string[])];
    } else if (k === 'accessTokenSigningAlg') {
      if (typeof v !== 'string' || !algorithms().includes(v))
        fail(`${name}.accessTokenSigningAlg must be one of ${algorithms().join(', ')}`);
      rs.accessTokenSigningAlg = v as string;
    } else if (k === 'accessTokenFormat') {
      if (v !== 'jwt' && v !== 'reference') fail(`${name}.accessTokenFormat must be jwt or reference`);
      rs.accessTokenFormat = v as 'jwt' | 'reference';
    } else {
      fail(`${name}: unknown setting "${k}"`);
    }
  }
  return rs;
}

/**
 * The protocol sections from the file (`file[key]`), then overrides, then environment
 * (`PQID_REGISTRATION`, `PQID_REGISTRATION_TOKEN`, `PQID_OUTBOUND_ALLOW`).
 */
export function parseProtocolConfig(
  file: Record<string, unknown>,
  overrides: ProtocolOverrides,
  env: Record<string, string | undefined>,
  fail: Fail,
): ProtocolConfig {
  const cfg = protocolDefaults();
  for (const v of [file.maxHeaderBytes, overrides.maxHeaderBytes])
    if (v !== undefined) cfg.maxHeaderBytes = positiveInt(v, 'maxHeaderBytes', fail);

  section(
    'dpop',
    [file.dpop, overrides.dpop],
    (k, v) => {
      if (k === 'requireNonce') cfg.dpop.requireNonce = bool(v, 'dpop.requireNonce', fail);
      else if (k === 'maxProofBytes' || k === 'iatWindow' || k === 'nonceLifetime')
        cfg.dpop[k] = positiveInt(v, `dpop.${k}`, fail);
      else return false;
      return true;
    },
    fail,
  );
  section(
    'par',
    [file.par, overrides.par],
    (k, v) => {
      if (k === 'required') cfg.par.required = bool(v, 'par.required', fail);
      else if (k === 'requestUriLifetime') cfg.par.requestUriLifetime = positiveInt(v, `par.${k}`, fail);
      else return false;
      return true;
    },
    fail,
  );
  const envRegistration = env.PQID_REGISTRATION ? { mode: env.PQID_REGISTRATION } : undefined;
  const envToken = env.PQID_REGISTRATION_TOKEN
    ? { initialAccessToken: env.PQID_REGISTRATION_TOKEN }
    : undefined;
  section(
    'registration',
    [file.registration, overrides.registration, envRegistration, envToken],
    (k, v) => {
      if (k === 'mode') {
        if (v !== 'off' && v !== 'open' && v !== 'token')
          fail(`registration.mode must be off, open or token; got ${JSON.stringify(v)}`);
        cfg.registration.mode = v as RegistrationMode;
      } else if (k === 'initialAccessToken') {
        if (typeof v !== 'string' || v.length < 16)
          fail('registration.initialAccessToken must be at least 16 characters (a random token)');
        cfg.registration.initialAccessToken = v as string;
      } else return false;
      return true;
    },
    fail,
  );
  if (cfg.registration.mode === 'token' && cfg.registration.initialAccessToken === undefined)
    fail('registration.mode "token" needs registration.initialAccessToken (PQID_REGISTRATION_TOKEN)');

  for (const layer of [file.resourceServers, overrides.resourceServers]) {
    if (layer === undefined) continue;
    if (!isObject(layer)) fail('resourceServers must be an object keyed by resource indicator');
    for (const [uri, raw] of Object.entries(layer as Record<string, unknown>))
      cfg.resourceServers[uri] = resourceServer(uri, raw, fail);
  }

  section(
    'backchannelLogout',
    [file.backchannelLogout, overrides.backchannelLogout],
    (k, v) => {
      if (k === 'concurrency' || k === 'attempts')
        cfg.backchannelLogout[k] = positiveInt(v, `backchannelLogout.${k}`, fail);
      else if (k === 'timeout' || k === 'retryDelay' || k === 'sweepInterval') {
        if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || v > 3600)
          fail(`backchannelLogout.${k} must be a number of seconds, > 0 and at most 3600`);
        cfg.backchannelLogout[k] = v as number;
      } else return false;
      return true;
    },
    fail,
  );

  // PQID_OUTBOUND_ALLOW: the same list, comma- or space-separated; it replaces the file's.
  const envAllow = env.PQID_OUTBOUND_ALLOW
    ? { allow: env.PQID_OUTBOUND_ALLOW.split(/[\s,]+/).filter(Boolean) }
    : undefined;
  section(
    'outbound',
    [file.outbound, overrides.outbound, envAllow],
    (k, v) => {
      if (k !== 'allow') return false;
      if (!Array.isArray(v) || v.some((e) => typeof e !== 'string' || e.trim() === ''))
        fail('outbound.allow must be an array of host names, IP addresses or CIDR ranges');
      try {
        new OutboundAllowlist(v as string[]);
      } catch (e) {
        fail(`outbound.allow: ${(e as Error).message}`);
      }
      cfg.outbound.allow = [...(v as string[])];
      return true;
    },
    fail,
  );
  section(
    'requestObjects',
    [file.requestObjects, overrides.requestObjects],
    (k, v) => {
      if (k !== 'requireJti') return false;
      cfg.requestObjects.requireJti = bool(v, 'requestObjects.requireJti', fail);
      return true;
    },
    fail,
  );

  // A proof the DPoP check would accept must get past Node's header parser first.
  if (cfg.maxHeaderBytes < cfg.dpop.maxProofBytes + 4096)
    fail(
      `maxHeaderBytes (${cfg.maxHeaderBytes}) must exceed dpop.maxProofBytes (${cfg.dpop.maxProofBytes}) by at least 4096 bytes for the other headers`,
    );
  return cfg;
}

/** Algorithms the configuration pins for resource servers: their keys are made at start. */
export const resourceServerAlgs = (cfg: ProtocolConfig): string[] => [
  ...new Set(
    Object.values(cfg.resourceServers).flatMap((r) =>
      r.accessTokenSigningAlg === undefined ? [] : [r.accessTokenSigningAlg],
    ),
  ),
];
