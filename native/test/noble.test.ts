// Cross-implementation check: deterministic signatures must be byte-identical to
// @noble/post-quantum, and each side must verify the other's hedged signatures.
import { randomBytes } from 'node:crypto';
import { ml_dsa44, ml_dsa65, ml_dsa87 } from '@noble/post-quantum/ml-dsa.js';
import { describe, expect, it } from 'vitest';
import { mlDsa44, mlDsa65, mlDsa87, scheme } from '../index.js';

const PAIRS = [
  [mlDsa44, ml_dsa44],
  [mlDsa65, ml_dsa65],
  [mlDsa87, ml_dsa87],
] as const;

describe('interop with @noble/post-quantum', () => {
  for (const [ours, noble] of PAIRS) {
    it(`${ours.algorithm}: keys and deterministic signatures identical (random msgs/contexts)`, () => {
      for (let i = 0; i < 12; i++) {
        const seed = randomBytes(32);
        const { publicKey, secretKey } = ours.keygen(seed);
        const nk = noble.keygen(seed);
        expect(Buffer.from(publicKey).equals(nk.publicKey)).toBe(true);
        const msg = randomBytes(i === 0 ? 0 : Math.floor(Math.random() * 4096));
        const context = randomBytes(i === 1 ? 255 : Math.floor(Math.random() * 64));
        const sig = ours.sign(secretKey, msg, { deterministic: true, context });
        const nsig = noble.sign(msg, nk.secretKey, { extraEntropy: false, context });
        expect(Buffer.from(sig).equals(Buffer.from(nsig))).toBe(true);
        const ref = scheme(ours.algorithm, { implementation: 'ref' });
        expect(
          Buffer.from(ref.sign(secretKey, msg, { deterministic: true, context })).equals(Buffer.from(nsig)),
        ).toBe(true);
        // Hedged: differ each time, but verify across implementations.
        const hedged = ours.sign(secretKey, msg, { context });
        expect(Buffer.from(hedged).equals(Buffer.from(sig))).toBe(false);
        expect(noble.verify(hedged, msg, publicKey, { context })).toBe(true);
        expect(ours.verify(publicKey, msg, noble.sign(msg, nk.secretKey, { context }), context)).toBe(true);
        // Caller rnd equals noble's extraEntropy.
        const rnd = randomBytes(32);
        expect(
          Buffer.from(ours.sign(secretKey, msg, { rnd, context })).equals(
            Buffer.from(noble.sign(msg, nk.secretKey, { extraEntropy: rnd, context })),
          ),
        ).toBe(true);
      }
    });
  }
});
