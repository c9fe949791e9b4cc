/**
 * Published vectors, on both HPKE backends:
 * - draft-ietf-jose-hpke-encrypt-20 Appendix A (HPKE-0 … HPKE-7, -KE): a private JWK, a
 *   flattened JWE with AAD and a compact JWE per algorithm;
 * - draft-ietf-jose-hpke-pq-pqt-00 Appendix A (HPKE-8, -9, -10, -12, -13, -KE): the same;
 * - draft-ietf-hpke-pq (as carried by Go 1.26's crypto/hpke testdata): the KEMs, the SHAKE256
 *   KDF and the key schedule below JOSE: DeriveKeyPair, and every encryption of each vector.
 * Provenance: test/vectors/jose-hpke/README.md.
 */
import { readFileSync } from 'node:fs';
import * as NobleHpke from '@panva/hpke-noble';
import {
  calculateThumbprint,
  DecryptionKey,
  decryptCompact,
  decryptFlattened,
  defaultHpkeBackend,
  exportEncryptionKey,
  type HpkeBackend,
  importEncryptionKey,
  type Jwk,
  jweRegistry,
} from '@pqid/jose';
import * as NativeHpke from 'hpke';
import { type AEADFactory, CipherSuite, type KDFFactory, type KEMFactory } from 'hpke';
import { describe, expect, it } from 'vitest';
import { rejects } from './helpers/assert.ts';
import { vectorPath } from './helpers/vectors.ts';

interface JoseVector {
  alg: string;
  plaintext: string;
  jwk: Jwk;
  flattened: Record<string, string>;
  compact: string;
}

const load = (f: string) => JSON.parse(readFileSync(vectorPath('jose-hpke', f), 'utf8'));
// The inputs of the drafts' generators (scripts/jwe.js in each draft's repository): the same
// sentence, with hyphens in one and en dashes in the other.
const sentence = (dash: string) =>
  `You can trust us to stick with you through thick and thin${dash}to the bitter end. And you can trust us to keep any secret of yours${dash}closer than you keep it yourself. But you cannot trust us to let you face trouble alone, and go off without a word. We are your friends, Frodo.`;
const AAD = 'The Fellowship of the Ring';
const JOSE: JoseVector[] = [
  ...load('draft-ietf-jose-hpke-encrypt-20.json').map((v: JoseVector) => ({
    ...v,
    plaintext: sentence('-'),
  })),
  ...load('draft-ietf-jose-hpke-pq-pqt-00.json').map((v: JoseVector) => ({
    ...v,
    plaintext: sentence('\u2013'),
  })),
];

const BACKENDS: HpkeBackend[] = defaultHpkeBackend() === 'node' ? ['node', 'noble'] : ['noble'];
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');

describe('draft JOSE HPKE vectors', () => {
  it('cover every HPKE identifier in the registry, and nothing else', () => {
    const hpke = jweRegistry()
      .filter((e) => e.family === 'hpke')
      .map((e) => e.alg)
      .sort();
    expect(JOSE.map((v) => v.alg).sort()).toEqual(hpke);
  });

  for (const v of JOSE) {
    describe(v.alg, () => {
      it('imports the private JWK, whose kid is its RFC 7638 thumbprint', async () => {
        const key = await importEncryptionKey(v.jwk);
        expect(key).toBeInstanceOf(DecryptionKey);
        const { d: _d, priv: _p, ...pub } = v.jwk;
        expect(calculateThumbprint(pub as Jwk)).toBe(v.jwk.kid);
        expect(exportEncryptionKey(key)).toMatchObject(v.jwk);
      });

      for (const backend of BACKENDS) {
        it(`decrypts the compact and the flattened JWE (${backend})`, async () => {
          const key = (await importEncryptionKey(v.jwk)) as DecryptionKey;
          const opts = {
            keyManagementAlgorithms: [v.alg],
            contentEncryptionAlgorithms: ['A128GCM', 'A256GCM'],
            backend,
          };
          const compact = await decryptCompact(v.compact, key, opts);
          expect(text(compact.plaintext)).toBe(v.plaintext);
          expect(compact.protectedHeader.alg).toBe(v.alg);
          const flat = await decryptFlattened(v.flattened, key, opts);
          expect(text(flat.plaintext)).toBe(v.plaintext);
          expect(text(flat.additionalAuthenticatedData as Uint8Array)).toBe(AAD);
        });
      }

      it('refuses the flattened JWE with its AAD removed or changed', async () => {
        const key = (await importEncryptionKey(v.jwk)) as DecryptionKey;
        const opts = {
          keyManagementAlgorithms: [v.alg],
          contentEncryptionAlgorithms: ['A128GCM', 'A256GCM'],
        };
        const { aad: _aad, ...noAad } = v.flattened;
        await rejects(() => decryptFlattened(noAad, key, opts), 'ERR_JWE_DECRYPTION_FAILED');
        const other = { ...v.flattened, aad: Buffer.from('The Two Towers').toString('base64url') };
        await rejects(() => decryptFlattened(other, key, opts), 'ERR_JWE_DECRYPTION_FAILED');
      });
    });
  }
});

// ---- draft-ietf-hpke-pq, below JOSE -------------------------------------------------------

interface HpkeVector {
  mode: number;
  kem_id: number;
  kdf_id: number;
  aead_id: number;
  info: string;
  ikmR: string;
  skRm: string;
  pkRm: string;
  enc: string;
  encryptions: { aad: string; ct: string; pt: string }[];
}

const HPKE: HpkeVector[] = load('draft-ietf-hpke-pq-go1.26.json');
const hex = (s: string) => new Uint8Array(Buffer.from(s, 'hex'));
const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** RFC 7748 §5 decodeScalar25519/448 clamping, as hex. */
function clampX(k: Uint8Array, kem: number): string {
  const c = Uint8Array.from(k);
  if (kem === 0x20) {
    c[0] = (c[0] as number) & 248;
    c[31] = ((c[31] as number) & 127) | 64;
  } else {
    c[0] = (c[0] as number) & 252;
    c[55] = (c[55] as number) | 128;
  }
  return toHex(c);
}

const KEM: Record<number, string> = {
  16: 'KEM_DHKEM_P256_HKDF_SHA256',
  17: 'KEM_DHKEM_P384_HKDF_SHA384',
  32: 'KEM_DHKEM_X25519_HKDF_SHA256',
  33: 'KEM_DHKEM_X448_HKDF_SHA512',
  64: 'KEM_ML_KEM_512',
  65: 'KEM_ML_KEM_768',
  66: 'KEM_ML_KEM_1024',
  80: 'KEM_MLKEM768_P256',
  81: 'KEM_MLKEM1024_P384',
  25722: 'KEM_MLKEM768_X25519',
};
const KDF: Record<number, string> = {
  1: 'KDF_HKDF_SHA256',
  2: 'KDF_HKDF_SHA384',
  3: 'KDF_HKDF_SHA512',
  16: 'KDF_SHAKE128',
  17: 'KDF_SHAKE256',
  18: 'KDF_TurboSHAKE128',
  19: 'KDF_TurboSHAKE256',
};
const AEADS: Record<number, string> = {
  1: 'AEAD_AES_128_GCM',
  2: 'AEAD_AES_256_GCM',
  3: 'AEAD_ChaCha20Poly1305',
};

describe('draft-ietf-hpke-pq vectors through the HPKE backends', () => {
  const registered = new Set(jweRegistry().flatMap((e) => (e.hpke ? [e.hpke.kem.id] : [])));
  it('include every post-quantum KEM the registry uses', () => {
    for (const id of [0x0041, 0x0042, 0x0050, 0x0051, 0x647a]) {
      expect(registered.has(id)).toBe(true);
      expect(HPKE.some((v) => v.kem_id === id)).toBe(true);
    }
  });

  for (const v of HPKE) {
    const name = `KEM 0x${v.kem_id.toString(16)}, KDF 0x${v.kdf_id.toString(16)}, AEAD 0x${v.aead_id.toString(16)}`;
    for (const backend of BACKENDS) {
      const lib = (backend === 'node' ? NativeHpke : NobleHpke) as unknown as Record<string, unknown>;
      // node:crypto has no TurboSHAKE: those suites run on noble only.
      const kdf = lib[KDF[v.kdf_id] as string] as KDFFactory | undefined;
      it.skipIf(!kdf)(`${name} (${backend}): DeriveKeyPair and every encryption`, async () => {
        const suite = new CipherSuite(
          lib[KEM[v.kem_id] as string] as KEMFactory,
          kdf as KDFFactory,
          lib[AEADS[v.aead_id] as string] as AEADFactory,
        );
        const kp = await suite.DeriveKeyPair(hex(v.ikmR), true);
        // RFC 9180 §7.1.2 serializes X25519/X448 keys clamped; the vectors do, hpke may not.
        const clamp = (h: string) => ([0x20, 0x21].includes(v.kem_id) ? clampX(hex(h), v.kem_id) : h);
        expect(clamp(toHex(await suite.SerializePrivateKey(kp.privateKey)))).toBe(clamp(v.skRm));
        expect(toHex(await suite.SerializePublicKey(kp.publicKey))).toBe(v.pkRm);
        const ctx = await suite.SetupRecipient(kp, hex(v.enc), { info: hex(v.info) });
        for (const e of v.encryptions) {
          expect(toHex(await ctx.Open(hex(e.ct), hex(e.aad)))).toBe(e.pt);
        }
      });
    }
  }
});
