/**
 * Published HPKE vectors below JOSE, on both HPKE backends: draft-ietf-hpke-pq's, as carried by
 * Go 1.26's crypto/hpke testdata (provenance: test/vectors/jose-hpke/README.md). They check the
 * KEMs (ML-KEM-512/768/1024, MLKEM768-P256, MLKEM1024-P384, X-Wing; DHKEM P-256, P-384, X25519
 * and X448), the one-stage SHAKE/TurboSHAKE KDFs next to HKDF, and the key schedule:
 * DeriveKeyPair, and every encryption of each vector. And RFC 9180's own vectors, as Go carries
 * them, for the classical suites of HPKE-0, -2, -3, -4 and -7: DeriveKeyPair, and the key
 * schedule through Go's digest of 1000 exports (its encryptions need a sender whose ephemeral key
 * is fixed, which neither backend offers). The
 * JOSE layer above HPKE is checked against Go's standard library in test/jwe-go-interop.test.ts.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as NobleHpke from '@panva/hpke-noble';
import { defaultHpkeBackend, type HpkeBackend, jweRegistry } from '@pqid/jose';
import * as NativeHpke from 'hpke';
import { type AEADFactory, CipherSuite, type KDFFactory, type KEMFactory } from 'hpke';
import { describe, expect, it } from 'vitest';
import { type HpkeVector, vectorPath } from './helpers/vectors.ts';

const load = (f: string) => JSON.parse(readFileSync(vectorPath('jose-hpke', f), 'utf8'));
const BACKENDS: HpkeBackend[] = defaultHpkeBackend() === 'node' ? ['node', 'noble'] : ['noble'];

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
  18: 'KEM_DHKEM_P521_HKDF_SHA512',
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
  65535: 'AEAD_EXPORT_ONLY',
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

/** RFC 9180's vectors as Go condenses them: the encryptions and exports each folded into a digest. */
type AccumulatedVector = Omit<HpkeVector, 'encryptions'> & { exports_accumulated: string };

describe('RFC 9180 vectors (as Go 1.26 carries them) for the classical HPKE suites', () => {
  const file = 'rfc9180-go1.26.json';
  const RFC9180: AccumulatedVector[] = load(file);
  const suiteOf = (v: { kem_id: number; kdf_id: number; aead_id: number }) =>
    `${v.kem_id}/${v.kdf_id}/${v.aead_id}`;
  // Suite → identifier (the Integrated Encryption one; its -KE twin uses the same suite).
  const used = new Map(
    jweRegistry().flatMap((e) =>
      e.hpke && e.mode === 'integrated'
        ? [[suiteOf({ kem_id: e.hpke.kem.id, kdf_id: e.hpke.kdf.id, aead_id: e.hpke.aead.id }), e.alg]]
        : [],
    ),
  );
  const ours = RFC9180.filter((v) => v.mode === 0 && used.has(suiteOf(v)));

  it('are the file test/vectors/jose-hpke/README.md names, and cover HPKE-0, -2, -3, -4 and -7', () => {
    expect(
      createHash('sha256')
        .update(readFileSync(vectorPath('jose-hpke', file)))
        .digest('hex'),
    ).toBe('908a08888ba7406f18a00dcfe13f4e068a892c3ed2ec1312cbf43945596741e7');
    expect(ours.map((v) => used.get(suiteOf(v))).sort()).toEqual([
      'HPKE-0',
      'HPKE-2',
      'HPKE-3',
      'HPKE-4',
      'HPKE-7',
    ]);
  });

  for (const v of ours) {
    for (const backend of BACKENDS) {
      const lib = (backend === 'node' ? NativeHpke : NobleHpke) as unknown as Record<string, unknown>;
      it(`${used.get(suiteOf(v))} (${backend}): DeriveKeyPair, and the exporter over 1000 contexts`, async () => {
        const suite = new CipherSuite(
          lib[KEM[v.kem_id] as string] as KEMFactory,
          lib[KDF[v.kdf_id] as string] as KDFFactory,
          lib[AEADS[v.aead_id] as string] as AEADFactory,
        );
        const kp = await suite.DeriveKeyPair(hex(v.ikmR), true);
        const clamp = (h: string) => (v.kem_id === 0x20 ? clampX(hex(h), v.kem_id) : h);
        expect(clamp(toHex(await suite.SerializePrivateKey(kp.privateKey)))).toBe(clamp(v.skRm));
        expect(toHex(await suite.SerializePublicKey(kp.publicKey))).toBe(v.pkRm);
        const ctx = await suite.SetupRecipient(kp, hex(v.enc), { info: hex(v.info) });
        // Go's hpke_test.go: contexts drawn from SHAKE128(""), each a length byte and that many
        // bytes; Export(context, L) for L = 0 … 999 absorbed into a second SHAKE128, 16 bytes out.
        const source = createHash('shake128', { outputLength: 1000 * 256 }).digest();
        const sink = createHash('shake128', { outputLength: 16 });
        let at = 0;
        for (let l = 0; l < 1000; l++) {
          const n = source[at++] as number;
          const context = source.subarray(at, at + n);
          at += n;
          // An export of length 0 is empty (the hpke package refuses to make one).
          if (l > 0) sink.update(await ctx.Export(context, l));
        }
        expect(sink.digest('hex')).toBe(v.exports_accumulated);
      });
    }
  }
});
