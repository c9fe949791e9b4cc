// Seeded key generation is mldsa-native's KeyGen_internal(ξ), on the native back end and the
// portable code. Both must give the FIPS 204 key pair byte for byte: checked here
// against @noble/post-quantum, an independent implementation (and, in acvp.test.ts, the ACVP
// keyGen vectors), and the expansion counter that shows hot paths never re-derive keys.
import { createHash } from 'node:crypto';
import { ml_dsa44, ml_dsa65, ml_dsa87 } from '@noble/post-quantum/ml-dsa.js';
import { describe, expect, it } from 'vitest';
import { mlDsa65, scheme, stats } from '../index.js';
import { secretKeyEquals } from '../internal.js';
import { expectedNative } from './helpers.ts';

const NOBLE = { 'ML-DSA-44': ml_dsa44, 'ML-DSA-65': ml_dsa65, 'ML-DSA-87': ml_dsa87 } as const;
const seedOf = (label: string) => new Uint8Array(createHash('sha256').update(label).digest());

describe('seeded keygen (FIPS 204 KeyGen_internal)', () => {
  for (const alg of Object.keys(NOBLE) as (keyof typeof NOBLE)[]) {
    it(`${alg}: native and ref give @noble/post-quantum's pk and expanded sk for 64 seeds`, () => {
      const auto = scheme(alg);
      const ref = scheme(alg, { implementation: 'ref' });
      for (let i = 0; i < 64; i++) {
        // Fixed seeds, plus the two edge seeds 0³² and 1³².
        const seed =
          i === 0 ? new Uint8Array(32) : i === 1 ? new Uint8Array(32).fill(0xff) : seedOf(`${alg} ${i}`);
        const want = NOBLE[alg].keygen(seed);
        for (const s of [auto, ref]) {
          const { publicKey, secretKey } = s.keygen(seed);
          expect(
            Buffer.from(publicKey).equals(Buffer.from(want.publicKey)),
            `${s.implementation} pk ${i}`,
          ).toBe(true);
          expect(secretKeyEquals(secretKey, want.secretKey), `${s.implementation} sk ${i}`).toBe(true);
          secretKey.free();
        }
      }
    });
  }

  it('the native keygen is what auto runs on this CPU (else the test above compared ref twice)', () => {
    expect(scheme('ML-DSA-65').implementation).toBe(expectedNative());
    if (expectedNative() === 'ref')
      console.log('keygen: no native back end on this CPU, only the portable keygen ran');
  });
});

describe('stats().seedExpansions', () => {
  it('counts each keygen once, and nothing else', () => {
    const before = stats().seedExpansions;
    const { secretKey } = mlDsa65.keygen(seedOf('stats'));
    expect(stats().seedExpansions).toBe(before + 1);
    const msg = new Uint8Array(100);
    for (let i = 0; i < 10; i++) mlDsa65.sign(secretKey, msg);
    const imported = scheme('ML-DSA-44').importSecretKey(ml_dsa44.keygen(seedOf('x')).secretKey);
    scheme('ML-DSA-44').sign(imported, msg);
    expect(stats().seedExpansions).toBe(before + 1);
    scheme('ML-DSA-87', { implementation: 'ref' }).keygen(seedOf('ref'));
    expect(stats().seedExpansions).toBe(before + 2);
  });

  it('a failed keygen (bad seed) counts nothing', () => {
    const before = stats().seedExpansions;
    expect(() => mlDsa65.keygen(new Uint8Array(31))).toThrow(/32-byte seed/);
    expect(stats().seedExpansions).toBe(before);
  });
});
