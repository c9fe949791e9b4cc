/**
 * DPoP proofs (RFC 9449): every registry algorithm round-trips.
 * Proofs made by the `jose` package (WebCrypto keys) verify here and ours verify there;
 * and each check of §4.3 is shown to refuse a proof that violates it alone.
 */
import {
  accessTokenHash,
  algorithms,
  calculateThumbprint,
  DpopProofInvalid,
  exportJWK,
  generateKeyPair,
  htuOf,
  InvalidArgument,
  importJWK,
  type PrivateKey,
  signCompact,
  signDpopProof,
  verifyDpopProof,
} from '@pqid/jose';
import * as jose from 'jose';
import { describe, expect, it } from 'vitest';

const HTU = 'https://as.example/token';
const opts = (extra: Partial<Parameters<typeof verifyDpopProof>[1]> = {}) => ({
  htm: 'POST',
  htu: HTU,
  algorithms: algorithms(),
  ...extra,
});

async function keyFor(alg: string): Promise<PrivateKey> {
  return (await importJWK((await generateKeyPair(alg)).privateJwk)) as PrivateKey;
}

/** A proof with exactly the header and claims given (signed by `key`), for negative tests. */
async function rawProof(
  key: PrivateKey,
  header: Record<string, unknown>,
  claims: Record<string, unknown>,
): Promise<string> {
  return signCompact(JSON.stringify(claims), key, { header, omitKid: true });
}

const now = () => Math.floor(Date.now() / 1000);
const publicJwkOf = (key: PrivateKey) => {
  const { kid: _kid, ...jwk } = key.publicKey.jwk;
  return jwk;
};
const goodClaims = () => ({ jti: crypto.randomUUID(), htm: 'POST', htu: HTU, iat: now() });

async function reason(proof: unknown, o = opts()): Promise<string> {
  try {
    await verifyDpopProof(proof, o);
  } catch (e) {
    if (e instanceof DpopProofInvalid) return e.reason;
    throw e;
  }
  throw new Error('the proof was accepted');
}

describe('DPoP proofs', () => {
  // SLH-DSA: the fast-signing parameter set stands for its family (the small ones sign for seconds).
  const ROUND_TRIP = algorithms().filter((a) => !a.startsWith('SLH-DSA') || a === 'SLH-DSA-SHA2-128f');
  it.each(ROUND_TRIP)('%s: signs and verifies; jkt is the RFC 7638 thumbprint', async (alg) => {
    const key = await keyFor(alg);
    const proof = await signDpopProof(key, { htm: 'POST', htu: `${HTU}?q=1#f`, accessToken: 'at-1' });
    const header = JSON.parse(Buffer.from(proof.split('.')[0] as string, 'base64url').toString());
    expect(header.typ).toBe('dpop+jwt');
    expect(header.alg).toBe(alg);
    expect(header.kid).toBeUndefined();
    expect(Object.keys(header.jwk)).not.toContain('priv');
    expect(Object.keys(header.jwk)).not.toContain('d');
    // SLH-DSA-128f proofs (22.8 KB) exceed the 16 KiB default: a server that wants them says so.
    const ok = await verifyDpopProof(proof, opts({ accessToken: 'at-1', maxProofBytes: 32 * 1024 }));
    expect(ok.jkt).toBe(calculateThumbprint(exportJWK(key.publicKey)));
    expect(ok.claims.htu).toBe(HTU);
    expect(ok.claims.ath).toBe(accessTokenHash('at-1'));
  });

  // The jose package signs with WebCrypto / node:crypto keys: an implementation independent of ours.
  it.each(['ES256', 'EdDSA', 'ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'])(
    'accepts %s proofs made by the jose package',
    async (alg) => {
      const { privateKey, publicKey } = await jose.generateKeyPair(alg, { extractable: true });
      const jwk = await jose.exportJWK(publicKey);
      const proof = await new jose.SignJWT({
        jti: crypto.randomUUID(),
        htm: 'GET',
        htu: 'https://rs.example/api',
        ath: accessTokenHash('the-token'),
      })
        .setProtectedHeader({ alg, typ: 'dpop+jwt', jwk })
        .setIssuedAt()
        .sign(privateKey);
      const ok = await verifyDpopProof(proof, {
        htm: 'GET',
        htu: 'https://rs.example/api?x=1',
        algorithms: algorithms(),
        accessToken: 'the-token',
      });
      expect(ok.jkt).toBe(await jose.calculateJwkThumbprint(jwk));
    },
  );

  it.each(['ES256', 'EdDSA', 'ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'])(
    'our %s proofs verify with the jose package (EmbeddedJWK)',
    async (alg) => {
      const key = await keyFor(alg);
      const proof = await signDpopProof(key, { htm: 'GET', htu: 'https://rs.example/api' });
      const { payload, protectedHeader } = await jose.jwtVerify(proof, jose.EmbeddedJWK, {
        typ: 'dpop+jwt',
        algorithms: [alg],
      });
      expect(payload.htm).toBe('GET');
      expect(await jose.calculateJwkThumbprint(protectedHeader.jwk as jose.JWK)).toBe(
        calculateThumbprint(exportJWK(key.publicKey)),
      );
    },
  );

  describe('each check refuses a proof that violates it alone', () => {
    it.each(['ES256', 'ML-DSA-65', 'ML-DSA-44-Ed25519'])('%s', async (alg) => {
      const key = await keyFor(alg);
      const other = await keyFor(alg);
      const jwk = publicJwkOf(key);
      const header = { typ: 'dpop+jwt', jwk };
      const good = await rawProof(key, header, goodClaims());
      await expect(verifyDpopProof(good, opts())).resolves.toBeTruthy();

      // size, shape, typ, alg
      expect(await reason(good, opts({ maxProofBytes: good.length - 1 }))).toBe('size');
      expect(await reason(good.split('.').slice(0, 2).join('.'))).toBe('format');
      expect(await reason(42)).toBe('format');
      expect(await reason(await rawProof(key, { jwk }, goodClaims()))).toBe('typ');
      expect(await reason(await rawProof(key, { typ: 'JWT', jwk }, goodClaims()))).toBe('typ');
      const others = algorithms().filter((a) => a !== alg);
      expect(await reason(good, opts({ algorithms: others }))).toBe('alg');

      // jwk: absent, private, of another algorithm, labelled with another alg
      expect(await reason(await rawProof(key, { typ: 'dpop+jwt' }, goodClaims()))).toBe('jwk');
      const privateJwk = exportJWK(key) as Record<string, unknown>;
      expect(await reason(await rawProof(key, { typ: 'dpop+jwt', jwk: privateJwk }, goodClaims()))).toBe(
        'jwk',
      );
      const foreign = publicJwkOf(await keyFor(alg === 'ES256' ? 'ML-DSA-44' : 'ES256'));
      expect(await reason(await rawProof(key, { typ: 'dpop+jwt', jwk: foreign }, goodClaims()))).toBe('jwk');
      const relabelled = { ...jwk, alg: alg === 'ES256' ? 'ES384' : 'ML-DSA-87' };
      expect(await reason(await rawProof(key, { typ: 'dpop+jwt', jwk: relabelled }, goodClaims()))).toBe(
        'jwk',
      );
      expect(await reason(await rawProof(key, { typ: 'dpop+jwt', jwk: 'key' }, goodClaims()))).toBe('jwk');
      // Without `alg`: an EC key names its curve, so its alg and thumbprint are known; an AKP key
      // must carry `alg` (RFC 9964 §2), which its thumbprint also needs: a typed refusal, not a crash.
      const { alg: _alg, ...bare } = jwk;
      if (jwk.kty === 'AKP')
        expect(await reason(await rawProof(key, { typ: 'dpop+jwt', jwk: bare }, goodClaims()))).toBe('jwk');
      else
        await expect(
          verifyDpopProof(await rawProof(key, { typ: 'dpop+jwt', jwk: bare }, goodClaims()), opts()),
        ).resolves.toBeTruthy();

      // signature by a key other than the one in the header
      expect(await reason(await rawProof(other, header, goodClaims()))).toBe('signature');
      const tampered = `${good.split('.')[0]}.${Buffer.from(JSON.stringify({ ...goodClaims(), htm: 'GET' })).toString('base64url')}.${good.split('.')[2]}`;
      expect(await reason(tampered)).toBe('signature');

      // claims
      for (const missing of ['jti', 'htm', 'htu', 'iat']) {
        const c: Record<string, unknown> = goodClaims();
        delete c[missing];
        expect(await reason(await rawProof(key, header, c))).toBe('claims');
      }
      expect(await reason(await rawProof(key, header, { ...goodClaims(), jti: 'x'.repeat(513) }))).toBe(
        'claims',
      );
      expect(await reason(await rawProof(key, header, { ...goodClaims(), iat: String(now()) }))).toBe(
        'claims',
      );
      expect(await reason(await rawProof(key, header, { ...goodClaims(), nonce: 7 }))).toBe('claims');
      expect(await reason(await rawProof(key, header, { ...goodClaims(), exp: now() - 10 }))).toBe('claims');

      // htm, htu (query and fragment ignored, anything else compared)
      expect(await reason(good, opts({ htm: 'GET' }))).toBe('htm');
      expect(await reason(good, opts({ htu: 'https://as.example/token2' }))).toBe('htu');
      expect(await reason(good, opts({ htu: 'https://other.example/token' }))).toBe('htu');
      expect(await reason(good, opts({ htu: 'http://as.example/token' }))).toBe('htu');
      await expect(
        verifyDpopProof(good, opts({ htu: 'https://AS.example:443/token?x=y' })),
      ).resolves.toBeTruthy();
      expect(await reason(await rawProof(key, header, { ...goodClaims(), htu: 'not a url' }))).toBe('htu');

      // iat window
      expect(await reason(await rawProof(key, header, { ...goodClaims(), iat: now() - 301 }))).toBe('iat');
      expect(await reason(await rawProof(key, header, { ...goodClaims(), iat: now() + 60 }))).toBe('iat');
      await expect(
        verifyDpopProof(await rawProof(key, header, { ...goodClaims(), iat: now() - 100 }), opts()),
      ).resolves.toBeTruthy();
      expect(
        await reason(
          await rawProof(key, header, { ...goodClaims(), iat: now() - 100 }),
          opts({ maxAge: 60 }),
        ),
      ).toBe('iat');

      // ath when an access token is presented
      expect(await reason(good, opts({ accessToken: 'at' }))).toBe('ath');
      const withAth = await rawProof(key, header, { ...goodClaims(), ath: accessTokenHash('other') });
      expect(await reason(withAth, opts({ accessToken: 'at' }))).toBe('ath');
    });
  });

  it('needs an explicit algorithm list and method', async () => {
    const proof = await signDpopProof(await keyFor('ES256'), { htm: 'POST', htu: HTU });
    await expect(verifyDpopProof(proof, { htm: 'POST', htu: HTU } as never)).rejects.toBeInstanceOf(
      InvalidArgument,
    );
    await expect(verifyDpopProof(proof, { ...opts(), htm: '' })).rejects.toBeInstanceOf(InvalidArgument);
  });

  it('htuOf drops query and fragment only', () => {
    expect(htuOf('https://a.example/p/q?x=1#y')).toBe('https://a.example/p/q');
    expect(htuOf(new URL('http://LOCALHOST:80/t'))).toBe('http://localhost/t');
  });
});
