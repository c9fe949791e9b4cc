/**
 * What follows from a key's set (policy/key-sets.ts names them): what its keys do, whether /jwks
 * publishes them, and how long a retired one is kept. Everything else — states, rotation,
 * removal, custody, the audit trail — is the same for every set, so a new set is one more row
 * here (and its name in policy/key-sets.ts).
 */
import { isKeySet, KEY_SETS, type KeySet } from '../policy/key-sets.ts';

/**
 * What a key does: `sig` signs (JWS, XML-DSig), `enc` decrypts what clients encrypt to the IdP
 * (JWE). The record's and the JWK's `use`.
 */
export type KeyUse = 'sig' | 'enc';

export interface SetRules {
  use: KeyUse;
  /**
   * Whether /jwks serves its public keys: `always`; `publishRoot` when `keys.publishRoot` is
   * set; `never` (SAML keys travel as certificates in the SAML metadata).
   */
  jwks: 'always' | 'publishRoot' | 'never';
  /**
   * How long a retired key stays published: `tokens`, the longest token lifetime; `cold`, the
   * longer of that and the lifetime of cold-path objects (metadata, signed JWKS).
   */
  retention: 'tokens' | 'cold';
}

export const SET_RULES: Readonly<Record<KeySet, SetRules>> = {
  oidc: { use: 'sig', jwks: 'always', retention: 'tokens' },
  saml: { use: 'sig', jwks: 'never', retention: 'tokens' },
  root: { use: 'sig', jwks: 'publishRoot', retention: 'cold' },
  // A retired encryption key still decrypts until it leaves /jwks: a client that fetched the
  // JWKS before the rotation may encrypt to it for as long as its cache lasts.
  enc: { use: 'enc', jwks: 'always', retention: 'tokens' },
};

/** Lifetimes in seconds: of tokens (ID, access, userinfo), and of cold-path objects. */
export interface Retention {
  tokens: number;
  cold: number;
}

/** Seconds a retired key of `set` stays published (lifecycle.ts `keyStates`). */
export function retentionOf(set: string, retention: Retention): number {
  const rule = isKeySet(set) ? SET_RULES[set].retention : 'tokens';
  return rule === 'cold' ? Math.max(retention.tokens, retention.cold) : retention.tokens;
}

/** The sets /jwks serves, in the order it lists them. */
export const jwksSets = (publishRoot: boolean): KeySet[] =>
  KEY_SETS.filter(
    (s) => SET_RULES[s].jwks === 'always' || (publishRoot && SET_RULES[s].jwks === 'publishRoot'),
  );
