/** The `keys` configuration section: placement, rotation timing, custody; validated at start. */
import { algorithms } from '@pqid/jose';
import { KEY_SETS, type KeySet } from './key-sets.ts';
import { isSlowSigner, type Placement } from './placement.ts';

/** An external key provider (KMS/HSM) named in `keys.signers`. */
export type ExternalSignerConfig =
  /**
   * A module of your own (an AWS KMS or Vault adapter, …): it exports
   * `createKeyProvider(options, { env })` returning an ExternalKeyProvider (keys/custody.ts).
   */
  | { type: 'module'; module: string; options?: Record<string, unknown> }
  /** A PKCS#11 token (keys/pkcs11.ts). */
  | {
      type: 'pkcs11';
      /** Path of the PKCS#11 module (.so). */
      library: string;
      /** The token, by label. */
      token: string;
      /** Environment variable holding the user PIN (never the PIN itself in the file). */
      pinEnv: string;
      /** Environment variables the module needs (e.g. its configuration file). */
      env?: Record<string, string>;
    };

export interface KeysConfig {
  /** Which algorithm signs which object; `client` follows the client's registration. */
  placement: Placement;
  /** Seconds a rotated-in key is published before it signs (≥ JWKS cache max-age, 300 s). */
  prepublish: number;
  /** Longest lifetime of a cold-path object (signed metadata, signed JWKS), seconds: retention of the root. */
  coldLifetime: number;
  /** Seconds between re-reads of the key store (picks up `pqid keys rotate` from another process). */
  refreshInterval: number;
  /**
   * Publish the cold-path root key (key set `root`, the SAML root) in /jwks as well. Off by
   * default: nothing verifies a JWT with it, and a key that is not published is not trusted.
   */
  publishRoot: boolean;
  /**
   * Serve the OIDC JWKS also as a JWT signed by the cold-path root (`/jwks.jwt`, advertised as
   * `signed_jwks_uri`; OpenID Federation 1.0 "Signed JWK Set"). Default false.
   */
  signedJwks: boolean;
  /**
   * Let clients, SAML SPs and placement put SLH-DSA on the hot path (a signature per token). Off
   * by default: SLH-DSA costs tens to hundreds of milliseconds per signature (docs/KEYS.md).
   */
  allowSlhDsaHotPath: boolean;
  /** External key providers (KMS/HSM) by name. */
  signers: Record<string, ExternalSignerConfig>;
  /** Where each set's new keys are made: `sealed` (default) or the name of one of `signers`. */
  custody: Partial<Record<KeySet, string>>;
}

export const keysDefaults = (_defaultAlg: string): KeysConfig => ({
  placement: { idToken: 'client', accessToken: 'client', userinfo: 'client', cold: 'auto' },
  prepublish: 3600,
  coldLifetime: 7 * 86400,
  refreshInterval: 60,
  publishRoot: false,
  signedJwks: false,
  allowSlhDsaHotPath: false,
  signers: {},
  custody: {},
});

const PLACEMENT_KEYS = ['idToken', 'accessToken', 'userinfo', 'cold'] as const;
const NUMBER_KEYS = ['prepublish', 'coldLifetime', 'refreshInterval'] as const;
const BOOLEAN_KEYS = ['publishRoot', 'signedJwks', 'allowSlhDsaHotPath'] as const;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function parseSigner(name: string, v: unknown, fail: (m: string) => never): ExternalSignerConfig {
  const at = `keys.signers.${name}`;
  if (!isObject(v)) fail(`${at} must be an object`);
  const o = v as Record<string, unknown>;
  const str = (k: string) => {
    if (typeof o[k] !== 'string' || o[k] === '') fail(`${at}.${k} must be a non-empty string`);
    return o[k] as string;
  };
  const only = (allowed: string[]) => {
    for (const k of Object.keys(o)) if (!allowed.includes(k)) fail(`${at}: unknown setting "${k}"`);
  };
  if (o.type === 'module') {
    only(['type', 'module', 'options']);
    if (o.options !== undefined && !isObject(o.options)) fail(`${at}.options must be an object`);
    return {
      type: 'module',
      module: str('module'),
      ...(o.options ? { options: o.options as Record<string, unknown> } : {}),
    };
  }
  if (o.type === 'pkcs11') {
    only(['type', 'library', 'token', 'pinEnv', 'env']);
    if (
      o.env !== undefined &&
      (!isObject(o.env) || !Object.values(o.env).every((x) => typeof x === 'string'))
    )
      fail(`${at}.env must map variable names to strings`);
    return {
      type: 'pkcs11',
      library: str('library'),
      token: str('token'),
      pinEnv: str('pinEnv'),
      ...(o.env ? { env: o.env as Record<string, string> } : {}),
    };
  }
  return fail(`${at}.type must be "module" or "pkcs11"`);
}

/** Merge `raw` (file section, then overrides) over the defaults; `fail` throws a ConfigError. */
export function parseKeysConfig(
  layers: unknown[],
  defaultAlg: string,
  fail: (message: string) => never,
): KeysConfig {
  const cfg = keysDefaults(defaultAlg);
  for (const raw of layers) {
    if (raw === undefined) continue;
    if (!isObject(raw)) fail('keys must be an object');
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
      if (k === 'placement') {
        if (!isObject(v)) fail('keys.placement must be an object');
        for (const [pk, pv] of Object.entries(v as Record<string, unknown>)) {
          if (pv === undefined) continue;
          if (!(PLACEMENT_KEYS as readonly string[]).includes(pk))
            fail(`keys.placement: unknown object "${pk}"; one of ${PLACEMENT_KEYS.join(', ')}`);
          const allowed = pk === 'cold' ? ['auto', ...algorithms()] : ['client', ...algorithms()];
          if (typeof pv !== 'string' || !allowed.includes(pv))
            fail(`keys.placement.${pk} must be one of ${allowed.join(', ')}; got ${JSON.stringify(pv)}`);
          cfg.placement[pk as keyof Placement] = pv as string;
        }
      } else if ((BOOLEAN_KEYS as readonly string[]).includes(k)) {
        if (typeof v !== 'boolean') fail(`keys.${k} must be a boolean`);
        cfg[k as (typeof BOOLEAN_KEYS)[number]] = v as boolean;
      } else if ((NUMBER_KEYS as readonly string[]).includes(k)) {
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
          fail(`keys.${k} must be a non-negative integer (seconds)`);
        cfg[k as (typeof NUMBER_KEYS)[number]] = v as number;
      } else if (k === 'signers') {
        if (!isObject(v)) fail('keys.signers must be an object of named signers');
        for (const [name, sv] of Object.entries(v as Record<string, unknown>)) {
          if (name === 'sealed') fail('keys.signers: "sealed" is the built-in custody; choose another name');
          cfg.signers[name] = parseSigner(name, sv, fail);
        }
      } else if (k === 'custody') {
        if (!isObject(v)) fail('keys.custody must map key sets to "sealed" or a signer name');
        for (const [set, name] of Object.entries(v as Record<string, unknown>)) {
          if (!(KEY_SETS as readonly string[]).includes(set))
            fail(`keys.custody: unknown key set "${set}"; one of ${KEY_SETS.join(', ')}`);
          if (typeof name !== 'string') fail(`keys.custody.${set} must be "sealed" or a signer name`);
          cfg.custody[set as KeySet] = name as string;
        }
      } else {
        fail(`keys: unknown setting "${k}"`);
      }
    }
  }
  if (cfg.refreshInterval === 0) fail('keys.refreshInterval must be at least 1 second');
  for (const [set, name] of Object.entries(cfg.custody))
    if (name !== 'sealed' && !(name in cfg.signers))
      fail(`keys.custody.${set}: no signer named "${name}" in keys.signers`);
  if (!cfg.allowSlhDsaHotPath) {
    for (const pk of ['idToken', 'accessToken', 'userinfo'] as const) {
      const alg = cfg.placement[pk];
      if (isSlowSigner(alg))
        fail(
          `keys.placement.${pk}: ${alg} would sign every token, at tens to hundreds of milliseconds per signature; SLH-DSA belongs on the cold path (keys.placement.cold). Set keys.allowSlhDsaHotPath to accept the cost (docs/KEYS.md, "SLH-DSA on the hot path")`,
        );
    }
  }
  return cfg;
}

/** The refusal for a hot-path SLH-DSA request, shared by client and SP registration. */
export function slowHotPathRefusal(what: string, alg: string): string {
  return `${what} ${alg} is refused: SLH-DSA signs at tens to hundreds of milliseconds per signature, so every token or response would pay it. It is the cold-path algorithm here (SAML root, signed metadata and JWKS). An operator can allow it with keys.allowSlhDsaHotPath (docs/KEYS.md, "SLH-DSA on the hot path")`;
}
