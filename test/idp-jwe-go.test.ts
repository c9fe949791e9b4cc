/**
 * The IdP's encryption against an independent HPKE implementation: Go's standard library
 * crypto/hpke under test/interop/go-hpke (JOSE layer written from the drafts). For X-Wing
 * (HPKE-9), ML-KEM-768 + P-256 (HPKE-8), ML-KEM-1024 + P-384 (HPKE-10), ML-KEM-768 (HPKE-12), the
 * classical DHKEM P-256 suite (HPKE-0) and X-Wing in Key Encryption (HPKE-9-KE), each in one
 * sign-in: Go encrypts a signed request object to the IdP's published key of that identifier
 * and the IdP accepts it through PAR; then Go decrypts the ID token the IdP encrypts with that
 * identifier to the client's key, and the signed token inside verifies against the IdP's JWKS.
 * Skips with the reason when Go 1.26 is missing; fails instead under CI.
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
/** Each identifier the IdP holds a key of and encrypts ID tokens with here; `enc` for Key Encryption. */
const SUITES: { alg: string; enc?: string }[] = [
  { alg: 'HPKE-9' },
  { alg: 'HPKE-8' },
  { alg: 'HPKE-10' },
  { alg: 'HPKE-12' },
  { alg: 'HPKE-0' },
  { alg: 'HPKE-9-KE', enc: 'A256GCM' },
];
/** RFC 7636 Appendix B: a verifier and the challenge the request objects carry. */
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const header = (jwe: string) => JSON.parse(Buffer.from(jwe.split('.')[0] as string, 'base64url').toString());

describe.skipIf(!go)(`the IdP's JWEs and Go crypto/hpke${why ? ` (skipped: ${why})` : ''}`, () => {
  let dir: string;
  let bin: string;
  let idp: Idp;
  let issuer: string;
  let signer: PrivateKey;
  const clients = new Map<string, { basic: string; privateJwk: Jwk }>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pqid-idp-go-'));
    bin = join(dir, 'go-hpke');
    buildGoHpke(go as string, bin);
    ({ idp, issuer } = await createLocalIdp(dir, await freePort(), {
      keys: { encryptionAlgs: SUITES.map((x) => x.alg) },
    }));
    const sig = await generateKeyPair('ML-DSA-44');
    signer = (await importJWK(sig.privateJwk)) as PrivateKey;
    for (const { alg, enc } of SUITES) {
      const pair = await generateEncryptionKeyPair(alg);
      const { clientSecret } = await registerClient(idp.ctx, {
        client_id: `go-${alg}`,
        redirect_uris: [RP],
        jwks: { keys: [pair.publicJwk as Jwk, sig.publicJwk] },
        id_token_signed_response_alg: 'ML-DSA-65',
        id_token_encrypted_response_alg: alg,
        ...(enc ? { id_token_encrypted_response_enc: enc } : {}),
      });
      clients.set(alg, {
        basic: `Basic ${Buffer.from(`go-${alg}:${clientSecret}`).toString('base64')}`,
        privateJwk: pair.privateJwk as Jwk,
      });
    }
    await idp.ctx.accounts.create({ username: 'gopher', password: PASSWORD });
  }, 300_000);
  afterAll(async () => {
    await idp?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Signs `clientId` in through a request object pushed to PAR, encrypted by `wrap`; the callback URL. */
  async function codeVia(clientId: string, basic: string, wrap: (signed: string) => string): Promise<URL> {
    const signed = await signJwt(
      {
        response_type: 'code',
        redirect_uri: RP,
        scope: 'openid',
        nonce: 'go',
        code_challenge: CHALLENGE,
        code_challenge_method: 'S256',
      },
      signer,
      { typ: 'oauth-authz-req+jwt', issuer: clientId, audience: issuer, expiresIn: 300 },
    );
    const pushed = await idp.app.inject({
      method: 'POST',
      url: '/par',
      ...form({ request: wrap(signed) }, { authorization: basic }),
    });
    expect(pushed.statusCode, pushed.body).toBe(201);
    const query = { client_id: clientId, request_uri: pushed.json().request_uri };
    return (await browserLogin(idp.app, query, { username: 'gopher', password: PASSWORD })).location;
  }

  it.each(SUITES)(
    '$alg: the IdP decrypts a request object Go encrypted to it, and Go decrypts the ID token',
    async ({ alg, enc }) => {
      const { basic, privateJwk } = clients.get(alg) as { basic: string; privateJwk: Jwk };
      const published = idp.ctx.keys.jwks().keys.find((k) => k.alg === alg && k.use === 'enc') as Jwk;
      expect(published).toBeDefined();
      let goJwe = '';
      const callback = await codeVia(`go-${alg}`, basic, (signed) => {
        const [r] = runGoHpke<GoResult>(bin, [
          {
            op: 'encrypt',
            alg,
            ...(enc ? { enc } : {}),
            jwk: published,
            plaintext: Buffer.from(signed).toString('base64url'),
          },
        ]);
        expect(r?.error).toBeUndefined();
        goJwe = r?.compact as string;
        return goJwe;
      });
      expect(header(goJwe)).toMatchObject({ alg, kid: published.kid });

      const res = await redeemCode(idp.app, callback, RP, {
        verifier: VERIFIER,
        headers: { authorization: basic },
      });
      expect(res.statusCode, res.body).toBe(200);
      const idToken = res.json().id_token as string;
      expect(header(idToken)).toMatchObject({ alg, cty: 'JWT', ...(enc ? { enc } : {}) });
      const [r] = runGoHpke<GoResult>(bin, [{ op: 'decrypt', jwk: privateJwk, compact: idToken }]);
      expect(r?.error).toBeUndefined();
      const inner = Buffer.from(r?.plaintext as string, 'base64url').toString();
      const { claims, protectedHeader } = await verifyJwt(
        inner,
        await createLocalJWKSet(idp.ctx.keys.jwks()),
        {
          algorithms: ['ML-DSA-65'],
          issuer,
          audience: `go-${alg}`,
        },
      );
      expect(protectedHeader.alg).toBe('ML-DSA-65');
      expect(claims.nonce).toBe('go');
    },
  );
});
