/**
 * Key sets: every key belongs to exactly one set, named by its purpose, and everything
 * about a key that depends on what it is for follows from its set: where it is published, how
 * long it is kept after retirement, and whether a rotation by algorithm touches it.
 *
 *   oidc   OIDC token signing (ID tokens, JWT access tokens, userinfo). Published in /jwks.
 *   saml   SAML signing (Responses, Assertions, LogoutResponses). Published only as certificates
 *          in the SAML metadata.
 *   root   The cold-path root: certifies the SAML signing keys and signs the metadata. Published
 *          in neither (its certificate travels in the metadata's own signature), unless
 *          `keys.publishRoot` adds it to /jwks. Rotated only when asked for by name.
 *   enc    The IdP's own encryption keys (`use: "enc"`): clients encrypt request objects to
 *          them. Published in /jwks. Rotated only when asked for by name (`--set enc`).
 *
 * A set is a plain string on the record, so a new purpose (a signed JWKS statement, an SLH-DSA
 * root, …) is one more entry here, not a storage change.
 */
export const KEY_SETS = ['oidc', 'saml', 'root', 'enc'] as const;
export type KeySet = (typeof KEY_SETS)[number];

/** Sets whose keys sign on the request path; `rotate` without a set rotates these only. */
export const HOT_SETS: readonly KeySet[] = ['oidc', 'saml'];

export const isKeySet = (s: unknown): s is KeySet =>
  typeof s === 'string' && (KEY_SETS as readonly string[]).includes(s);

/**
 * The storage id of a key record. OIDC keys keep the id they always had (the kid), so records
 * written before key sets keep theirs; a key in another set is stored under `<set>:<kid>`. The
 * same key may sit in two sets (a key both protocols used before sets existed), as two records.
 */
export const recordId = (set: string | undefined, kid: string): string =>
  set === undefined || set === 'oidc' ? kid : `${set}:${kid}`;
