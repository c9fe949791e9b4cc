/**
 * Differential test for SLH-DSA verification: node:crypto (OpenSSL 3.5) and noble must give the
 * same verdict on mutations of valid signatures, and that verdict must be the FIPS 205 one —
 * true for an untouched (signature, message, context, key), false for any change, since every
 * byte of an SLH-DSA signature (R, the FORS secrets and paths, the hypertree's WOTS+ signatures
 * and paths) feeds the recomputed root.
 *
 * SLH-DSA-SHA2-128f (fast verify) with random messages and contexts; signatures by both backends.
 * Fixed seed and a time budget (PQID_DIFF_SEED / PQID_DIFF_RUNS / PQID_DIFF_MS override them).
 */
import { backends, SLHDSA_PARAMS, type SlhDsaAlg, slhdsa } from '@pqid/jose';
import * as fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';

const SEED = Number(process.env.PQID_DIFF_SEED ?? 20_261_124);
const RUNS = Number(process.env.PQID_DIFF_RUNS ?? 300);
const BUDGET_MS = Number(process.env.PQID_DIFF_MS ?? 10_000);
const ALG: SlhDsaAlg = 'SLH-DSA-SHA2-128f';
const P = SLHDSA_PARAMS[ALG];
const BACKENDS = backends()
  .filter((b) => b.available && b.capabilities.slhDsa)
  .map((b) => b.name);
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

interface Signed {
  pk: Uint8Array;
  message: Uint8Array;
  context: Uint8Array;
  signature: Uint8Array;
}

type Mutation =
  | { kind: 'none' }
  | { kind: 'sig-byte'; index: number; mask: number }
  | { kind: 'sig-region'; region: 'R' | 'FORS' | 'HT'; offset: number; mask: number }
  | { kind: 'length'; delta: number }
  | { kind: 'message'; index: number; mask: number }
  | { kind: 'context'; change: 'flip' | 'drop' | 'add' }
  | { kind: 'pk'; index: number; mask: number };

const mask = fc.integer({ min: 1, max: 255 });
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.record({ kind: fc.constant('sig-byte' as const), index: fc.nat(P.signature - 1), mask }),
  fc.record({
    kind: fc.constant('sig-region' as const),
    region: fc.constantFrom('R' as const, 'FORS' as const, 'HT' as const),
    offset: fc.nat(),
    mask,
  }),
  fc.record({
    kind: fc.constant('length' as const),
    delta: fc.integer({ min: -2, max: 2 }).filter((d) => d !== 0),
  }),
  fc.record({ kind: fc.constant('message' as const), index: fc.nat(), mask }),
  fc.record({
    kind: fc.constant('context' as const),
    change: fc.constantFrom('flip' as const, 'drop' as const, 'add' as const),
  }),
  fc.record({ kind: fc.constant('pk' as const), index: fc.nat(P.publicKey - 1), mask }),
);

// SLH-DSA-SHA2-128f (n = 16, k = 33, a = 6): R is 16 bytes, FORS 33·(1+6)·16 = 3696, the rest the hypertree.
const REGIONS = { R: [0, 16], FORS: [16, 16 + 3696], HT: [16 + 3696, P.signature] } as const;

function apply(s: Signed, m: Mutation): Signed {
  const flip = (b: Uint8Array, i: number, x: number) => {
    const c = new Uint8Array(b);
    c[i % Math.max(1, c.length)] = (c[i % Math.max(1, c.length)] as number) ^ x;
    return c;
  };
  switch (m.kind) {
    case 'none':
      return s;
    case 'sig-byte':
      return { ...s, signature: flip(s.signature, m.index, m.mask) };
    case 'sig-region': {
      const [a, b] = REGIONS[m.region];
      return { ...s, signature: flip(s.signature, a + (m.offset % (b - a)), m.mask) };
    }
    case 'length':
      return {
        ...s,
        signature:
          m.delta < 0
            ? s.signature.subarray(0, m.delta)
            : new Uint8Array([...s.signature, ...new Uint8Array(m.delta)]),
      };
    case 'message':
      return s.message.length
        ? { ...s, message: flip(s.message, m.index, m.mask) }
        : { ...s, message: Uint8Array.of(m.mask) };
    case 'context':
      if (m.change === 'drop')
        return { ...s, context: s.context.length ? s.context.subarray(1) : Uint8Array.of(0) };
      if (m.change === 'add')
        return {
          ...s,
          context: s.context.length < 255 ? new Uint8Array([...s.context, 0]) : s.context.subarray(1),
        };
      return { ...s, context: s.context.length ? flip(s.context, 0, 1) : Uint8Array.of(1) };
    case 'pk':
      return { ...s, pk: flip(s.pk, m.index, m.mask) };
  }
}

const signed: Signed[] = [];

beforeAll(async () => {
  const { publicKey, secretKey } = await slhdsa.generate(ALG);
  const rnd = fc.sample(
    fc.record({ message: fc.uint8Array({ maxLength: 300 }), context: fc.uint8Array({ maxLength: 255 }) }),
    { seed: SEED, numRuns: 3 * BACKENDS.length },
  );
  for (const [i, r] of rnd.entries()) {
    const backend = BACKENDS[i % BACKENDS.length];
    const signature = await slhdsa.sign(ALG, secretKey, r.message, {
      context: r.context,
      ...(backend ? { backend } : {}),
    });
    signed.push({ pk: publicKey, message: r.message, context: r.context, signature });
  }
});

describe(`SLH-DSA verification agrees across ${BACKENDS.join(', ')}`, () => {
  it('node:crypto and noble are both here', () => {
    expect(BACKENDS).toEqual(expect.arrayContaining(['node', 'noble']));
  });

  it('every mutation of a valid signature: the same verdict everywhere, and the FIPS 205 one', async () => {
    const counts: Record<string, number> = {};
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(fc.nat(signed.length - 1), mutation, async (which, m) => {
        if (Date.now() - started > BUDGET_MS) return;
        const s = apply(signed[which] as Signed, m);
        const expected = m.kind === 'none';
        const verdicts = await Promise.all(
          BACKENDS.map(
            async (b) =>
              [
                b,
                await slhdsa.verify(ALG, s.pk, s.message, s.signature, { context: s.context, backend: b }),
              ] as const,
          ),
        );
        counts[m.kind] = (counts[m.kind] ?? 0) + 1;
        if (verdicts.some(([, v]) => v !== expected))
          throw new Error(
            `verdicts ${JSON.stringify(verdicts)} for ${JSON.stringify(m)}, expected ${expected}; ` +
              `pk ${hex(s.pk)} context ${hex(s.context)} message ${hex(s.message)} signature[0..32] ${hex(s.signature.subarray(0, 32))}`,
          );
      }),
      { seed: SEED, numRuns: RUNS },
    );
    console.log(`SLH-DSA differential (${ALG}): ${JSON.stringify(counts)}`);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBeGreaterThan(50);
  });
});
