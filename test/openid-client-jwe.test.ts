/**
 * The IdP's classical JWEs decrypted by an independent relying party library: openid-client v6
 * (`enableDecryptingResponses`, which decrypts with `jose`) signs in over real HTTP and receives
 * an ES256 ID token encrypted with ECDH-ES+A256KW, a signed userinfo answer encrypted the same
 * way, and an RFC 9701 introspection answer encrypted with RSA-OAEP-256 — each decrypted and
 * then validated by openid-client itself (signature against /jwks, issuer, audience, nonce,
 * subject). openid-client decrypts RSA-OAEP and ECDH-ES only: the HPKE identifiers are checked
 * against Go's crypto/hpke (test/idp-jwe-go.test.ts) and by the example RP in a browser
 * (test/browser-login.test.ts).
 */
import { webcrypto } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Idp, registerClient } from '../idp/src/app.ts';
import { FetchBrowser, signIn } from './helpers/fetch-browser.ts';
import { createLocalIdp } from './helpers/idp.ts';
import { freePort } from './helpers/net.ts';

const REDIRECT = 'http://localhost:3001/callback';
const USER = { username: 'ada', password: 'correct horse battery staple' };
const header = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[0] as string, 'base64url').toString()) as Record<string, unknown>;

/** A private CryptoKey for openid-client, and its public JWK for the client's `jwks`. */
async function encryptionKey(alg: 'ECDH-ES+A256KW' | 'RSA-OAEP-256', kid: string) {
  const { privateKey, publicKey } = (await (alg === 'RSA-OAEP-256'
    ? webcrypto.subtle.generateKey(
        { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
        true,
        ['decrypt', 'encrypt'],
      )
    : webcrypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, [
        'deriveBits',
      ]))) as webcrypto.CryptoKeyPair;
  const { key_ops: _ops, ext: _ext, ...jwk } = await webcrypto.subtle.exportKey('jwk', publicKey);
  return { decrypt: { key: privateKey, alg, kid }, jwk: { ...jwk, use: 'enc', alg, kid } };
}

describe('openid-client decrypts what the IdP encrypts with classical JWE', () => {
  let idp: Idp;
  let issuer: string;
  let dir: string;
  let secret: string;
  let ecdh: Awaited<ReturnType<typeof encryptionKey>>;
  let rsa: Awaited<ReturnType<typeof encryptionKey>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pqid-oidc-jwe-'));
    ({ idp, issuer } = await createLocalIdp(dir, await freePort()));
    ecdh = await encryptionKey('ECDH-ES+A256KW', 'rp-ecdh');
    rsa = await encryptionKey('RSA-OAEP-256', 'rp-rsa');
    ({ clientSecret: secret } = (await registerClient(idp.ctx, {
      client_id: 'jwe-rp',
      redirect_uris: [REDIRECT],
      scope: 'openid profile email',
      jwks: { keys: [ecdh.jwk, rsa.jwk] },
      id_token_signed_response_alg: 'ES256',
      id_token_encrypted_response_alg: 'ECDH-ES+A256KW',
      id_token_encrypted_response_enc: 'A256GCM',
      userinfo_signed_response_alg: 'ES256',
      userinfo_encrypted_response_alg: 'ECDH-ES+A256KW',
      introspection_signed_response_alg: 'ES256',
      introspection_encrypted_response_alg: 'RSA-OAEP-256',
      introspection_encrypted_response_enc: 'A256GCM',
    })) as { clientSecret: string });
    await idp.ctx.accounts.create(USER);
    await idp.app.listen({ port: Number(new URL(issuer).port), host: '127.0.0.1' });
  }, 120_000);
  afterAll(async () => {
    await idp?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('ID token, userinfo and introspection: each arrives as a JWE, and openid-client decrypts and validates it', async () => {
    const config = await oidc.discovery(
      new URL(issuer),
      'jwe-rp',
      {
        id_token_signed_response_alg: 'ES256',
        userinfo_signed_response_alg: 'ES256',
        introspection_signed_response_alg: 'ES256',
      },
      oidc.ClientSecretBasic(secret),
      { execute: [oidc.allowInsecureRequests] },
    );
    oidc.enableDecryptingResponses(config, ['A256GCM', 'A128CBC-HS256'], ecdh.decrypt, rsa.decrypt);
    // Every signature inside is checked against /jwks too, not only trusted from the token response.
    oidc.enableNonRepudiationChecks(config);
    const meta = config.serverMetadata();
    expect(meta.id_token_encryption_alg_values_supported).toContain('ECDH-ES+A256KW');
    expect(meta.introspection_encryption_alg_values_supported).toContain('RSA-OAEP-256');

    // What crosses the wire, seen through openid-client's own fetch hook.
    const wire: Record<string, string> = {};
    config[oidc.customFetch] = async (url, init) => {
      const res = await fetch(url, init as RequestInit);
      const path = new URL(url).pathname;
      if (['/token', '/userinfo', '/introspect'].includes(path)) wire[path] = await res.clone().text();
      return res;
    };

    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const authUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid profile email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    const callback = await signIn(new FetchBrowser(), issuer, authUrl.href, USER);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    const sent = JSON.parse(wire['/token'] as string).id_token as string;
    expect(sent.split('.')).toHaveLength(5);
    expect(header(sent)).toMatchObject({ alg: 'ECDH-ES+A256KW', enc: 'A256GCM', cty: 'JWT', kid: 'rp-ecdh' });
    const claims = tokens.claims();
    expect(claims).toMatchObject({ iss: issuer, aud: 'jwe-rp', nonce });

    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims?.sub as string);
    expect(userinfo).toMatchObject({ sub: claims?.sub, preferred_username: USER.username });
    expect(wire['/userinfo']?.split('.')).toHaveLength(5);
    expect(header(wire['/userinfo'] as string)).toMatchObject({
      alg: 'ECDH-ES+A256KW',
      enc: 'A128CBC-HS256',
      cty: 'JWT',
    });

    const introspection = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(introspection).toMatchObject({ active: true, client_id: 'jwe-rp', sub: claims?.sub });
    expect(wire['/introspect']?.split('.')).toHaveLength(5);
    expect(header(wire['/introspect'] as string)).toMatchObject({
      alg: 'RSA-OAEP-256',
      enc: 'A256GCM',
      kid: 'rp-rsa',
    });
  });
});
