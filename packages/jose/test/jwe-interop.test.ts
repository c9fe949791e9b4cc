/**
 * Interop with jose (panva/jose), an independent JWE implementation:
 * - classical algorithms both ways: pqid encrypts, jose decrypts, and the reverse, with keys
 *   generated on either side;
 * - the content encryption pqid runs itself for HPKE Key Encryption (AES-GCM, AES-CBC-HMAC),
 *   against jose's, through `dir` JWEs that share a CEK.
 * HPKE interop with an independent implementation is Go's crypto/hpke: test/jwe-go-interop.test.ts.
 */
import { randomBytes } from 'node:crypto';
import {
  contentEncryptionRegistry,
  type DecryptionKey,
  decryptCompact,
  decryptFlattened,
  type EncryptionKey,
  encryptCompact,
  encryptFlattened,
  generateEncryptionKeyPair,
  importEncryptionKey,
  jweRegistry,
} from '@pqid/jose';
import * as jose from 'jose';
import { describe, expect, it } from 'vitest';
import { lookupContentEncryption, openContent, sealContent } from '../src/jwe/content.ts';
import { jweAad } from '../src/jwe/encrypt.ts';

const ENCS = contentEncryptionRegistry().map((e) => e.enc);
const CLASSICAL = jweRegistry().filter((e) => e.family === 'classical');
const text = (b: Uint8Array) => Buffer.from(b).toString();

describe('classical JWE with jose, both ways', () => {
  for (const e of CLASSICAL) {
    it(`${e.alg}: pqid → jose and jose → pqid, every enc, keys from either side`, async () => {
      const fromPqid = await generateEncryptionKeyPair(e.alg);
      const fromJose = await jose.generateKeyPair(e.alg, { extractable: true });
      const joseJwk = { ...(await jose.exportJWK(fromJose.privateKey)), alg: e.alg };
      for (const privateJwk of [fromPqid.privateJwk, joseJwk]) {
        const priv = (await importEncryptionKey(privateJwk)) as DecryptionKey;
        const pub = priv.publicKey as EncryptionKey;
        const josePriv = await jose.importJWK(privateJwk as jose.JWK, e.alg);
        const josePub = await jose.importJWK(pub.jwk as jose.JWK, e.alg);
        for (const enc of ENCS) {
          const msg = `${e.alg}/${enc}`;
          const ours = await encryptCompact(msg, pub, { enc });
          const theirs = await jose.compactDecrypt(ours, josePriv, {
            keyManagementAlgorithms: [e.alg],
            contentEncryptionAlgorithms: [enc],
          });
          expect(text(theirs.plaintext)).toBe(msg);

          const jwe = await new jose.CompactEncrypt(new TextEncoder().encode(msg))
            .setProtectedHeader({ alg: e.alg, enc, kid: pub.kid })
            .encrypt(josePub);
          const back = await decryptCompact(jwe, priv, {
            keyManagementAlgorithms: [e.alg],
            contentEncryptionAlgorithms: [enc],
          });
          expect(text(back.plaintext)).toBe(msg);
        }
        // Flattened with AAD, both ways.
        const flat = await encryptFlattened('flat', pub, { enc: 'A256GCM', aad: 'tenant' });
        const r = await jose.flattenedDecrypt(flat as jose.FlattenedJWE, josePriv);
        expect(text(r.plaintext)).toBe('flat');
        const jf = await new jose.FlattenedEncrypt(new TextEncoder().encode('flat'))
          .setProtectedHeader({ alg: e.alg, enc: 'A128CBC-HS256' })
          .setAdditionalAuthenticatedData(new TextEncoder().encode('tenant'))
          .encrypt(josePub);
        const got = await decryptFlattened(jf, priv, {
          keyManagementAlgorithms: [e.alg],
          contentEncryptionAlgorithms: ENCS,
        });
        expect(text(got.plaintext)).toBe('flat');
        expect(text(got.additionalAuthenticatedData as Uint8Array)).toBe('tenant');
      }
    });
  }
});

describe('HPKE Key Encryption content encryption against jose', () => {
  for (const enc of ENCS) {
    it(`${enc}: what jose encrypts with a CEK pqid decrypts, and the reverse`, async () => {
      const c = lookupContentEncryption(enc);
      const cek = new Uint8Array(randomBytes(c.keyBytes));
      const pt = new Uint8Array(randomBytes(1000));
      // jose → pqid
      const jwe = await new jose.CompactEncrypt(pt).setProtectedHeader({ alg: 'dir', enc }).encrypt(cek);
      const [h, , iv, ct, tag] = jwe.split('.') as string[];
      const d = (s: string | undefined) => new Uint8Array(Buffer.from(s as string, 'base64url'));
      const opened = openContent(c, cek, { iv: d(iv), ciphertext: d(ct), tag: d(tag) }, jweAad(h as string));
      expect(opened).toEqual(pt);
      // pqid → jose
      const header = Buffer.from(JSON.stringify({ alg: 'dir', enc })).toString('base64url');
      const sealed = sealContent(c, cek, pt, jweAad(header));
      expect(sealed.iv.length).toBe(c.ivBytes);
      expect(sealed.tag.length).toBe(c.tagBytes);
      const b = (u: Uint8Array) => Buffer.from(u).toString('base64url');
      const ours = `${header}..${b(sealed.iv)}.${b(sealed.ciphertext)}.${b(sealed.tag)}`;
      const back = await jose.compactDecrypt(ours, cek, { contentEncryptionAlgorithms: [enc] });
      expect(new Uint8Array(back.plaintext)).toEqual(pt);
      // A wrong CEK or a truncated tag opens nothing.
      const other = new Uint8Array(randomBytes(c.keyBytes));
      expect(openContent(c, other, sealed, jweAad(header))).toBeUndefined();
      expect(openContent(c, cek, { ...sealed, tag: sealed.tag.subarray(1) }, jweAad(header))).toBeUndefined();
    });
  }
});
