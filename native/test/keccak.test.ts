// pqid's SHAKE (csrc/keccak.c) on every Keccak implementation this CPU runs, against
// node:crypto's SHAKE (OpenSSL's), and its dispatch: the fastest implementation the CPU has is
// the one that runs, as its permutation counters show. The ML-DSA vectors run on each one too
// (acvp.test.ts, verify-vectors.test.ts).
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { info, scheme } from '../index.js';
import { type KeccakImplementation, keccakImplementations, keccakShake, onKeccak } from '../internal.js';
import { expectedKeccak } from './helpers.ts';

const ALL: KeccakImplementation[] = ['avx512vl', 'avx2', 'portable'];
const IMPLS = keccakImplementations();
const RATES = { 168: 'shake128', 136: 'shake256' } as const;

const shake = (rate: 136 | 168, input: Uint8Array, outlen: number) =>
  outlen === 0
    ? new Uint8Array(0)
    : new Uint8Array(createHash(RATES[rate], { outputLength: outlen }).update(input).digest());

/** Keygen, sign, signAsync and verify once per parameter set. */
async function mldsaOnce() {
  for (const alg of ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'] as const) {
    const s = scheme(alg);
    const { publicKey, secretKey } = s.keygen(randomBytes(32));
    const msg = randomBytes(100);
    expect(s.verify(publicKey, msg, s.sign(secretKey, msg))).toBe(true);
    expect(s.verify(publicKey, msg, await s.signAsync(secretKey, msg))).toBe(true);
  }
}

describe('Keccak dispatch', () => {
  it('picks the fastest implementation the CPU has, and can run every slower one', () => {
    const want = expectedKeccak();
    expect(info().keccak).toBe(want);
    expect(IMPLS).toEqual(ALL.slice(ALL.indexOf(want)));
  });

  it("ML-DSA's one- and four-way hashes run on the picked implementation, and only there", async () => {
    const { ran } = await onKeccak(undefined, mldsaOnce);
    const want = expectedKeccak();
    expect(ran[want].x1).toBeGreaterThan(0);
    expect(ran[want].x4).toBeGreaterThan(0);
    for (const other of ALL.filter((k) => k !== want)) expect(ran[other]).toEqual({ x1: 0, x4: 0 });
  });

  it.each(IMPLS)('%s, forced, is the only one that runs, and info() names it meanwhile', async (k) => {
    const { result, ran } = await onKeccak(k, async () => {
      await mldsaOnce();
      return info().keccak;
    });
    expect(result).toBe(k);
    expect(ran[k].x1).toBeGreaterThan(0);
    expect(ran[k].x4).toBeGreaterThan(0);
    for (const other of ALL.filter((o) => o !== k)) expect(ran[other]).toEqual({ x1: 0, x4: 0 });
    expect(info().keccak).toBe(expectedKeccak());
  });

  it('refuses an implementation this binary or CPU does not have', async () => {
    for (const k of ALL.filter((o) => !IMPLS.includes(o))) {
      await expect(onKeccak(k, () => 0)).rejects.toThrow(/not available/);
    }
    await expect(onKeccak('sse' as KeccakImplementation, () => 0)).rejects.toThrow(/not available/);
    expect(info().keccak).toBe(expectedKeccak());
  });
});

describe.each(IMPLS)('SHAKE on the %s Keccak equals node:crypto', (k) => {
  const input = randomBytes(4 * 1100);

  it('one at a time: lengths around the rates, absorbed and squeezed whole and in steps', () => {
    let n = 0;
    for (const rate of [168, 136] as const) {
      for (const inlen of [0, 1, 7, 8, 33, 66, 135, 136, 137, 167, 168, 169, 300, 1000]) {
        for (const outlen of [0, 1, 8, 32, 64, 135, 136, 168, 169, 500]) {
          const want = Buffer.from(shake(rate, input.subarray(0, inlen), outlen)).toString('hex');
          for (const chunk of [0, 1, 5, 64, 200]) {
            const got = keccakShake(k, rate, input.subarray(0, inlen), outlen, { chunk });
            expect(
              Buffer.from(got).toString('hex'),
              `rate ${rate} in ${inlen} out ${outlen} step ${chunk}`,
            ).toBe(want);
            n++;
          }
        }
      }
    }
    expect(n).toBe(2 * 14 * 10 * 5);
  });

  it('four at a time: inputs of the lengths ML-DSA uses and multi-block ones, whole blocks out', () => {
    for (const rate of [168, 136] as const) {
      for (const inlen of [0, 1, 34, 66, 135, 136, 137, 168, 169, 400, 1100]) {
        for (const blocks of [1, 2, 5]) {
          const got = keccakShake(k, rate, input.subarray(0, 4 * inlen), 4 * blocks * rate, { x4: true });
          expect(got.length).toBe(4 * blocks * rate);
          for (let j = 0; j < 4; j++) {
            const want = shake(rate, input.subarray(j * inlen, (j + 1) * inlen), blocks * rate);
            expect(
              Buffer.from(got.subarray(j * blocks * rate, (j + 1) * blocks * rate)).toString('hex'),
              `rate ${rate} in ${inlen} blocks ${blocks} lane ${j}`,
            ).toBe(Buffer.from(want).toString('hex'));
          }
        }
      }
    }
  });
});
