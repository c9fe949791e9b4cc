/**
 * Will a client's tokens travel where it needs them? Signs a typical ID token (and a typical
 * RFC 9068 access token) with a throw-away key of the chosen algorithm and measures it against
 * the transport limits `inspectToken` knows: one cookie, one header line, a URL. Encrypted ID
 * tokens are measured in encrypted-fit.ts.
 */
import { randomBytes } from 'node:crypto';
import { generateKeyPair, importJWK, inspectToken, signJwt, type TokenInspection } from '@pqid/jose';

export type Transport = 'cookie' | 'header' | 'url';
export const TRANSPORTS: readonly Transport[] = ['cookie', 'header', 'url'];

const rand = (n: number) => randomBytes(n).toString('base64url');

async function typicalToken(alg: string, claims: Record<string, unknown>, typ?: string): Promise<string> {
  const { privateJwk } = await generateKeyPair(alg);
  const key = await importJWK(privateJwk, { alg });
  if (key.type !== 'private') throw new Error('expected a private key');
  return signJwt(claims, key, { expiresIn: 3600, ...(typ ? { typ } : {}) });
}

/** A typical ID token: issuer, a random subject, the client as audience, auth_time and a nonce. */
export async function typicalIdToken(alg: string, issuer: string, clientId: string): Promise<string> {
  return typicalToken(alg, {
    iss: issuer,
    sub: rand(16),
    aud: clientId,
    auth_time: Math.floor(Date.now() / 1000),
    nonce: rand(32),
  });
}

export interface FitReport {
  idToken: TokenInspection;
  accessToken?: TokenInspection;
  warnings: string[];
}

/** Measure and warn. `needs` are the transports the client relies on. */
export async function tokenFit(opts: {
  issuer: string;
  clientId: string;
  idTokenAlg: string;
  /** Set when access tokens are JWTs (`jwt` or `auto`). */
  accessTokenAlg?: string;
  accessTokenFormat?: string;
  needs: readonly Transport[];
}): Promise<FitReport> {
  const base = { iss: opts.issuer, sub: rand(16), aud: opts.clientId };
  const idToken = inspectToken(await typicalIdToken(opts.idTokenAlg, opts.issuer, opts.clientId));
  const warnings: string[] = [];
  const n = (b: number) => b.toLocaleString('en-US');
  const id = idToken.fits;
  if (opts.needs.includes('cookie') && !id.cookie.fits)
    warnings.push(
      `an ${opts.idTokenAlg} ID token is ~${n(idToken.bytes.token)} bytes; as a cookie it needs ${n(id.cookie.bytes)} > ${n(id.cookie.limit)} bytes: keep it in a server-side session or split it with chunkCookie (see examples/oidc-rp)`,
    );
  if (opts.needs.includes('url') && !id.urlConservative.fits)
    warnings.push(
      `a logout URL carrying an ${opts.idTokenAlg} id_token_hint is ~${n(id.url.bytes)} bytes > ${n(id.urlConservative.limit)} (conservative URL limit)${id.url.fits ? '' : ` and > ${n(id.url.limit)}`}: send end-session requests as POST`,
    );
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
    if (opts.needs.includes('header') && !h.fits)
      warnings.push(
        opts.accessTokenFormat === 'auto'
          ? `${opts.accessTokenAlg} access tokens (~${n(accessToken.bytes.token)} bytes) exceed one header line (${n(h.limit)}); with format auto they will be issued as reference tokens`
          : `an ${opts.accessTokenAlg} JWT access token needs an Authorization header of ${n(h.bytes)} > ${n(h.limit)} bytes (nginx/Apache default): use --access-token-format auto or reference`,
      );
  }
  return { idToken, ...(accessToken ? { accessToken } : {}), warnings };
}
