/** A KeyManager configured from `Config`, shared by the server (app.ts) and the CLI. */
import type { Config } from '../config/index.ts';
import type { Kek } from '../crypto/kek.ts';
import { isSamlSigningAlg } from '../policy/algorithms.ts';
import type { Adapter } from '../storage/adapter.ts';
import type { ExternalKeyProvider } from './custody.ts';
import { KeyManager, type KeyManagerOptions } from './key-manager.ts';

/**
 * Retired keys stay published for the longest lifetime of a token they may have signed: ID and
 * access tokens (refresh tokens are opaque), and cold-path objects for the root set.
 */
export function keyManagerOptions(config: Config): KeyManagerOptions {
  return {
    placement: { ...config.keys.placement },
    defaultAlg: config.defaultSigningAlg,
    retention: {
      tokens: Math.max(config.ttl.idToken, config.ttl.accessToken),
      cold: config.keys.coldLifetime,
    },
    prepublish: config.keys.prepublish,
    publishRoot: config.keys.publishRoot,
    custody: { ...config.keys.custody },
    // Before key sets, one key per algorithm signed OIDC tokens and SAML messages alike (and the
    // ML-DSA-87 one doubled as the SAML root). It keeps signing both, as a record in each set,
    // until rotated there; the root becomes a new key of its own (docs/KEYS.md, "Key sets").
    legacySets: (alg) => (config.saml.enabled && isSamlSigningAlg(alg) ? ['oidc', 'saml'] : ['oidc']),
  };
}

export interface KeyManagerWiring {
  /** The store's `Lock` model, so instances sharing the store agree on first keys and operations. */
  locks?: Adapter;
  /** External key providers (keys/external.ts), opened by the caller. */
  providers?: ReadonlyMap<string, ExternalKeyProvider>;
  /** Re-reads the KEK file at every load (a KEK change without a restart). */
  reloadKek?: () => Kek;
  actor?: 'server' | 'cli';
  audit?: KeyManagerOptions['audit'];
}

export function keyManagerFromConfig(
  store: Adapter,
  kek: Kek,
  config: Config,
  w: KeyManagerWiring = {},
): KeyManager {
  return new KeyManager(store, kek, {
    ...keyManagerOptions(config),
    ...(w.locks ? { locks: w.locks } : {}),
    ...(w.providers ? { providers: w.providers } : {}),
    ...(w.reloadKek ? { reloadKek: w.reloadKek } : {}),
    ...(w.actor ? { actor: w.actor } : {}),
    ...(w.audit ? { audit: w.audit } : {}),
  });
}
