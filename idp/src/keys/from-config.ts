/** A KeyManager configured from `Config`, shared by the server (app.ts) and the CLI. */
import type { Config } from '../config.ts';
import type { Kek } from '../crypto/kek.ts';
import type { Adapter } from '../storage/adapter.ts';
import { KeyManager, type KeyManagerOptions } from './key-manager.ts';

/**
 * Retired keys stay published for the longest lifetime of a token they may have signed: ID and
 * access tokens (refresh tokens are opaque), and cold-path objects for the cold algorithm.
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
  };
}

/** `locks`: the store's `Lock` model, so instances sharing the store agree on first keys. */
export function keyManagerFromConfig(store: Adapter, kek: Kek, config: Config, locks?: Adapter): KeyManager {
  return new KeyManager(store, kek, { ...keyManagerOptions(config), ...(locks ? { locks } : {}) });
}
