/**
 * The IdP's encryption against an independent HPKE implementation: Go's standard library
 * crypto/hpke under test/interop/go-hpke (JOSE layer written from the drafts). Go decrypts the
 * X-Wing (HPKE-9) encrypted ID token the IdP issues to a client, and the signed token inside
 * verifies against the IdP's JWKS; Go encrypts a signed request object to the IdP's published
 * X-Wing key, and the IdP accepts it through PAR. Skips with the reason when Go 1.26 is missing;
 * fails instead under CI.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createLocalJWKSet,
  generateEncryptionKeyPair,
  generateKeyPair,
  importJWK,
  type Jwk,
  type PrivateKey,
  signJwt,
  verifyJwt,
} from '@pqid/jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Idp, registerClient } from '../idp/src/app.ts';
import { browserLogin, form, redeemCode } from '../idp/test/helpers.ts';
import { buildGoHpke, findGo, runGoHpke } from './helpers/go-hpke.ts';
import { createLocalIdp } from './helpers/idp.ts';
import { freePort } from './helpers/net.ts';

const { go, why } = findGo();
if (!go && process.env.CI) throw new Error(`CI must run the Go interop test: ${why}`);

type GoResult = { error?: string; plaintext?: string; compact?: string };
const RP = 'https://rp.example/cb';
const PASSWORD = 'correct horse battery staple';

describe.skipIf(!go)(`the IdP's JWEs and Go crypto/hpke${why ? ` (skipped: ${why})` : ''}`, () => {
  let dir: string;
  let bin: string;
  let idp: Idp;
  let issuer: string;
  let basic: string;
  let clientPrivate: Jwk;
  let signer: PrivateKey;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pqid-idp-go-'));
    bin = join(dir, 'go-hpke');
    buildGoHpke(go as string, bin);
    ({ idp, issuer } = await createLocalIdp(dir, await freePort()));
    const enc = await generateEncryptionKeyPair('HPKE-9');
    clientPrivate = enc.privateJwk as Jwk;
    const sig = await generateKeyPair('ML-DSA-44');
    signer = (await importJWK(sig.privateJwk)) as PrivateKey;
    const { clientSecret } = await registerClient(idp.ctx, {
      client_id: 'go-rp',
      redirect_uris: [RP],
      jwks: { keys: [enc.publicJwk as Jwk, sig.publicJwk] },
      id_token_signed_response_alg: 'ML-DSA-65',
      id_token_encrypted_response_alg: 'HPKE-9',
    });
    basic = `Basic ${Buffer.from(`go-rp:${clientSecret}`).toString('base64')}`;
    await idp.ctx.accounts.create({ username: 'gopher', password: PASSWORD });
  }, 300_000);
  afterAll(async () => {
    await idp?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Signs in through a request object pushed to PAR (`wrap` encrypts it, or not); the callback URL. */
  async function codeVia(wrap: (signed: string) => string | Promise<string>): Promise<URL> {
    const signed = await signJwt(
      {
        response_type: 'code',
        redirect_uri: RP,
        scope: 'openid',
        nonce: 'go',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      },
      signer,
      { typ: 'oauth-authz-req+jwt', issuer: 'go-rp', audience: issuer, expiresIn: 300 },
    );
    const pushed = await idp.app.inject({
      method: 'POST',
      url: '/par',
      ...form({ request: await wrap(signed) }, { authorization: basic }),
    });
    expect(pushed.statusCode, pushed.body).toBe(201);
    const query = { client_id: 'go-rp', request_uri: pushed.json().request_uri };
    return (await browserLogin(idp.app, query, { username: 'gopher', password: PASSWORD })).location;
  }

  it('Go encrypts a request object to the IdP’s published X-Wing key; the IdP decrypts and verifies it', async () => {
    const published = idp.ctx.keys.jwks().keys.find((k) => k.alg === 'HPKE-9') as Jwk;
    let goJwe = '';
    await codeVia((signed) => {
      const [r] = runGoHpke<GoResult>(bin, [
        {
          op: 'encrypt',
          alg: 'HPKE-9',
          jwk: published,
          plaintext: Buffer.from(signed).toString('base64url'),
        },
      ]);
      expect(r?.error).toBeUndefined();
      goJwe = r?.compact as string;
      return goJwe;
    });
    expect(goJwe.split('.')).toHaveLength(5);
  });

  it('Go decrypts the X-Wing encrypted ID token; the ML-DSA-65 token inside verifies', async () => {
    // RFC 7636 Appendix B's verifier, whose challenge the request object carries.
    const res = await redeemCode(idp.app, await codeVia((s) => s), RP, {
      verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
      headers: { authorization: basic },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [r] = runGoHpke<GoResult>(bin, [
      { op: 'decrypt', jwk: clientPrivate, compact: res.json().id_token },
    ]);
    expect(r?.error).toBeUndefined();
    const inner = Buffer.from(r?.plaintext as string, 'base64url').toString();
    const { claims, protectedHeader } = await verifyJwt(inner, await createLocalJWKSet(idp.ctx.keys.jwks()), {
      algorithms: ['ML-DSA-65'],
      issuer,
      audience: 'go-rp',
    });
    expect(protectedHeader.alg).toBe('ML-DSA-65');
    expect(claims.nonce).toBe('go');
  });
});
