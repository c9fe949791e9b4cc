// Bad input, secret-key hygiene and concurrency: every failure is a typed LiboqsError,
// nothing crashes the process.
import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { LiboqsError, mlDsa44, mlDsa65, mlDsa87, type Scheme, scheme } from '../index.js';
import { flip } from './helpers.ts';

function code(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(LiboqsError);
    return (e as LiboqsError).code;
  }
  return 'no error';
}

async function codeAsync(p: () => Promise<unknown>): Promise<string> {
  try {
    await p();
  } catch (e) {
    expect(e).toBeInstanceOf(LiboqsError);
    return (e as LiboqsError).code;
  }
  return 'no error';
}

const msg = new TextEncoder().encode('hello');

describe.each([mlDsa44, mlDsa65, mlDsa87] as Scheme[])('$algorithm bad input', (s) => {
  const { publicKey, secretKey } = s.keygen(new Uint8Array(32).fill(7));
  const sig = s.sign(secretKey, msg);

  it('reports sizes and implementation', () => {
    expect(publicKey.length).toBe(s.publicKeyBytes);
    expect(sig.length).toBe(s.signatureBytes);
    expect(['x86_64-avx2', 'aarch64-neon', 'ref']).toContain(s.implementation);
    expect(scheme(s.algorithm, { implementation: 'ref' }).implementation).toBe('ref');
  });

  it('wrong seed / key / signature / rnd lengths', async () => {
    expect(code(() => s.keygen())).toBe('ERR_INVALID_SEED');
    expect(code(() => s.keygen(new Uint8Array(31)))).toBe('ERR_INVALID_SEED');
    expect(code(() => s.keygen(new Uint8Array(33)))).toBe('ERR_INVALID_SEED');
    expect(code(() => s.importSecretKey(new Uint8Array(s.secretKeyBytes - 1)))).toBe(
      'ERR_INVALID_KEY_LENGTH',
    );
    expect(code(() => s.verify(publicKey.subarray(1), msg, sig))).toBe('ERR_INVALID_KEY_LENGTH');
    expect(code(() => s.verify(new Uint8Array(0), msg, sig))).toBe('ERR_INVALID_KEY_LENGTH');
    expect(code(() => s.verify(publicKey, msg, sig.subarray(1)))).toBe('ERR_INVALID_SIGNATURE_LENGTH');
    expect(code(() => s.verify(publicKey, msg, new Uint8Array(0)))).toBe('ERR_INVALID_SIGNATURE_LENGTH');
    expect(code(() => s.sign(secretKey, msg, { rnd: new Uint8Array(31) }))).toBe('ERR_INVALID_RND');
    expect(code(() => s.sign(secretKey, msg, { rnd: new Uint8Array(32), deterministic: true }))).toBe(
      'ERR_INVALID_RND',
    );
    expect(await codeAsync(() => s.verifyAsync(publicKey, msg, sig.subarray(2)))).toBe(
      'ERR_INVALID_SIGNATURE_LENGTH',
    );
    expect(await codeAsync(() => s.signAsync(secretKey, msg, { rnd: new Uint8Array(1) }))).toBe(
      'ERR_INVALID_RND',
    );
  });

  it('non-Uint8Array arguments', () => {
    expect(code(() => s.sign(secretKey, 'hello' as unknown as Uint8Array))).toBe('ERR_INVALID_ARGUMENT');
    expect(code(() => s.sign({} as never, msg))).toBe('ERR_INVALID_ARGUMENT');
    expect(code(() => s.verify(publicKey, msg, [1, 2] as unknown as Uint8Array))).toBe(
      'ERR_INVALID_ARGUMENT',
    );
    expect(code(() => s.sign(secretKey, msg, { context: new Uint16Array(2) as unknown as Uint8Array }))).toBe(
      'ERR_INVALID_ARGUMENT',
    );
    expect(s.verify(publicKey, msg, Buffer.from(sig))).toBe(true); // Buffer is a Uint8Array
  });

  it('context: 255 ok, 256 → ERR_CONTEXT_TOO_LONG', async () => {
    const ctx = randomBytes(255);
    const sig2 = s.sign(secretKey, msg, { context: ctx });
    expect(s.verify(publicKey, msg, sig2, ctx)).toBe(true);
    expect(s.verify(publicKey, msg, sig2)).toBe(false);
    expect(code(() => s.sign(secretKey, msg, { context: new Uint8Array(256) }))).toBe('ERR_CONTEXT_TOO_LONG');
    expect(code(() => s.verify(publicKey, msg, sig2, new Uint8Array(256)))).toBe('ERR_CONTEXT_TOO_LONG');
    expect(await codeAsync(() => s.signAsync(secretKey, msg, { context: new Uint8Array(256) }))).toBe(
      'ERR_CONTEXT_TOO_LONG',
    );
  });

  it('empty and 16 MB messages, sync and async', async () => {
    const empty = new Uint8Array(0);
    expect(s.verify(publicKey, empty, s.sign(secretKey, empty))).toBe(true);
    const big = randomBytes(16 * 1024 * 1024);
    const bigSig = s.sign(secretKey, big, { deterministic: true });
    expect(s.verify(publicKey, big, bigSig)).toBe(true);
    expect(await s.verifyAsync(publicKey, big, await s.signAsync(secretKey, big))).toBe(true);
    expect(Buffer.from(await s.signAsync(secretKey, big, { deterministic: true })).equals(bigSig)).toBe(true);
    flip(big, 12345);
    expect(s.verify(publicKey, big, bigSig)).toBe(false);
  });

  it('tampered signature / message / key fail verification', () => {
    const bad = Uint8Array.from(sig);
    flip(bad, 10, 0x40);
    expect(s.verify(publicKey, msg, bad)).toBe(false);
    expect(s.verify(publicKey, new TextEncoder().encode('hellO'), sig)).toBe(false);
    const other = s.keygen(new Uint8Array(32).fill(8)).publicKey;
    expect(s.verify(other, msg, sig)).toBe(false);
  });
});

describe('SecretKey hygiene', () => {
  it('free() zeroises and later use throws ERR_KEY_FREED', async () => {
    const { secretKey } = mlDsa65.keygen(randomBytes(32));
    expect(secretKey.freed).toBe(false);
    secretKey.free();
    expect(secretKey.freed).toBe(true);
    secretKey.free(); // idempotent
    expect(code(() => mlDsa65.sign(secretKey, msg))).toBe('ERR_KEY_FREED');
    expect(await codeAsync(() => mlDsa65.signAsync(secretKey, msg))).toBe('ERR_KEY_FREED');
  });

  it('never serialises or prints secret bytes', () => {
    const seed = new Uint8Array(32).fill(0xab);
    const { secretKey } = mlDsa44.keygen(seed);
    expect(code(() => JSON.stringify({ k: secretKey }))).toBe('ERR_SECRET_SERIALIZATION');
    expect(code(() => secretKey.toJSON())).toBe('ERR_SECRET_SERIALIZATION');
    const shown = [inspect(secretKey, { showHidden: true, depth: 5 }), String(secretKey), `${secretKey}`];
    for (const t of shown) {
      expect(t).toContain('ML-DSA-44');
      expect(t).not.toMatch(/[0-9a-f]{16}/i);
    }
    expect(Object.keys(secretKey)).toEqual([]);
    expect(code(() => mlDsa65.sign(secretKey, msg))).toBe('ERR_KEY_ALGORITHM_MISMATCH');
  });

  it('SecretKey cannot be constructed from JS', async () => {
    const { SecretKey } = await import('../index.js');
    expect(
      () => new (SecretKey as unknown as new (...a: unknown[]) => unknown)(Symbol('x'), {}, 'ML-DSA-44'),
    ).toThrow(TypeError);
  });

  it('unknown algorithm / implementation', () => {
    expect(code(() => scheme('RSA' as never))).toBe('ERR_INVALID_ALGORITHM');
    expect(code(() => scheme('ML-DSA-65', { implementation: 'avx512' as never }))).toBe(
      'ERR_INVALID_ARGUMENT',
    );
  });
});

describe('concurrency', () => {
  it('64 concurrent signAsync with one key all verify (and match sync deterministic output)', async () => {
    const { publicKey, secretKey } = mlDsa65.keygen(randomBytes(32));
    const msgs = Array.from({ length: 64 }, (_, i) => randomBytes(i * 17));
    // All 64 signs are in flight at once; each verify waits only for its own signature.
    const oks = await Promise.all(
      msgs.map(async (m) => mlDsa65.verifyAsync(publicKey, m, await mlDsa65.signAsync(secretKey, m))),
    );
    expect(oks.every(Boolean)).toBe(true);
    const det = await Promise.all(
      msgs.map(async (m) => ({ m, d: await mlDsa65.signAsync(secretKey, m, { deterministic: true }) })),
    );
    for (const { m, d } of det) {
      expect(Buffer.from(d).equals(mlDsa65.sign(secretKey, m, { deterministic: true }))).toBe(true);
    }
  });

  it('free() while 64 signs are in flight is safe; in-flight signs still complete', async () => {
    const { publicKey, secretKey } = mlDsa87.keygen(randomBytes(32));
    const inflight = Array.from({ length: 64 }, () => mlDsa87.signAsync(secretKey, msg));
    secretKey.free();
    const sigs = await Promise.all(inflight);
    for (const sg of sigs) expect(mlDsa87.verify(publicKey, msg, sg)).toBe(true);
    expect(await codeAsync(() => mlDsa87.signAsync(secretKey, msg))).toBe('ERR_KEY_FREED');
  });

  it('mutating the message buffer after signAsync does not affect the result', async () => {
    const { publicKey, secretKey } = mlDsa44.keygen(randomBytes(32));
    const m = randomBytes(1024);
    const copy = Uint8Array.from(m);
    const p = mlDsa44.signAsync(secretKey, m);
    m.fill(0);
    expect(mlDsa44.verify(publicKey, copy, await p)).toBe(true);
  });
});
