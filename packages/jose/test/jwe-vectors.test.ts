/**
 * Published HPKE vectors below JOSE, on both HPKE backends: draft-ietf-hpke-pq's, as carried by
 * Go 1.26's crypto/hpke testdata (provenance: test/vectors/jose-hpke/README.md). They check the
 * KEMs (ML-KEM-512/768/1024, MLKEM768-P256, MLKEM1024-P384, X-Wing; DHKEM P-256, P-384, X25519
 * and X448), the one-stage SHAKE/TurboSHAKE KDFs next to HKDF, and the key schedule:
 * DeriveKeyPair, and every encryption of each vector. The
 * JOSE layer above HPKE is checked against Go's standard library in test/jwe-go-interop.test.ts.
 */
import { readFileSync } from 'node:fs';
import * as NobleHpke from '@panva/hpke-noble';
import { defaultHpkeBackend, type HpkeBackend, jweRegistry } from '@pqid/jose';
import * as NativeHpke from 'hpke';
import { type AEADFactory, CipherSuite, type KDFFactory, type KEMFactory } from 'hpke';
import { describe, expect, it } from 'vitest';
import { vectorPath } from './helpers/vectors.ts';

const load = (f: string) => JSON.parse(readFileSync(vectorPath('jose-hpke', f), 'utf8'));
const BACKENDS: HpkeBackend[] = defaultHpkeBackend() === 'node' ? ['node', 'noble'] : ['noble'];

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
