/** The `keys` configuration section: placement and rotation timing, validated at start. */
import { algorithms } from '@pqid/jose';
import type { Placement } from './placement.ts';

export interface KeysConfig {
  /** Which algorithm signs which object; `client` follows the client's registration. */
  placement: Placement;
  /** Seconds a rotated-in key is published before it signs (≥ JWKS cache max-age, 300 s). */
  prepublish: number;
  /** Longest lifetime of a cold-path object (signed metadata), seconds: retention of the cold key. */
  coldLifetime: number;
  /** Seconds between re-reads of the key store (picks up `pqid keys rotate` from another process). */
  refreshInterval: number;
  /**
   * Publish the cold-path root key (key set `root`, the SAML root) in /jwks as well. Off by
   * default: nothing verifies a JWT with it, and a key that is not published is not trusted.
   */
  publishRoot: boolean;
}

export const keysDefaults = (defaultAlg: string): KeysConfig => ({
  placement: { idToken: 'client', accessToken: 'client', userinfo: 'client', cold: defaultAlg },
  prepublish: 3600,
  coldLifetime: 7 * 86400,
  refreshInterval: 60,
  publishRoot: false,
});

const PLACEMENT_KEYS = ['idToken', 'accessToken', 'userinfo', 'cold'] as const;
const NUMBER_KEYS = ['prepublish', 'coldLifetime', 'refreshInterval'] as const;

/** Merge `raw` (file section, then overrides) over the defaults; `fail` throws a ConfigError. */
export function parseKeysConfig(
  layers: unknown[],
  defaultAlg: string,
  fail: (message: string) => never,
): KeysConfig {
  const cfg = keysDefaults(defaultAlg);
  for (const raw of layers) {
    if (raw === undefined) continue;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('keys must be an object');
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
      if (k === 'placement') {
        if (typeof v !== 'object' || v === null || Array.isArray(v)) fail('keys.placement must be an object');
        for (const [pk, pv] of Object.entries(v as Record<string, unknown>)) {
          if (!(PLACEMENT_KEYS as readonly string[]).includes(pk))
            fail(`keys.placement: unknown object "${pk}"; one of ${PLACEMENT_KEYS.join(', ')}`);
          const allowed = pk === 'cold' ? algorithms() : ['client', ...algorithms()];
          if (typeof pv !== 'string' || !allowed.includes(pv))
            fail(`keys.placement.${pk} must be one of ${allowed.join(', ')}; got ${JSON.stringify(pv)}`);
          cfg.placement[pk as keyof Placement] = pv;
        }
      } else if (k === 'publishRoot') {
        if (typeof v !== 'boolean') fail('keys.publishRoot must be a boolean');
        cfg.publishRoot = v as boolean;
      } else if ((NUMBER_KEYS as readonly string[]).includes(k)) {
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
          fail(`keys.${k} must be a non-negative integer (seconds)`);
        cfg[k as (typeof NUMBER_KEYS)[number]] = v;
      } else {
        fail(`keys: unknown setting "${k}"`);
      }
    }
  }
  if (cfg.refreshInterval === 0) fail('keys.refreshInterval must be at least 1 second');
  return cfg;
}
