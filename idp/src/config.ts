/**
 * Configuration: embedded defaults, then an optional JSON file (`PQID_CONFIG` or an explicit
 * path), then environment variables. Everything is validated once, at start, so a bad value
 * fails with one clear message instead of a confusing error on the first request.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { algorithms } from '@pqid/jose';
import { type KeysConfig, parseKeysConfig, slowHotPathRefusal } from './keys/config.ts';
import { isSlowSigner } from './keys/placement.ts';
import {
  PROTOCOL_KEYS,
  type ProtocolConfig,
  type ProtocolOverrides,
  parseProtocolConfig,
} from './oidc/protocol-config.ts';
import { parseSamlConfig, rootAlgs, type SamlConfig } from './saml/config.ts';
import { type LoginLimitsConfig, parseLoginLimits } from './security/config.ts';
import { type PasskeysConfig, parsePasskeysConfig, rpIdFor } from './signin/passkeys/config.ts';
import { isPostgresUrl, parsePostgresUrl, redactDatabaseUrl } from './storage/pg-url.ts';

export interface DemoConfig {
  /** Seed the demo user and client on first start. */
  enabled: boolean;
  username: string;
  password: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  idTokenSignedResponseAlg: string;
}

export interface TtlConfig {
  /** Authorization codes: single use, short-lived (seconds). */
  authorizationCode: number;
  accessToken: number;
  idToken: number;
  refreshToken: number;
  session: number;
  interaction: number;
}

/** DPoP, PAR, registration, resource servers, back-channel logout: oidc/protocol-config.ts. */
export interface Config extends ProtocolConfig {
  port: number;
  host: string;
  /** Issuer identifier without a trailing slash. */
  issuer: string;
  dataDir: string;
  /** Storage location: `sqlite:<path>` (default `<dataDir>/pqid.sqlite`) or `postgres://…`. */
  databaseUrl: string;
  /** Algorithm for clients that do not register one, and for the first key generated. */
  defaultSigningAlg: string;
  ttl: TtlConfig;
  /** Body size limit for every endpoint; PQ tokens are large but requests need not be. */
  bodyLimit: number;
  logLevel: string;
  demo: DemoConfig;
  /**
   * `auto` access tokens fall back to reference tokens when `Authorization: Bearer <jwt>` would
   * exceed this many bytes (nginx/Apache default header line limit).
   */
  accessTokenHeaderBudget: number;
  /** Algorithm for JWT access tokens; absent = the client's `id_token_signed_response_alg`. */
  accessTokenSigningAlg?: string;
  /**
   * Seconds between sweeps that delete expired codes, tokens, sessions and grant tombstones
   * (reads already ignore them; the sweep reclaims the space). 0 turns the sweep off.
   */
  purgeInterval: number;
  /**
   * Seconds a client record read from storage is reused by this instance (whole seconds, 0–60;
   * 0 reads it on every request). Writes through this instance take effect at once; a change
   * made by another instance or `pqid clients` lands here within this time.
   */
  clientCacheTtl: number;
  /** When set, GET /metrics requires `Authorization: Bearer <metricsToken>`. */
  metricsToken?: string;
  /** Key placement and rotation timing (keys/config.ts). */
  keys: KeysConfig;
  /** Login brute-force limits (security/config.ts). */
  loginLimits: LoginLimitsConfig;
  /** SAML IdP: root key algorithm, metadata keys, lifetimes (saml/config.ts). */
  saml: SamlConfig;
  /** Passkeys (WebAuthn): relying party, algorithms, challenge lifetime (signin/passkeys/config.ts). */
  passkeys: PasskeysConfig;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

const DEFAULT_TTL: TtlConfig = {
  authorizationCode: 60,
  accessToken: 3600,
  idToken: 3600,
  refreshToken: 14 * 86400,
  session: 86400,
  interaction: 600,
};

function defaults(cwd: string): Omit<
  Config,
  'issuer' | 'databaseUrl' | 'keys' | 'loginLimits' | 'saml' | 'passkeys' | keyof ProtocolConfig
> & {
  issuer?: string;
  databaseUrl?: string;
} {
  return {
    port: 3000,
    host: '127.0.0.1',
    dataDir: resolve(cwd, 'data'),
    defaultSigningAlg: 'ML-DSA-65',
    ttl: { ...DEFAULT_TTL },
    bodyLimit: 64 * 1024,
    logLevel: 'info',
    accessTokenHeaderBudget: 8190,
    purgeInterval: 600,
    clientCacheTtl: 2,
    demo: {
      enabled: true,
      username: 'demo',
      password: 'demo',
      clientId: 'demo-client',
      clientSecret: 'demo-secret',
      redirectUri: 'http://localhost:3001/callback',
      idTokenSignedResponseAlg: 'ML-DSA-65',
    },
  };
}

function readFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read config file ${path}: ${(e as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`config file ${path} is not valid JSON: ${(e as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new ConfigError(`config file ${path} must hold a JSON object`);
  return parsed as Record<string, unknown>;
}

function port(value: unknown, source: string): number {
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 65535) {
    throw new ConfigError(`${source} must be a port number 0–65535, got ${JSON.stringify(value)}`);
  }
  return n;
}

function issuer(value: unknown, source: string): string {
  if (typeof value !== 'string' || value === '') throw new ConfigError(`${source} must be a URL string`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${source} is not a valid URL: ${JSON.stringify(value)}`);
  }
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) {
    throw new ConfigError(`${source} must use https (http is allowed only for localhost), got ${value}`);
  }
  if (url.search || url.hash)
    throw new ConfigError(`${source} must not have a query or fragment (OpenID Connect Discovery §3)`);
  return url.href.replace(/\/+$/, '');
}

function str(value: unknown, source: string): string {
  if (typeof value !== 'string' || value === '')
    throw new ConfigError(`${source} must be a non-empty string`);
  return value;
}

/** A whole number ≥ 0, also from an environment string. */
function nonNegativeInt(value: unknown, source: string): number {
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
    throw new ConfigError(`${source} must be a whole number of seconds ≥ 0, got ${JSON.stringify(value)}`);
  return n;
}

function positiveInt(value: unknown, source: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)
    throw new ConfigError(`${source} must be a positive integer`);
  return value;
}

const KNOWN_KEYS = new Set([
  'port',
  'host',
  'issuer',
  'dataDir',
  'databaseUrl',
  'defaultSigningAlg',
  'ttl',
  'bodyLimit',
  'logLevel',
  'demo',
  'accessTokenHeaderBudget',
  'accessTokenSigningAlg',
  'purgeInterval',
  'clientCacheTtl',
  'metricsToken',
  'keys',
  'loginLimits',
  'saml',
  'passkeys',
  ...PROTOCOL_KEYS,
]);

export interface LoadConfigOptions {
  env?: Env;
  /** A JSON config file; defaults to `env.PQID_CONFIG`. */
  file?: string;
  cwd?: string;
  /** Direct overrides, applied last (tests). */
  overrides?: Partial<
    Omit<Config, 'ttl' | 'demo' | 'keys' | 'loginLimits' | 'saml' | 'passkeys' | keyof ProtocolConfig>
  > &
    ProtocolOverrides & {
      ttl?: Partial<TtlConfig>;
      demo?: Partial<DemoConfig>;
      keys?: Partial<Omit<KeysConfig, 'placement'>> & { placement?: Partial<KeysConfig['placement']> };
      loginLimits?: Partial<LoginLimitsConfig>;
      saml?: Partial<SamlConfig>;
      passkeys?: Partial<PasskeysConfig>;
    };
}

export function loadConfig(opts: LoadConfigOptions = {}): Config {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const base = defaults(cwd);
  const filePath = opts.file ?? env.PQID_CONFIG;
  const file = filePath ? readFile(resolve(cwd, filePath)) : {};
  const src = filePath ? `config file ${filePath}` : 'config';
  for (const k of Object.keys(file))
    if (!KNOWN_KEYS.has(k)) throw new ConfigError(`${src}: unknown setting "${k}"`);

  const o = opts.overrides ?? {};
  const pick = <T>(key: string, envName: string | undefined): { value: T | undefined; source: string } => {
    if ((o as Record<string, unknown>)[key] !== undefined)
      return { value: (o as Record<string, T>)[key], source: key };
    if (envName && env[envName] !== undefined && env[envName] !== '')
      return { value: env[envName] as T, source: envName };
    if (file[key] !== undefined) return { value: file[key] as T, source: `${src}: ${key}` };
    return { value: undefined, source: key };
  };

  const p = pick<unknown>('port', 'PQID_PORT');
  const cfgPort = p.value === undefined ? base.port : port(p.value, p.source);
  const h = pick<unknown>('host', 'PQID_HOST');
  const host = h.value === undefined ? base.host : str(h.value, h.source);
  const i = pick<unknown>('issuer', 'PQID_ISSUER');
  const cfgIssuer = i.value === undefined ? `http://localhost:${cfgPort}` : issuer(i.value, i.source);
  const d = pick<unknown>('dataDir', 'PQID_DATA_DIR');
  const dataDir = d.value === undefined ? base.dataDir : resolve(cwd, str(d.value, d.source));
  const u = pick<unknown>('databaseUrl', 'PQID_DATABASE_URL');
  const databaseUrl =
    u.value === undefined ? `sqlite:${resolve(dataDir, 'pqid.sqlite')}` : str(u.value, u.source);
  const a = pick<unknown>('defaultSigningAlg', 'PQID_DEFAULT_SIGNING_ALG');
  const defaultSigningAlg = a.value === undefined ? base.defaultSigningAlg : str(a.value, a.source);
  const l = pick<unknown>('logLevel', 'PQID_LOG_LEVEL');
  const logLevel = l.value === undefined ? base.logLevel : str(l.value, l.source);
  const b = pick<unknown>('bodyLimit', undefined);
  const bodyLimit = b.value === undefined ? base.bodyLimit : positiveInt(b.value, b.source);

  const hb = pick<unknown>('accessTokenHeaderBudget', undefined);
  const accessTokenHeaderBudget =
    hb.value === undefined ? base.accessTokenHeaderBudget : positiveInt(hb.value, hb.source);

  const pi = pick<unknown>('purgeInterval', 'PQID_PURGE_INTERVAL');
  const purgeInterval = pi.value === undefined ? base.purgeInterval : nonNegativeInt(pi.value, pi.source);

  const cc = pick<unknown>('clientCacheTtl', 'PQID_CLIENT_CACHE_TTL');
  const clientCacheTtl = cc.value === undefined ? base.clientCacheTtl : nonNegativeInt(cc.value, cc.source);
  if (clientCacheTtl > 60)
    throw new ConfigError(
      `${cc.source} must be at most 60 seconds: a longer cache keeps a removed client working`,
    );

  const mt = pick<unknown>('metricsToken', 'PQID_METRICS_TOKEN');
  const metricsToken = mt.value === undefined ? undefined : str(mt.value, mt.source);
  if (metricsToken !== undefined && metricsToken.length < 16)
    throw new ConfigError(`${mt.source} must be at least 16 characters (a random token, not a word)`);

  const ats = pick<unknown>('accessTokenSigningAlg', 'PQID_ACCESS_TOKEN_SIGNING_ALG');
  const accessTokenSigningAlg = ats.value === undefined ? undefined : str(ats.value, ats.source);
  if (accessTokenSigningAlg !== undefined && !algorithms().includes(accessTokenSigningAlg))
    throw new ConfigError(
      `${ats.source}: ${accessTokenSigningAlg} is not available; choose one of ${algorithms().join(', ')}`,
    );

  const ttl: TtlConfig = { ...base.ttl };
  const fileTtl = (file.ttl ?? {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries({ ...fileTtl, ...(o.ttl ?? {}) })) {
    if (!(k in ttl)) throw new ConfigError(`${src}: unknown ttl "${k}"`);
    ttl[k as keyof TtlConfig] = positiveInt(v, `ttl.${k}`);
  }
  const demo: DemoConfig = { ...base.demo, ...((file.demo ?? {}) as Partial<DemoConfig>), ...(o.demo ?? {}) };
  if (env.PQID_DEMO !== undefined)
    demo.enabled = !['0', 'false', 'no', 'off'].includes(env.PQID_DEMO.toLowerCase());
  if (typeof demo.enabled !== 'boolean') throw new ConfigError('demo.enabled must be a boolean');
  if (demo.enabled) {
    for (const k of [
      'username',
      'password',
      'clientId',
      'clientSecret',
      'redirectUri',
      'idTokenSignedResponseAlg',
    ] as const)
      str(demo[k], `demo.${k}`);
  }

  const fail = (m: string): never => {
    throw new ConfigError(`${src}: ${m}`);
  };
  // PQID_ACCESS_TOKEN_SIGNING_ALG is a shorthand for keys.placement.accessToken (which wins).
  const atPlacement = accessTokenSigningAlg
    ? { placement: { accessToken: accessTokenSigningAlg } }
    : undefined;
  const keys = parseKeysConfig([atPlacement, file.keys, o.keys], defaultSigningAlg, fail);
  const loginLimits = parseLoginLimits([file.loginLimits, o.loginLimits], fail);
  const saml = parseSamlConfig([file.saml, o.saml], fail);
  const passkeys = parsePasskeysConfig([file.passkeys, o.passkeys], fail);
  try {
    rpIdFor(passkeys, cfgIssuer);
  } catch (e) {
    fail((e as Error).message);
  }
  const protocol = parseProtocolConfig(file, o, env, fail);
  resolveColdPath(keys, saml, defaultSigningAlg, demo, fail);

  validateDatabaseUrl(databaseUrl);
  return {
    port: cfgPort,
    host,
    issuer: cfgIssuer,
    dataDir,
    databaseUrl,
    defaultSigningAlg,
    ttl,
    bodyLimit,
    logLevel,
    demo,
    accessTokenHeaderBudget,
    purgeInterval,
    clientCacheTtl,
    ...(metricsToken !== undefined ? { metricsToken } : {}),
    ...(accessTokenSigningAlg !== undefined ? { accessTokenSigningAlg } : {}),
    keys,
    loginLimits,
    saml,
    passkeys,
    ...protocol,
  };
}

/**
 * The cold path has one algorithm, `keys.placement.cold`; `saml.rootAlg` is its older name and
 * fills it in when it is not set. The root signs certificates, XML metadata and the signed JWKS,
 * so it must be an algorithm that does all three. The hot path's defaults must not be SLH-DSA
 * unless the operator allowed it (keys/config.ts).
 */
function resolveColdPath(
  keys: KeysConfig,
  saml: SamlConfig,
  defaultSigningAlg: string,
  demo: DemoConfig,
  fail: (m: string) => never,
): void {
  if (saml.rootAlg !== undefined) {
    if (keys.placement.cold !== 'auto' && keys.placement.cold !== saml.rootAlg)
      fail(
        `saml.rootAlg (${saml.rootAlg}) and keys.placement.cold (${keys.placement.cold}) name different cold-path roots; keep keys.placement.cold only`,
      );
    keys.placement.cold = saml.rootAlg;
  }
  if (keys.placement.cold !== 'auto' && !rootAlgs().includes(keys.placement.cold))
    fail(
      `keys.placement.cold must be auto or one of ${rootAlgs().join(', ')} (the root signs certificates, XML metadata and the signed JWKS); got ${keys.placement.cold}`,
    );
  if (!keys.allowSlhDsaHotPath) {
    if (isSlowSigner(defaultSigningAlg)) fail(slowHotPathRefusal('defaultSigningAlg', defaultSigningAlg));
    if (demo.enabled && isSlowSigner(demo.idTokenSignedResponseAlg))
      fail(slowHotPathRefusal('demo.idTokenSignedResponseAlg', demo.idTokenSignedResponseAlg));
  }
}

/** `sqlite:<path>` (embedded) or `postgres://…` (several instances); anything else is refused. */
export function validateDatabaseUrl(url: string): void {
  if (isPostgresUrl(url)) {
    try {
      parsePostgresUrl(url);
    } catch (e) {
      throw new ConfigError((e as Error).message);
    }
    return;
  }
  if (!/^sqlite:/i.test(url))
    throw new ConfigError(
      `PQID_DATABASE_URL must be sqlite:<path>, sqlite::memory: or postgres://user@host:port/db, got ${JSON.stringify(redactDatabaseUrl(url))}`,
    );
  parseSqliteUrl(url);
}

export type SqliteSynchronous = 'normal' | 'full';

/**
 * `sqlite:<path>[?synchronous=normal|full]`. `normal` (the default) is WAL's usual setting:
 * never corrupt, and a commit survives a crash of the process; only an OS crash or power loss
 * can take the last commits with it. `full` also fsyncs every commit, which on this machine
 * cost ~150 µs of blocked event loop per token against ~30 µs (docs/BENCHMARKS.md).
 */
export function parseSqliteUrl(url: string): { path: string; synchronous: SqliteSynchronous } {
  const rest = url.slice('sqlite:'.length);
  const q = rest.indexOf('?');
  const path = (q < 0 ? rest : rest.slice(0, q)).replace(/^\/\/(?=\/)/, '');
  if (path === '') throw new ConfigError('PQID_DATABASE_URL: sqlite: needs a file path (or :memory:)');
  let synchronous: SqliteSynchronous = 'normal';
  for (const [k, v] of new URLSearchParams(q < 0 ? '' : rest.slice(q + 1))) {
    if (k !== 'synchronous')
      throw new ConfigError(
        `PQID_DATABASE_URL: unknown sqlite option ${JSON.stringify(k)} (known: synchronous)`,
      );
    if (v !== 'normal' && v !== 'full')
      throw new ConfigError(
        `PQID_DATABASE_URL: synchronous must be normal or full, got ${JSON.stringify(v)}`,
      );
    synchronous = v;
  }
  return { path, synchronous };
}
