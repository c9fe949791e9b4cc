/**
 * The two HPKE backends against each other, for every HPKE `alg`: what one encrypts the other
 * decrypts, keys made by one work on the other, and the same ikm derives the same key on both.
 * `node` runs ML-KEM, X25519, P-256/384 and SHAKE256 in OpenSSL (node:crypto), `noble` in
 * @noble/*; agreement is evidence neither is wrong. Separately, the AKP public keys are checked
 * against @noble/post-quantum's own key generation from the private seed.
 */
import { ml_kem768_p256, ml_kem768_x25519, ml_kem1024_p384 } from '@noble/post-quantum/hybrid.js';
import { ml_kem768, ml_kem1024 } from '@noble/post-quantum/ml-kem.js';
import {
  type DecryptionKey,
  decryptCompact,
  decryptFlattened,
  defaultHpkeBackend,
  type EncryptionKey,
  encryptCompact,
  encryptFlattened,
  generateEncryptionKeyPair,
  type HpkeBackend,
  importEncryptionKey,
  jweRegistry,
} from '@pqid/jose';
import { describe, expect, it } from 'vitest';

const HPKE = jweRegistry().filter((e) => e.family === 'hpke');
const BOTH = defaultHpkeBackend() === 'node';
const PAIRS: [HpkeBackend, HpkeBackend][] = [
  ['node', 'noble'],
  ['noble', 'node'],
  ['noble', 'noble'],
  ['node', 'node'],
];
const unb64u = (s: unknown) => new Uint8Array(Buffer.from(s as string, 'base64url'));

describe.skipIf(!BOTH)('HPKE backends: node:crypto and noble agree', () => {
  for (const e of HPKE) {
    it(`${e.alg}: every direction decrypts, with keys generated on either side`, async () => {
      const opts = e.mode === 'integrated' ? {} : { enc: 'A256GCM' };
      const allow = { keyManagementAlgorithms: [e.alg], contentEncryptionAlgorithms: ['A256GCM'] };
      for (const keyBackend of ['node', 'noble'] as const) {
        const { privateJwk, publicJwk } = await generateEncryptionKeyPair(e.alg, { backend: keyBackend });
        const priv = (await importEncryptionKey(privateJwk)) as DecryptionKey;
        const pub = (await importEncryptionKey(publicJwk)) as EncryptionKey;
        for (const [from, to] of PAIRS) {
          const msg = `${e.alg} ${from}→${to}`;
          const jwe = await encryptCompact(msg, pub, { ...opts, backend: from });
          const out = await decryptCompact(jwe, priv, { ...allow, backend: to });
          expect(Buffer.from(out.plaintext).toString()).toBe(msg);
          const flat = await encryptFlattened(msg, pub, { ...opts, aad: 'a', backend: from });
          expect(
            Buffer.from((await decryptFlattened(flat, priv, { ...allow, backend: to })).plaintext).toString(),
          ).toBe(msg);
        }
      }
    });

    it(`${e.alg}: the same ikm derives the same JWK on both`, async () => {
      const ikm = new Uint8Array(e.sizes.privateKey + 16).map((_, i) => i * 7);
      const a = await generateEncryptionKeyPair(e.alg, { ikm, backend: 'node' });
      const b = await generateEncryptionKeyPair(e.alg, { ikm, backend: 'noble' });
      // X25519/X448 private keys may be serialized clamped or not (RFC 9180 §7.1.2): compare
      // what matters, the public key (and so the kid).
      expect(a.publicJwk).toEqual(b.publicJwk);
      if (e.keyTypes[0]?.kty !== 'OKP') expect(a.privateJwk).toEqual(b.privateJwk);
    });
  }
});

describe('AKP keys against @noble/post-quantum key generation', () => {
  const KEMS: Record<number, { keygen(seed: Uint8Array): { publicKey: Uint8Array } }> = {
    65: ml_kem768,
    66: ml_kem1024,
    80: ml_kem768_p256,
    81: ml_kem1024_p384,
    25722: ml_kem768_x25519,
  };
  for (const e of HPKE.filter((x) => x.keyTypes[0]?.kty === 'AKP' && x.mode === 'integrated')) {
    it(`${e.alg}: pub is what ${e.hpke?.kem.name} derives from priv`, async () => {
      for (const backend of BOTH ? (['node', 'noble'] as const) : (['noble'] as const)) {
        const { privateJwk } = await generateEncryptionKeyPair(e.alg, { backend });
        const kem = KEMS[e.hpke?.kem.id as number];
        expect(kem).toBeDefined();
        const derived = kem?.keygen(unb64u(privateJwk.priv)).publicKey;
        expect(Buffer.from(derived as Uint8Array).toString('base64url')).toBe(privateJwk.pub);
      }
    });
  }
});
