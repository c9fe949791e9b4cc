/**
 * X448 (`HPKE-5`, `HPKE-6` and their -KE twins) against an independent HPKE implementation: Go's
 * crypto/hpke, the other side of test/jwe-go-interop.test.ts, has no X448. Here the other side is
 * `@hpke/core` (its own DHKEM and key schedule, written apart from the `hpke` package behind both
 * of our backends), on two X448s: Web Cryptography's (`@hpke/core`) and `@noble/curves`'
 * (`@hpke/dhkem-x448`). The JWE around it is built and taken apart here, from the text of
 * draft-ietf-jose-hpke-encrypt-20 (§5, §6, §6.1 Recipient_structure, §7.1 step 14 AAD), not with
 * our encoder.
 *
 * Both ways, on both of our HPKE backends: their JWE to a key they made decrypts with @pqid/jose;
 * our JWE to a key we made opens with theirs; one changed byte is refused on either side. And
 * DeriveKeyPair agrees: the same input keying material gives the same key pair on both sides.
 *
 * Below JOSE, RFC 9180's own vectors for DHKEM(X448, HKDF-SHA512) with HKDF-SHA512 and
 * AES-256-GCM / ChaCha20Poly1305 (the suites of HPKE-5 and HPKE-6; provenance:
 * test/vectors/jose-hpke/README.md) run through the very ciphersuites the JWE code uses.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Chacha20Poly1305 } from '@hpke/chacha20poly1305';
import { Aes256Gcm, CipherSuite, HkdfSha512, DhkemX448HkdfSha512 as WebCryptoX448 } from '@hpke/core';
import { DhkemX448HkdfSha512 as NobleX448 } from '@hpke/dhkem-x448';
import {
  type DecryptionKey,
  decryptCompact,
  defaultHpkeBackend,
  type EncryptionKey,
  encryptCompact,
  generateEncryptionKeyPair,
  type HpkeBackend,
  importEncryptionKey,
  jweRegistry,
} from '@pqid/jose';
import { describe, expect, it } from 'vitest';
import { cipherSuite } from '../src/hpke/suite.ts';
import { rejects } from './helpers/assert.ts';
import { type HpkeVector, vectorPath } from './helpers/vectors.ts';

const BACKENDS: HpkeBackend[] = defaultHpkeBackend() === 'node' ? ['node', 'noble'] : ['noble'];
const IMPLEMENTATIONS = {
  '@hpke/core (Web Cryptography X448)': () => new WebCryptoX448(),
  '@hpke/dhkem-x448 (@noble/curves X448)': () => new NobleX448(),
};
// draft-ietf-jose-hpke-encrypt-20 §5.1 / §6.2: both X448 suites use HKDF-SHA512.
const ALGS = { 'HPKE-5': 'aes', 'HPKE-6': 'chacha', 'HPKE-5-KE': 'aes', 'HPKE-6-KE': 'chacha' } as const;
const ENC = 'A256GCM';

const b64u = (b: Uint8Array | ArrayBuffer | string) =>
  Buffer.from(b instanceof ArrayBuffer ? new Uint8Array(b) : b).toString('base64url');
const unb64u = (s: string) => new Uint8Array(Buffer.from(s, 'base64url'));
const ascii = (s: string) => new Uint8Array(Buffer.from(s, 'ascii'));
/** draft-ietf-jose-hpke-encrypt-20 §6.1, with recipient_extra_info empty. */
const recipientInfo = (enc: string) =>
  new Uint8Array(
    Buffer.concat([Buffer.from('JOSE-HPKE rcpt'), Buffer.of(0xff), Buffer.from(enc), Buffer.of(0xff)]),
  );
const flipCiphertext = (jwe: string) => {
  const p = jwe.split('.');
  const b = unb64u(p[3] as string);
  b[0] = (b[0] as number) ^ 1;
  p[3] = b64u(b);
  return p.join('.');
};

/** The key type of their KEM (Web Cryptography's CryptoKey). */
type TheirKey = Parameters<CipherSuite['kem']['serializePublicKey']>[0];

function theirSuite(impl: keyof typeof IMPLEMENTATIONS, alg: keyof typeof ALGS) {
  return new CipherSuite({
    kem: IMPLEMENTATIONS[impl](),
    kdf: new HkdfSha512(),
    aead: ALGS[alg] === 'aes' ? new Aes256Gcm() : new Chacha20Poly1305(),
  });
}

/** Their side: a compact JWE of `pt` to `publicKey`, following the draft step by step. */
async function theirEncrypt(
  suite: CipherSuite,
  alg: string,
  publicKey: TheirKey,
  kid: string,
  pt: Uint8Array,
) {
  if (!alg.endsWith('-KE')) {
    const protectedB64 = b64u(JSON.stringify({ alg, kid }));
    const { ct, enc } = await suite.seal({ recipientPublicKey: publicKey }, pt, ascii(protectedB64));
    return `${protectedB64}.${b64u(enc)}..${b64u(ct)}.`;
  }
  const cek = randomBytes(32);
  const wrapped = await suite.seal({ recipientPublicKey: publicKey, info: recipientInfo(ENC) }, cek);
  const protectedB64 = b64u(JSON.stringify({ alg, enc: ENC, kid, ek: b64u(wrapped.enc) }));
  const iv = randomBytes(12);
  const gcm = createCipheriv('aes-256-gcm', cek, iv).setAAD(ascii(protectedB64));
  const ct = Buffer.concat([gcm.update(pt), gcm.final()]);
  return [protectedB64, b64u(wrapped.ct), b64u(iv), b64u(ct), b64u(gcm.getAuthTag())].join('.');
}

/** Their side: the plaintext of a compact JWE to `privateKey`, or a throw. */
async function theirDecrypt(suite: CipherSuite, privateKey: TheirKey, jwe: string): Promise<Uint8Array> {
  const [protectedB64, encryptedKey, iv, ct, tag] = jwe.split('.') as [
    string,
    string,
    string,
    string,
    string,
  ];
  const header = JSON.parse(Buffer.from(protectedB64, 'base64url').toString('utf8'));
  if (!String(header.alg).endsWith('-KE')) {
    expect([iv, tag, header.enc, header.ek]).toEqual(['', '', undefined, undefined]);
    const params = { recipientKey: privateKey, enc: unb64u(encryptedKey) };
    return new Uint8Array(await suite.open(params, unb64u(ct), ascii(protectedB64)));
  }
  expect(header.enc).toBe(ENC);
  const params = { recipientKey: privateKey, enc: unb64u(header.ek), info: recipientInfo(header.enc) };
  const cek = new Uint8Array(await suite.open(params, unb64u(encryptedKey)));
  const gcm = createDecipheriv('aes-256-gcm', cek, unb64u(iv)).setAAD(ascii(protectedB64));
  gcm.setAuthTag(unb64u(tag));
  return new Uint8Array(Buffer.concat([gcm.update(unb64u(ct)), gcm.final()]));
}

describe('X448 JWE (HPKE-5, HPKE-6) against @hpke/core', () => {
  for (const impl of Object.keys(IMPLEMENTATIONS) as (keyof typeof IMPLEMENTATIONS)[]) {
    for (const alg of Object.keys(ALGS) as (keyof typeof ALGS)[]) {
      const encOpt = alg.endsWith('-KE') ? { enc: ENC } : {};
      const decOpts = (backend: HpkeBackend) => ({
        keyManagementAlgorithms: [alg],
        contentEncryptionAlgorithms: [ENC],
        backend,
      });

      it(`${alg}, ${impl}: DeriveKeyPair gives both sides the same key`, async () => {
        const ikm = randomBytes(64);
        const kem = theirSuite(impl, alg).kem;
        const theirs = await kem.deriveKeyPair(ikm);
        const ours = await generateEncryptionKeyPair(alg, { ikm });
        expect(ours.publicJwk.x).toBe(b64u(await kem.serializePublicKey(theirs.publicKey)));
      });

      for (const backend of BACKENDS) {
        it(`${alg}, ${impl} → @pqid/jose (${backend})`, async () => {
          const suite = theirSuite(impl, alg);
          const kp = await suite.kem.generateKeyPair();
          const jwk = {
            kty: 'OKP',
            crv: 'X448',
            alg,
            x: b64u(await suite.kem.serializePublicKey(kp.publicKey)),
            d: b64u(await suite.kem.serializePrivateKey(kp.privateKey)),
          };
          const key = (await importEncryptionKey(jwk)) as DecryptionKey;
          const pt = randomBytes(200);
          const jwe = await theirEncrypt(suite, alg, kp.publicKey, key.kid, pt);
          const got = await decryptCompact(jwe, key, decOpts(backend));
          expect(got.plaintext).toEqual(new Uint8Array(pt));
          await rejects(
            () => decryptCompact(flipCiphertext(jwe), key, decOpts(backend)),
            'ERR_JWE_DECRYPTION_FAILED',
          );
        });

        it(`${alg}, @pqid/jose (${backend}) → ${impl}`, async () => {
          const suite = theirSuite(impl, alg);
          const { publicJwk, privateJwk } = await generateEncryptionKeyPair(alg, { backend });
          const recipient = (await importEncryptionKey(publicJwk)) as EncryptionKey;
          const privateKey = await suite.kem.deserializePrivateKey(unb64u(privateJwk.d as string));
          const pt = randomBytes(200);
          const jwe = await encryptCompact(pt, recipient, { ...encOpt, backend });
          expect(await theirDecrypt(suite, privateKey, jwe)).toEqual(new Uint8Array(pt));
          await expect(theirDecrypt(suite, privateKey, flipCiphertext(jwe))).rejects.toThrow();
        });
      }
    }
  }
});

describe("RFC 9180's X448 vectors through the suites of HPKE-5 and HPKE-6", () => {
  const file = readFileSync(vectorPath('jose-hpke', 'rfc9180-x448.json'));
  const vectors: HpkeVector[] = JSON.parse(file.toString('utf8'));
  const hex = (s: string) => new Uint8Array(Buffer.from(s, 'hex'));
  const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');
  /** RFC 7748 §5 decodeScalar448: the vectors' skRm is clamped, a serialized key need not be. */
  const clamp = (h: string) => {
    const c = hex(h);
    c[0] = (c[0] as number) & 252;
    c[55] = (c[55] as number) | 128;
    return toHex(c);
  };

  it('are the file the README names, one per suite, both in base mode', () => {
    expect(createHash('sha256').update(file).digest('hex')).toBe(
      'c5f99961e0e33fa51387644c823769df2b2c61df3fd24f70c41a510d76e59ff4',
    );
    expect(vectors.map((v) => [v.mode, v.kem_id, v.kdf_id, v.aead_id])).toEqual([
      [0, 0x21, 3, 2],
      [0, 0x21, 3, 3],
    ]);
    expect(vectors.map((v) => [v.encryptions.length, v.exports?.length])).toEqual([
      [257, 3],
      [257, 3],
    ]);
  });

  for (const v of vectors) {
    const entry = jweRegistry().find(
      (e) =>
        e.mode === 'integrated' &&
        e.hpke?.kem.id === v.kem_id &&
        e.hpke.kdf.id === v.kdf_id &&
        e.hpke.aead.id === v.aead_id,
    );
    for (const backend of BACKENDS) {
      it(`${entry?.alg} (${backend}): DeriveKeyPair, all ${v.encryptions.length} encryptions and the exports`, async () => {
        expect(entry?.alg).toMatch(/^HPKE-[56]$/);
        const suite = cipherSuite(entry?.hpke as NonNullable<typeof entry>['hpke'] & object, backend);
        const kp = await suite.DeriveKeyPair(hex(v.ikmR), true);
        expect(clamp(toHex(await suite.SerializePrivateKey(kp.privateKey)))).toBe(clamp(v.skRm));
        expect(toHex(await suite.SerializePublicKey(kp.publicKey))).toBe(v.pkRm);
        const ctx = await suite.SetupRecipient(kp, hex(v.enc), { info: hex(v.info) });
        for (const e of v.encryptions) expect(toHex(await ctx.Open(hex(e.ct), hex(e.aad)))).toBe(e.pt);
        for (const x of v.exports ?? [])
          expect(toHex(await ctx.Export(hex(x.exporter_context), x.L))).toBe(x.exported_value);
        // A fresh context (sequence number 0) refuses the first ciphertext with one bit changed.
        const again = await suite.SetupRecipient(kp, hex(v.enc), { info: hex(v.info) });
        const first = v.encryptions[0] as HpkeVector['encryptions'][number];
        const ct = hex(first.ct);
        ct[0] = (ct[0] as number) ^ 1;
        await expect(again.Open(ct, hex(first.aad))).rejects.toThrow();
        expect(toHex(await again.Open(hex(first.ct), hex(first.aad)))).toBe(first.pt);
      });
    }
  }
});
