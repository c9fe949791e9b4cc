/**
 * JWE over the registry: every `alg` round-trips in both serializations with every `enc` it
 * takes, keys are JWKs with thumbprint kids that refuse serialisation, and nested JWTs are
 * signed then encrypted and decrypted then verified.
 */
import { inspect } from 'node:util';
import {
  calculateThumbprint,
  contentEncryptionRegistry,
  type DecryptionKey,
  decryptAndVerifyJwt,
  decryptCompact,
  decryptFlattened,
  type EncryptionKey,
  encryptCompact,
  encryptFlattened,
  encryptionKeysFor,
  encryptJwt,
  exportEncryptionKey,
  generateEncryptionKeyPair,
  generateKeyPair,
  importEncryptionKey,
  importJWK,
  inspectJwe,
  type JweAlgorithmEntry,
  jweRegistry,
  type PrivateKey,
  signAndEncryptJwt,
  signJwt,
} from '@pqid/jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { rejects } from './helpers/assert.ts';

const ENCS = contentEncryptionRegistry().map((e) => e.enc);
const keyPairs = new Map<string, { priv: DecryptionKey; pub: EncryptionKey }>();

async function keysFor(alg: string) {
  let kp = keyPairs.get(alg);
  if (!kp) {
    const { privateJwk, publicJwk } = await generateEncryptionKeyPair(alg);
    kp = {
      priv: (await importEncryptionKey(privateJwk)) as DecryptionKey,
      pub: (await importEncryptionKey(publicJwk)) as EncryptionKey,
    };
    keyPairs.set(alg, kp);
  }
  return kp;
}

const decryptOpts = (e: JweAlgorithmEntry) => ({
  keyManagementAlgorithms: [e.alg],
  contentEncryptionAlgorithms: ENCS,
});
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');

describe('every registered JWE algorithm', () => {
  for (const e of jweRegistry()) {
    describe(e.alg, () => {
      it('generates a JWK pair with alg, use "enc" and kid = RFC 7638 thumbprint', async () => {
        const { privateJwk, publicJwk } = await generateEncryptionKeyPair(e.alg);
        expect(publicJwk).toMatchObject({ alg: e.alg, use: 'enc', kty: e.keyTypes[0]?.kty });
        expect(publicJwk.kid).toBe(calculateThumbprint(publicJwk));
        expect(privateJwk.kid).toBe(publicJwk.kid);
        for (const m of ['d', 'priv', 'p', 'q']) expect(publicJwk).not.toHaveProperty(m);
        if (e.keyTypes[0]?.kty === 'AKP') {
          const pub = Buffer.from(publicJwk.pub as string, 'base64url');
          const priv = Buffer.from(privateJwk.priv as string, 'base64url');
          expect(pub.length).toBe(e.sizes.publicKey);
          expect(priv.length).toBe(e.sizes.privateKey);
        }
      });

      const encs = e.mode === 'integrated' ? [undefined] : ENCS;
      for (const enc of encs) {
        it(`round-trips compact and flattened${enc ? ` with ${enc}` : ''}`, async () => {
          const { priv, pub } = await keysFor(e.alg);
          const jwe = await encryptCompact('attack at dawn', pub, enc ? { enc } : {});
          const parts = jwe.split('.');
          expect(parts).toHaveLength(5);
          const header = JSON.parse(Buffer.from(parts[0] as string, 'base64url').toString());
          expect(header).toMatchObject({ alg: e.alg, kid: pub.kid });
          if (e.mode === 'integrated') {
            expect(header).not.toHaveProperty('enc');
            expect(parts[2]).toBe('');
            expect(parts[4]).toBe('');
            expect(Buffer.from(parts[1] as string, 'base64url').length).toBe(e.sizes.encapsulatedSecret);
          } else {
            expect(header.enc).toBe(enc);
          }
          if (e.family === 'hpke' && e.mode === 'key-encryption')
            expect(Buffer.from(header.ek, 'base64url').length).toBe(e.sizes.encapsulatedSecret);
          const out = await decryptCompact(jwe, priv, decryptOpts(e));
          expect(text(out.plaintext)).toBe('attack at dawn');
          expect(out.key).toBe(priv);

          const flat = await encryptFlattened('attack at dusk', pub, {
            ...(enc ? { enc } : {}),
            aad: 'context',
          });
          const got = await decryptFlattened(JSON.stringify(flat), priv, decryptOpts(e));
          expect(text(got.plaintext)).toBe('attack at dusk');
          expect(text(got.additionalAuthenticatedData as Uint8Array)).toBe('context');
        });
      }

      it('inspectJwe reports its size, its encapsulated secret and where it fits', async () => {
        const { pub } = await keysFor(e.alg);
        const jwe = await encryptCompact(
          'x'.repeat(1000),
          pub,
          e.mode === 'integrated' ? {} : { enc: 'A256GCM' },
        );
        const info = inspectJwe(jwe);
        expect(info.header.alg).toBe(e.alg);
        expect(info.bytes.token).toBe(jwe.length);
        const segs = jwe.split('.').map((s) => s.length);
        expect([
          info.bytes.header,
          info.bytes.encryptedKey,
          info.bytes.iv,
          info.bytes.ciphertext,
          info.bytes.tag,
        ]).toEqual(segs);
        if (e.family === 'hpke') expect(info.bytes.encapsulatedSecret).toBe(e.sizes.encapsulatedSecret);
        expect(info.bytes.ciphertextRaw).toBeGreaterThanOrEqual(1000);
        expect(info.fits.authorizationHeader.fits).toBe(info.bytes.token + 22 <= 8190);
      });

      it('never encrypts the same plaintext to the same bytes', async () => {
        const { pub } = await keysFor(e.alg);
        const opts = e.mode === 'integrated' ? {} : { enc: 'A256GCM' };
        expect(await encryptCompact('x', pub, opts)).not.toBe(await encryptCompact('x', pub, opts));
      });
    });
  }
});

describe('encryption key handles', () => {
  it('a DecryptionKey refuses JSON.stringify and hides its secret from inspect', async () => {
    const { priv } = await keysFor('HPKE-9');
    await rejects(() => JSON.stringify(priv), 'ERR_SECRET_SERIALIZATION');
    expect(inspect(priv)).toBe(`[DecryptionKey HPKE-9 ${priv.kid}]`);
    expect(Object.keys(priv)).not.toContain('priv');
    const jwk = exportEncryptionKey(priv);
    expect(jwk.priv).toBeTypeOf('string');
    expect(JSON.stringify(priv.publicKey)).not.toContain(jwk.priv as string);
  });

  it('an EncryptionKey serialises to its public JWK', async () => {
    const { pub } = await keysFor('HPKE-12-KE');
    expect(JSON.parse(JSON.stringify(pub))).toEqual(exportEncryptionKey(pub));
  });

  it('keeps a kid the JWK brings, and takes alg from options when the JWK has none', async () => {
    const { privateJwk } = await generateEncryptionKeyPair('ECDH-ES+A128KW');
    const { alg: _a, kid: _k, use: _u, ...bare } = privateJwk;
    await rejects(() => importEncryptionKey(bare), 'ERR_JWK_INVALID');
    const k = await importEncryptionKey({ ...bare, kid: 'client-key-1' }, { alg: 'ECDH-ES+A128KW' });
    expect(k.kid).toBe('client-key-1');
    expect(k.alg).toBe('ECDH-ES+A128KW');
  });

  it('refuses a private key whose public half belongs to another key', async () => {
    for (const alg of ['HPKE-9', 'HPKE-12', 'HPKE-0', 'HPKE-3-KE']) {
      const a = await generateEncryptionKeyPair(alg);
      const b = await generateEncryptionKeyPair(alg);
      const mixed = {
        ...a.privateJwk,
        ...(a.privateJwk.kty === 'AKP' ? { priv: b.privateJwk.priv } : { d: b.privateJwk.d }),
      };
      await rejects(() => importEncryptionKey(mixed), 'ERR_JWK_INVALID');
    }
  });

  it('derives the same key pair from the same ikm', async () => {
    const ikm = new Uint8Array(64).fill(7);
    const a = await generateEncryptionKeyPair('HPKE-9', { ikm });
    const b = await generateEncryptionKeyPair('HPKE-9', { ikm, backend: 'noble' });
    expect(a.privateJwk).toEqual(b.privateJwk);
  });

  it('encryptionKeysFor picks a client key for an alg out of its JWKS', async () => {
    const x = await generateEncryptionKeyPair('HPKE-9-KE');
    const rsa = await generateEncryptionKeyPair('RSA-OAEP-256');
    const sig = await generateKeyPair('ML-DSA-44');
    const { alg: _a, use: _u, ...bareRsa } = rsa.publicJwk;
    const jwks = {
      keys: [sig.publicJwk, x.publicJwk, bareRsa, { ...x.publicJwk, use: 'sig' }, x.privateJwk],
    };
    expect((await encryptionKeysFor(jwks, 'HPKE-9-KE')).map((k) => k.kid)).toEqual([x.publicJwk.kid]);
    expect((await encryptionKeysFor(jwks, 'RSA-OAEP-256')).map((k) => k.alg)).toEqual(['RSA-OAEP-256']);
    expect(await encryptionKeysFor(jwks, 'HPKE-12')).toEqual([]);
  });
});

describe('decryption with a set of keys', () => {
  it('uses the key the kid names, and tries every key of the alg when there is no kid', async () => {
    const a = await keysFor('HPKE-9-KE');
    const other = await generateEncryptionKeyPair('HPKE-9-KE');
    const b = (await importEncryptionKey(other.privateJwk)) as DecryptionKey;
    const ring = [b, a.priv];
    const opts = { keyManagementAlgorithms: ['HPKE-9-KE'], contentEncryptionAlgorithms: ['A256GCM'] };
    const withKid = await encryptCompact('hi', a.pub, { enc: 'A256GCM' });
    expect((await decryptCompact(withKid, ring, opts)).key).toBe(a.priv);
    const noKid = await encryptCompact('hi', a.pub, { enc: 'A256GCM', omitKid: true });
    expect((await decryptCompact(noKid, ring, opts)).key).toBe(a.priv);
    expect((await decryptCompact(noKid, () => ring, opts)).key).toBe(a.priv);
    await rejects(() => decryptCompact(withKid, [b], opts), 'ERR_JWKS_NO_MATCHING_KEY');
    await rejects(() => decryptCompact(noKid, [b], opts), 'ERR_JWE_DECRYPTION_FAILED');
  });
});

describe('nested JWT (sign, then encrypt)', () => {
  let signer: PrivateKey;
  beforeAll(async () => {
    signer = (await importJWK((await generateKeyPair('ML-DSA-65')).privateJwk)) as PrivateKey;
  });

  for (const [alg, enc] of [
    ['HPKE-9', undefined],
    ['HPKE-9-KE', 'A128CBC-HS256'],
    ['HPKE-12-KE', 'A256GCM'],
    ['RSA-OAEP-256', 'A128CBC-HS256'],
    ['ECDH-ES', 'A256GCM'],
  ] as const) {
    it(`an ML-DSA-65 ID token inside ${alg}${enc ? ` / ${enc}` : ''}`, async () => {
      const { priv, pub } = await keysFor(alg);
      const jwe = await signAndEncryptJwt({ sub: 'alice', nonce: 'n-0S6' }, signer, pub, {
        sign: { issuer: 'https://idp.example', audience: 'rp', expiresIn: '5m' },
        encrypt: enc ? { enc } : {},
      });
      const out = await decryptAndVerifyJwt(jwe, [priv], signer.publicKey, {
        decrypt: { keyManagementAlgorithms: [alg], contentEncryptionAlgorithms: ENCS },
        verify: { algorithms: ['ML-DSA-65'], issuer: 'https://idp.example', audience: 'rp' },
      });
      expect(out.claims).toMatchObject({ sub: 'alice', nonce: 'n-0S6' });
      expect(out.jweHeader).toMatchObject({ alg, cty: 'JWT' });
      expect(out.protectedHeader).toMatchObject({ alg: 'ML-DSA-65', typ: 'JWT' });
      expect(out.decryptionKey).toBe(priv);
    });
  }

  it('verifies after decrypting: a JWT signed by someone else is refused', async () => {
    const { priv, pub } = await keysFor('HPKE-9');
    const mallory = (await importJWK((await generateKeyPair('ML-DSA-65')).privateJwk)) as PrivateKey;
    const jwe = await encryptJwt(await signJwt({ sub: 'mallory' }, mallory), pub);
    await rejects(
      () =>
        decryptAndVerifyJwt(jwe, priv, signer.publicKey, {
          decrypt: { keyManagementAlgorithms: ['HPKE-9'] },
          verify: { algorithms: ['ML-DSA-65'] },
        }),
      'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    );
  });

  it('refuses a JWE that does not declare cty JWT, and a plaintext that is not a JWS', async () => {
    const { priv, pub } = await keysFor('HPKE-9');
    const jwt = await signJwt({ sub: 'alice' }, signer);
    const opts = { decrypt: { keyManagementAlgorithms: ['HPKE-9'] }, verify: { algorithms: ['ML-DSA-65'] } };
    const noCty = await encryptCompact(jwt, pub);
    await rejects(() => decryptAndVerifyJwt(noCty, priv, signer, opts), 'ERR_JWE_INVALID');
    await rejects(() => encryptJwt('{"sub":"alice"}', pub), 'ERR_INVALID_ARGUMENT');
    const notJws = await encryptCompact('{"sub":"alice"}', pub, { header: { cty: 'JWT' } });
    await rejects(() => decryptAndVerifyJwt(notJws, priv, signer, opts), 'ERR_JWS_INVALID');
  });
});
