/**
 * Will a client's tokens travel where it needs them? Signs a typical ID token (and a typical
 * RFC 9068 access token) with a throw-away key of the chosen algorithm and measures it against
 * the transport limits `inspectToken` knows: one cookie, one header line, a URL. A client that
 * registered ID-token encryption is judged on the JWE it receives (encrypted-fit.ts).
 */
import { randomBytes } from 'node:crypto';
import {
  generateKeyPair,
  importJWK,
  inspectToken,
  type JweInspection,
  type PrivateKey,
  signJwt,
  type TokenInspection,
} from '@pqid/jose';
import { type Encryption, encryptedFit, encryptionLabel } from './encrypted-fit.ts';

export type Transport = 'cookie' | 'header' | 'url';
export const TRANSPORTS: readonly Transport[] = ['cookie', 'header', 'url'];

const rand = (n: number) => randomBytes(n).toString('base64url');

/** A throw-away signing key of `alg`: what `pqid token-fit` signs and measures with. */
export async function throwAwaySigningKey(alg: string): Promise<PrivateKey> {
  const { privateJwk } = await generateKeyPair(alg);
  const key = await importJWK(privateJwk, { alg });
  if (key.type !== 'private') throw new Error('expected a private key');
  return key;
}

/** Signs `claims` as the IdP would: valid for an hour. */
export const signTypical = (
  key: PrivateKey,
  claims: Record<string, unknown>,
  typ?: string,
): Promise<string> => signJwt(claims, key, { expiresIn: 3600, ...(typ ? { typ } : {}) });

async function typicalToken(alg: string, claims: Record<string, unknown>, typ?: string): Promise<string> {
  return signTypical(await throwAwaySigningKey(alg), claims, typ);
}

/** A typical ID token's claims: issuer, a random subject, the client as audience, auth_time and a nonce. */
export const typicalIdTokenClaims = (issuer: string, clientId: string): Record<string, unknown> => ({
  iss: issuer,
  sub: rand(16),
  aud: clientId,
  auth_time: Math.floor(Date.now() / 1000),
  nonce: rand(32),
});

/** A typical ID token (typicalIdTokenClaims), signed with a throw-away key of `alg`. */
export async function typicalIdToken(alg: string, issuer: string, clientId: string): Promise<string> {
  return typicalToken(alg, typicalIdTokenClaims(issuer, clientId));
}

export interface FitReport {
  /** Absent for a machine client (no code flow, so no ID token). */
  idToken?: TokenInspection;
  /** The ID token as the client receives it, when it registered ID-token encryption. */
  encryptedIdToken?: JweInspection;
  accessToken?: TokenInspection;
  warnings: string[];
}

/** Measure and warn. `needs` are the transports the client relies on. */
export async function tokenFit(opts: {
  issuer: string;
  clientId: string;
  /** Set when the client gets ID tokens (the code flow). */
  idTokenAlg?: string;
  /** Its `id_token_encrypted_response_alg`/`_enc`, when it registered them. */
  idTokenEncryption?: Encryption;
  /** Set when access tokens are JWTs (`jwt` or `auto`). */
  accessTokenAlg?: string;
  accessTokenFormat?: string;
  needs: readonly Transport[];
}): Promise<FitReport> {
  const base = { iss: opts.issuer, sub: rand(16), aud: opts.clientId };
  const warnings: string[] = [];
  const id = opts.idTokenAlg
    ? await idTokenFit(
        opts.idTokenAlg,
        opts.idTokenEncryption,
        opts.issuer,
        opts.clientId,
        opts.needs,
        warnings,
      )
    : undefined;
  let accessToken: TokenInspection | undefined;
  if (opts.accessTokenAlg && opts.accessTokenFormat && opts.accessTokenFormat !== 'reference') {
    accessToken = inspectToken(
      await typicalToken(
        opts.accessTokenAlg,
        { ...base, client_id: opts.clientId, scope: 'openid profile email offline_access', jti: rand(16) },
        'at+jwt',
      ),
    );
    const h = accessToken.fits.authorizationHeader;
    const n = (b: number) => b.toLocaleString('en-US');
    if (opts.needs.includes('header') && !h.fits)
      warnings.push(
        opts.accessTokenFormat === 'auto'
          ? `${opts.accessTokenAlg} access tokens (~${n(accessToken.bytes.token)} bytes) exceed one header line (${n(h.limit)}); with format auto they will be issued as reference tokens`
          : `an ${opts.accessTokenAlg} JWT access token needs an Authorization header of ${n(h.bytes)} > ${n(h.limit)} bytes (nginx/Apache default): use --access-token-format auto or reference`,
      );
  }
  return { ...id, ...(accessToken ? { accessToken } : {}), warnings };
}

/**
 * A typical ID token of `alg`, encrypted as the client registered, and a warning for each
 * transport it does not fit. A cookie holds what the client received: the JWE when encrypted.
 * A logout URL carries the signed token even then: the client must decrypt an encrypted ID token
 * before sending it as `id_token_hint` (OpenID Connect Core 1.0 §3.1.2.1), and pqid accepts
 * only signed hints.
 */
async function idTokenFit(
  alg: string,
  encryption: Encryption | undefined,
  issuer: string,
  clientId: string,
  needs: readonly Transport[],
  warnings: string[],
): Promise<Pick<FitReport, 'idToken' | 'encryptedIdToken'>> {
  const signed = await typicalIdToken(alg, issuer, clientId);
  const idToken = inspectToken(signed);
  const encryptedIdToken = encryption ? (await encryptedFit(signed, encryption)).inspection : undefined;
  const n = (b: number) => b.toLocaleString('en-US');
  const received = encryptedIdToken ?? idToken;
  const cookie = received.fits.cookie;
  if (needs.includes('cookie') && !cookie.fits)
    warnings.push(
      encryption
        ? `an ${alg} ID token encrypted with ${encryptionLabel(encryption)} is ~${n(received.bytes.token)} bytes as received (signed only ~${n(idToken.bytes.token)}); as a cookie it needs ${n(cookie.bytes)} > ${n(cookie.limit)} bytes: keep it in a server-side session, store the decrypted signed token${idToken.fits.cookie.fits ? ' (it fits)' : ''}, or split it with chunkCookie (see examples/oidc-rp)`
        : `an ${alg} ID token is ~${n(idToken.bytes.token)} bytes; as a cookie it needs ${n(cookie.bytes)} > ${n(cookie.limit)} bytes: keep it in a server-side session or split it with chunkCookie (see examples/oidc-rp)`,
    );
  const url = idToken.fits;
  if (needs.includes('url') && !url.urlConservative.fits)
    warnings.push(
      `a logout URL carrying an ${alg} id_token_hint${encryption ? ' (the decrypted, signed token)' : ''} is ~${n(url.url.bytes)} bytes > ${n(url.urlConservative.limit)} (conservative URL limit)${url.url.fits ? '' : ` and > ${n(url.url.limit)}`}: send end-session requests as POST`,
    );
  return { idToken, ...(encryptedIdToken ? { encryptedIdToken } : {}) };
}
