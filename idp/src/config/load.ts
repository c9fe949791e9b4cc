/**
 * Loading the configuration: the table's defaults, then a JSON file (`PQID_CONFIG` or an explicit
 * path), then environment variables, then overrides (tests, embedding). Every value given in any
 * layer is checked, and the whole is validated once, at start, so a bad value fails with one
 * clear message instead of a confusing error on the first request.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isSlowSigner, rootAlgs, slowHotPathRefusal } from '../policy/algorithms.ts';
import { rpIdFor } from '../policy/passkeys.ts';
import { validateDatabaseUrl } from './database-url.ts';
import { type Env, processEnv } from './environment.ts';
import { isSection, SETTINGS, type Section, type Setting } from './table.ts';
import type {
  BackchannelLogoutConfig,
  Config,
  DemoConfig,
  DpopConfig,
  KeysConfig,
  LoginLimitsConfig,
  OutboundConfig,
  ParConfig,
  PasskeysConfig,
  RegistrationConfig,
  RequestObjectConfig,
  ResourceServerConfig,
  SamlConfig,
  TtlConfig,
} from './types.ts';
import { fail, isObject } from './values.ts';

type Sections = 'ttl' | 'demo' | 'keys' | 'loginLimits' | 'saml' | 'passkeys';
type ProtocolSections =
  | 'dpop'
  | 'par'
  | 'registration'
  | 'resourceServers'
  | 'backchannelLogout'
  | 'outbound'
  | 'requestObjects';

export interface LoadConfigOptions {
  env?: Env;
  /** A JSON config file; defaults to `env.PQID_CONFIG`. */
  file?: string;
  cwd?: string;
  /** Direct overrides, applied last (tests). */
  overrides?: Partial<Omit<Config, Sections | ProtocolSections>> & {
    ttl?: Partial<TtlConfig>;
    demo?: Partial<DemoConfig>;
    keys?: Partial<Omit<KeysConfig, 'placement'>> & { placement?: Partial<KeysConfig['placement']> };
    loginLimits?: Partial<LoginLimitsConfig>;
    saml?: Partial<SamlConfig>;
    passkeys?: Partial<PasskeysConfig>;
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
}

export function loadConfig(opts: LoadConfigOptions = {}): Config {
  const env = opts.env ?? processEnv();
  const cwd = opts.cwd ?? process.cwd();
  const path = opts.file ?? env.PQID_CONFIG;
  const layers: Layers = {
    file: path ? readConfigFile(resolve(cwd, path)) : undefined,
    overrides: opts.overrides,
    env,
    where: path ? `config file ${path}` : 'config',
    given: new Set(),
  };
  const values = readSection(SETTINGS as Section<unknown>, '', layers.file, layers.overrides, layers);
  return completed(values as unknown as Config, cwd, layers);
}

function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return fail(`cannot read config file ${path}: ${(e as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return fail(`config file ${path} is not valid JSON: ${(e as Error).message}`);
  }
  if (!isObject(parsed)) fail(`config file ${path} must hold a JSON object`);
  return parsed as Record<string, unknown>;
}

interface Layers {
  file: unknown;
  overrides: unknown;
  env: Env;
  /** `config` or `config file <path>`, for messages about the file as a whole. */
  where: string;
  /** Paths that some layer set (rules that yield to an explicit setting ask). */
  given: Set<string>;
}

/** One section from both object layers, checking for unknown keys first. */
function readSection(
  section: Section<unknown>,
  path: string,
  file: unknown,
  overrides: unknown,
  layers: Layers,
): Record<string, unknown> {
  const entries = section.entries as Record<string, Setting<unknown> | Section<unknown>>;
  for (const layer of [file, overrides]) {
    if (layer === undefined) continue;
    if (!isObject(layer)) fail(`${path} must be an object`);
    for (const k of Object.keys(layer as object)) {
      if (k in entries) continue;
      const noun = section.noun ?? 'setting';
      const known = noun === 'setting' ? '' : `; one of ${Object.keys(entries).join(', ')}`;
      fail(`${layers.where}: ${path ? `${path}: ` : ''}unknown ${noun} "${k}"${known}`);
    }
  }
  const out: Record<string, unknown> = {};
  for (const [k, entry] of Object.entries(entries)) {
    const at = path ? `${path}.${k}` : k;
    const f = (file as Record<string, unknown> | undefined)?.[k];
    const o = (overrides as Record<string, unknown> | undefined)?.[k];
    const v = isSection(entry) ? readSection(entry, at, f, o, layers) : readSetting(entry, at, f, o, layers);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** One setting: its default, then file, environment and override, each checked. */
function readSetting(
  s: Setting<unknown>,
  at: string,
  file: unknown,
  override: unknown,
  layers: Layers,
): unknown {
  const given: Array<[unknown, string]> = [];
  if (file !== undefined) given.push([file, `${layers.where}: ${at}`]);
  const envText = s.env === undefined ? undefined : layers.env[s.env];
  if (s.env !== undefined && envText !== undefined && envText !== '')
    given.push([s.fromEnv ? s.fromEnv(envText) : envText, s.env]);
  if (override !== undefined) given.push([override, at]);
  let value = s.default();
  for (const [v, source] of given) {
    const checked = s.check(v, source);
    value = s.named ? { ...(value as object), ...(checked as object) } : checked;
  }
  if (given.length > 0) layers.given.add(at);
  return value;
}

/** Settings whose default depends on another, and the rules that tie settings together. */
function completed(c: Config, cwd: string, layers: Layers): Config {
  const cross = (m: string): never => fail(`${layers.where}: ${m}`);
  // The issuer names the port, and with port 0 the kernel picks it only at listen time.
  if (c.issuer === undefined && c.port === 0)
    cross(
      'port 0 (any free port) needs an explicit issuer: the default, http://localhost:<port>, would name port 0',
    );
  c.issuer ??= `http://localhost:${c.port}`;
  c.dataDir = resolve(cwd, c.dataDir);
  c.databaseUrl ??= `sqlite:${resolve(c.dataDir, 'pqid.sqlite')}`;
  if (c.demo.enabled)
    for (const [k, v] of Object.entries(c.demo)) if (v === '') fail(`demo.${k} must be a non-empty string`);
  // accessTokenSigningAlg is a shorthand for keys.placement.accessToken, which wins when set.
  if (c.accessTokenSigningAlg !== undefined && !layers.given.has('keys.placement.accessToken'))
    c.keys.placement.accessToken = c.accessTokenSigningAlg;
  for (const [set, name] of Object.entries(c.keys.custody))
    if (name !== 'sealed' && !(name in c.keys.signers))
      cross(`keys.custody.${set}: no signer named "${name}" in keys.signers`);
  if (!c.keys.allowSlhDsaHotPath)
    for (const pk of ['idToken', 'accessToken', 'userinfo'] as const) {
      const alg = c.keys.placement[pk];
      if (isSlowSigner(alg))
        cross(
          `keys.placement.${pk}: ${alg} would sign every token, at tens to hundreds of milliseconds per signature; SLH-DSA belongs on the cold path (keys.placement.cold). Set keys.allowSlhDsaHotPath to accept the cost (docs/KEYS.md, "SLH-DSA on the hot path")`,
        );
    }
  try {
    rpIdFor(c.passkeys, c.issuer);
  } catch (e) {
    cross((e as Error).message);
  }
  if (c.registration.mode === 'token' && c.registration.initialAccessToken === undefined)
    cross('registration.mode "token" needs registration.initialAccessToken (PQID_REGISTRATION_TOKEN)');
  // A proof the DPoP check would accept must get past Node's header parser first.
  if (c.maxHeaderBytes < c.dpop.maxProofBytes + 4096)
    cross(
      `maxHeaderBytes (${c.maxHeaderBytes}) must exceed dpop.maxProofBytes (${c.dpop.maxProofBytes}) by at least 4096 bytes for the other headers`,
    );
  coldPath(c, cross);
  validateDatabaseUrl(c.databaseUrl);
  return c;
}

/**
 * The cold path has one algorithm, `keys.placement.cold`; `saml.rootAlg` is its older name and
 * fills it in when it is not set. The root signs certificates, XML metadata and the signed JWKS,
 * so it must be an algorithm that does all three. The hot path's defaults must not be SLH-DSA
 * unless the operator allowed it.
 */
function coldPath(c: Config, cross: (m: string) => never): void {
  const { keys, saml } = c;
  if (saml.rootAlg !== undefined) {
    if (keys.placement.cold !== 'auto' && keys.placement.cold !== saml.rootAlg)
      cross(
        `saml.rootAlg (${saml.rootAlg}) and keys.placement.cold (${keys.placement.cold}) name different cold-path roots; keep keys.placement.cold only`,
      );
    keys.placement.cold = saml.rootAlg;
  }
  if (keys.placement.cold !== 'auto' && !rootAlgs().includes(keys.placement.cold))
    cross(
      `keys.placement.cold must be auto or one of ${rootAlgs().join(', ')} (the root signs certificates, XML metadata and the signed JWKS); got ${keys.placement.cold}`,
    );
  if (!keys.allowSlhDsaHotPath) {
    if (isSlowSigner(c.defaultSigningAlg))
      cross(slowHotPathRefusal('defaultSigningAlg', c.defaultSigningAlg));
    if (c.demo.enabled && isSlowSigner(c.demo.idTokenSignedResponseAlg))
      cross(slowHotPathRefusal('demo.idTokenSignedResponseAlg', c.demo.idTokenSignedResponseAlg));
  }
}
