// Signing from an external μ (FIPS 204 Algorithm 7 from line 7): μ = H(H(pk, 64) ‖ 0x00 ‖ |ctx|
// ‖ ctx ‖ M, 64) computed here with node:crypto, signed by the addon, must give the message's own
// signature, on the native back end and ref; bad input is a typed error. The ACVP external-μ groups run in acvp.test.ts.
import { createHash, randomBytes } from 'node:crypto';
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';
import { describe, expect, it } from 'vitest';
import { composite, LiboqsError, mlDsa44, mlDsa65, mlDsa87, type Scheme, scheme } from '../index.js';

const shake = (...parts: Uint8Array[]) => {
  const h = createHash('shake256', { outputLength: 64 });
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};
const mu = (pk: Uint8Array, msg: Uint8Array, ctx = new Uint8Array(0)) =>
  shake(shake(pk), Uint8Array.of(0, ctx.length), ctx, msg);

function code(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(LiboqsError);
    return (e as LiboqsError).code;
  }
  return 'no error';
}

describe.each([mlDsa44, mlDsa65, mlDsa87] as Scheme[])('$algorithm: signMu', (s) => {
  it('gives the message signature (deterministic, caller rnd), verifies hedged, on auto and ref', async () => {
    for (const impl of ['auto', 'ref'] as const) {
      const x = scheme(s.algorithm, { implementation: impl });
      const { publicKey, secretKey } = x.keygen(new Uint8Array(randomBytes(32)));
      for (let i = 0; i < 6; i++) {
        const msg = new Uint8Array(randomBytes(i * 100));
        const context = new Uint8Array(randomBytes(i * 20));
        const m = mu(publicKey, msg, context);
        const rnd = new Uint8Array(randomBytes(32));
        expect(Buffer.from(x.signMu(secretKey, m, { deterministic: true }))).toEqual(
          Buffer.from(x.sign(secretKey, msg, { deterministic: true, context })),
        );
        expect(Buffer.from(await x.signMuAsync(secretKey, m, { rnd }))).toEqual(
          Buffer.from(x.sign(secretKey, msg, { rnd, context })),
        );
        expect(x.verify(publicKey, msg, x.signMu(secretKey, m), context)).toBe(true);
        expect(x.verify(publicKey, msg, await x.signMuAsync(secretKey, m), context)).toBe(true);
      }
    }
  });
});

describe('signMu bad input', () => {
  const { secretKey } = mlDsa65.keygen(new Uint8Array(32));
  it('is a typed error, sync and async', async () => {
    expect(code(() => mlDsa65.signMu(secretKey, new Uint8Array(63)))).toBe('ERR_INVALID_ARGUMENT');
    expect(code(() => mlDsa65.signMu(secretKey, new Uint8Array(65)))).toBe('ERR_INVALID_ARGUMENT');
    expect(code(() => mlDsa65.signMu(secretKey, 'x' as unknown as Uint8Array))).toBe('ERR_INVALID_ARGUMENT');
    expect(code(() => mlDsa65.signMu(secretKey, new Uint8Array(64), { rnd: new Uint8Array(5) }))).toBe(
      'ERR_INVALID_RND',
    );
    expect(code(() => mlDsa44.signMu(secretKey, new Uint8Array(64)))).toBe('ERR_KEY_ALGORITHM_MISMATCH');
    await expect(mlDsa65.signMuAsync(secretKey, new Uint8Array(1))).rejects.toMatchObject({
      code: 'ERR_INVALID_ARGUMENT',
    });
    const c = composite({
      mldsa: 'ML-DSA-65',
      traditional: 'Ed25519',
      label: new Uint8Array(1),
      preHash: 'SHA512',
    });
    const ck = c.keygen(new Uint8Array(32), new Uint8Array(32));
    expect(code(() => mlDsa65.signMu(ck.secretKey, new Uint8Array(64)))).toBe('ERR_KEY_ALGORITHM_MISMATCH');
    const freed = mlDsa65.keygen(new Uint8Array(32).fill(1)).secretKey;
    freed.free();
    expect(code(() => mlDsa65.signMu(freed, new Uint8Array(64)))).toBe('ERR_KEY_FREED');
  });

  it('@noble/post-quantum verifies a signature made from μ', () => {
    const seed = new Uint8Array(randomBytes(32));
    const { publicKey, secretKey } = mlDsa65.keygen(seed);
    const msg = new Uint8Array(randomBytes(300));
    expect(ml_dsa65.verify(mlDsa65.signMu(secretKey, mu(publicKey, msg)), msg, publicKey)).toBe(true);
  });
});
