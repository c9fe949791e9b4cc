/**
 * The signed JWKS (`keys.signedJwks`): the OIDC JWKS as a JWT signed by the cold-path root, at
 * `<issuer>/jwks.jwt`, advertised as `signed_jwks_uri`. The format is OpenID Federation 1.0's
 * Signed JWK Set: header `typ: jwk-set+jwt` and the root's `kid`; claims `keys` (the JWK array
 * /jwks serves), `iss` = `sub` = the issuer, `iat`, `exp`; media type `application/jwk-set+jwt`.
 * A relying party that pinned the root's public key (`pqid keys list --set root --json`, or the
 * SAML metadata's root certificate: the same key) can check the token-signing keys without
 * trusting TLS, and archive them.
 *
 * Signed on the cold path: once per change of the published keys (a rotation stages, activates
 * or removes one) or of the root, and at half its lifetime (`keys.coldLifetime`); every request in
 * between gets the cached JWT. With SLH-DSA-SHA2-128s that is a few hundred milliseconds per
 * re-signing, amortised over every fetch until the next rotation.
 */
import { signJwt } from '@pqid/jose';
import type { IdpContext } from '../context.ts';

export const SIGNED_JWKS_TYPE = 'jwk-set+jwt';
export const SIGNED_JWKS_MEDIA_TYPE = 'application/jwk-set+jwt';

export class SignedJwksCache {
  readonly #ctx: IdpContext;
  #cached: { key: string; jwt: string; refreshAt: number } | undefined;
  #building: { key: string; jwt: Promise<string> } | undefined;
  /** Signatures made (tests and metrics: a cached JWT is not re-signed per request). */
  signatures = 0;

  constructor(ctx: IdpContext) {
    this.#ctx = ctx;
  }

  async get(now = Date.now()): Promise<string> {
    const root = await this.#ctx.keys.signerFor('cold');
    const jwks = this.#ctx.keys.jwks();
    const key = JSON.stringify([root.kid, jwks.keys.map((k) => k.kid)]);
    if (this.#cached && this.#cached.key === key && now < this.#cached.refreshAt) return this.#cached.jwt;
    // One signature for requests that arrive while it is being made.
    if (this.#building?.key === key) return this.#building.jwt;
    const lifetime = this.#ctx.config.keys.coldLifetime;
    const jwt = (async () => {
      const signed = await signJwt({ keys: jwks.keys }, root, {
        typ: SIGNED_JWKS_TYPE,
        issuer: this.#ctx.config.issuer,
        subject: this.#ctx.config.issuer,
        expiresIn: lifetime,
        now: new Date(now),
      });
      this.signatures++;
      // Re-sign at half the lifetime, so a cached copy never outlives its exp.
      this.#cached = { key, jwt: signed, refreshAt: now + (lifetime * 1000) / 2 };
      return signed;
    })();
    const building = { key, jwt };
    this.#building = building;
    try {
      return await jwt;
    } finally {
      if (this.#building === building) this.#building = undefined;
    }
  }
}
