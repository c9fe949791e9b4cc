/**
 * Differential test: structural mutations of valid ML-DSA signatures must get the same verdict
 * from every backend (native = liboqs AVX2, native-ref = liboqs portable C, node = OpenSSL,
 * noble), and the FIPS 204 verdict of the reference verifier in
 * test/vectors/pqid-mldsa-verify/fips204.ts.
 *
 * Mutations: a z coefficient pushed to, at or past γ1 − β (and to ±γ1), hint bits set or
 * cleared, raw hint bytes, c̃ bytes, any byte, lengths. For the all-zero-t1 key the challenge
 * is recomputed after a z or hint change, so the mutation is the signature's *only* defect.
 *
 * Fixed seed and a time budget (PQID_DIFF_SEED / PQID_DIFF_RUNS / PQID_DIFF_MS override them);
 * a disagreement fails with a reproducer: the inputs in hex and every backend's verdict.
 */
import { backends, type MlDsaAlg, mldsa } from '@pqid/jose';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pathCases } from '../../../test/vectors/pqid-mldsa-verify/cases.ts';
import {
  verify as fipsVerify,
  params,
  sigDecode,
  sigEncode,
} from '../../../test/vectors/pqid-mldsa-verify/fips204.ts';
import { forgeZeroT1, hintAt, seed32, shortZ } from '../../../test/vectors/pqid-mldsa-verify/forge.ts';

const SEED = Number(process.env.PQID_DIFF_SEED ?? 20_261_124);
const RUNS = Number(process.env.PQID_DIFF_RUNS ?? 600);
const BUDGET_MS = Number(process.env.PQID_DIFF_MS ?? 20_000);
const BACKENDS = backends()
  .filter((b) => b.available)
  .map((b) => b.name);
const ALGS: MlDsaAlg[] = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'];
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

type Mutation =
  | {
      kind: 'z';
      poly: number;
      coef: number;
      value: 'bound-1' | 'bound' | 'bound+1' | 'gamma1' | 'random';
      negative: boolean;
      random: number;
    }
  | { kind: 'hint-bit'; row: number; coef: number }
  | { kind: 'hint-byte'; index: number; value: number }
  | { kind: 'ctilde-byte'; index: number; mask: number }
  | { kind: 'any-byte'; index: number; mask: number }
  | { kind: 'length'; delta: number }
  | { kind: 'none' };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('z' as const),
    poly: fc.nat(6),
    coef: fc.nat(255),
    value: fc.constantFrom(
      'bound-1' as const,
      'bound' as const,
      'bound+1' as const,
      'gamma1' as const,
      'random' as const,
    ),
    negative: fc.boolean(),
    random: fc.nat(),
  }),
  fc.record({ kind: fc.constant('hint-bit' as const), row: fc.nat(7), coef: fc.nat(255) }),
  fc.record({ kind: fc.constant('hint-byte' as const), index: fc.nat(82), value: fc.nat(255) }),
  fc.record({
    kind: fc.constant('ctilde-byte' as const),
    index: fc.nat(63),
    mask: fc.integer({ min: 1, max: 255 }),
  }),
  fc.record({
    kind: fc.constant('any-byte' as const),
    index: fc.nat(),
    mask: fc.integer({ min: 1, max: 255 }),
  }),
  fc.record({
    kind: fc.constant('length' as const),
    delta: fc.integer({ min: -3, max: 3 }).filter((d) => d !== 0),
  }),
  fc.constant({ kind: 'none' as const }),
);

/** Applies a mutation; for the zero-t1 key the challenge is recomputed after z/hint changes. */
function mutate(
  alg: MlDsaAlg,
  zeroT1: boolean,
  msg: Uint8Array,
  m: Mutation,
): { pk: Uint8Array; sig: Uint8Array } {
  const p = params(alg);
  const set = pathCases(alg);
  const rho = seed32(`${alg} paths rho`);
  const z = shortZ(p, 'differential');
  const h = hintAt(p, [
    [0, 2],
    [p.k - 1, 250],
  ]);
  const base = zeroT1
    ? forgeZeroT1(p, { rho, z, h, msg })
    : {
        pk: set.ordinary.publicKey,
        sig: set.cases.find((c) => c.id === 'valid-honest')?.sign(msg) as Uint8Array,
      };
  const bound = p.gamma1 - p.beta;
  switch (m.kind) {
    case 'none':
      return base;
    case 'z':
    case 'hint-bit': {
      const dec = sigDecode(p, base.sig);
      const zz = zeroT1 ? z.map((x) => x.slice()) : dec.z;
      const hh = h.map((x) => x.slice());
      if (m.kind === 'z') {
        const mag = {
          'bound-1': bound - 1,
          bound,
          'bound+1': bound + 1,
          gamma1: p.gamma1,
          random: m.random % p.gamma1,
        }[m.value];
        const v = m.negative ? Math.max(-mag, 1 - p.gamma1) : mag;
        (zz[m.poly % p.l] as number[])[m.coef] = v;
      } else {
        const row = hh[m.row % p.k] as number[];
        row[m.coef] = row[m.coef] ? 0 : 1;
      }
      if (zeroT1) return forgeZeroT1(p, { rho, z: zz, h: hh, msg });
      // Ordinary key: re-encode the changed z (the hint bytes are kept as they were).
      return { pk: base.pk, sig: m.kind === 'z' ? sigEncode(p, dec.ctilde, zz, dec.hint) : base.sig };
    }
    case 'hint-byte': {
      const sig = base.sig.slice();
      sig[p.sigBytes - p.omega - p.k + (m.index % (p.omega + p.k))] = m.value;
      return { pk: base.pk, sig };
    }
    case 'ctilde-byte':
    case 'any-byte': {
      const sig = base.sig.slice();
      const i = m.kind === 'ctilde-byte' ? m.index % p.ctildeBytes : m.index % sig.length;
      sig[i] = (sig[i] as number) ^ m.mask;
      return { pk: base.pk, sig };
    }
    case 'length':
      return {
        pk: base.pk,
        sig: m.delta < 0 ? base.sig.subarray(0, m.delta) : Buffer.concat([base.sig, new Uint8Array(m.delta)]),
      };
  }
}

describe('ML-DSA backends agree on mutated signatures', () => {
  it(`${BACKENDS.join(', ')} and the FIPS 204 reference give one verdict (seed ${SEED})`, () => {
    expect(BACKENDS.length).toBeGreaterThanOrEqual(2);
    const verdicts = { true: 0, false: 0 };
    fc.assert(
      fc.property(
        fc.constantFrom(...ALGS),
        fc.boolean(),
        mutation,
        fc.uint8Array({ maxLength: 64 }),
        (alg, zeroT1, m, msg) => {
          const { pk, sig } = mutate(alg, zeroT1, msg, m);
          const got = Object.fromEntries(
            BACKENDS.map((b) => [b, mldsa.verifySync(alg, pk, msg, sig, { backend: b })]),
          ) as Record<string, boolean>;
          const reference = fipsVerify(params(alg), pk, msg, sig);
          verdicts[`${reference}`]++;
          if (new Set([...Object.values(got), reference]).size !== 1) {
            throw new Error(
              `backends disagree on ${alg} (${zeroT1 ? 'zero-t1' : 'ordinary'} key, mutation ${JSON.stringify(m)}): ` +
                `FIPS 204 reference=${reference} ${JSON.stringify(got)}\n` +
                `reproduce: mldsa.verifySync('${alg}', hex('${hex(pk)}'), hex('${hex(msg)}'), hex('${hex(sig)}'), { backend })`,
            );
          }
        },
      ),
      {
        seed: SEED,
        numRuns: RUNS,
        interruptAfterTimeLimit: BUDGET_MS,
        markInterruptAsFailure: false,
        endOnFailure: true,
      },
    );
    console.log(
      `differential: ${verdicts.true} valid, ${verdicts.false} invalid, backends ${BACKENDS.join(', ')}`,
    );
    // Both verdicts must occur, or the property says nothing.
    expect(verdicts.true).toBeGreaterThan(0);
    expect(verdicts.false).toBeGreaterThan(0);
  }, 120_000);
});
