// signAsync admission and batching (sign-queue.js): once every slot is busy, signatures wait
// and are signed together. Each must still come back to its own caller, over its own
// message, key and algorithm, with its own typed error.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { configureAsyncSigning, LiboqsError, mlDsa44, mlDsa65, mlDsa87, type Scheme } from '../index.js';

const defaults = configureAsyncSigning();
afterEach(() => {
  configureAsyncSigning({ slots: defaults.slots, maxBatch: defaults.maxBatch });
});

describe('signAsync batching', () => {
  it('a mixed flood (3 ML-DSA sets, 2 keys each) resolves every caller with its own signature', async () => {
    configureAsyncSigning({ slots: 1, maxBatch: 5 });
    const schemes: Scheme[] = [mlDsa44, mlDsa65, mlDsa87];
    const keys = schemes.flatMap((s) => [0, 1].map(() => ({ s, ...s.keygen(randomBytes(32)) })));
    const jobs = Array.from({ length: 60 }, (_, i) => {
      const k = keys[i % keys.length];
      if (!k) throw new Error('unreachable');
      const m = randomBytes(1 + i * 13);
      return { k, m, p: k.s.signAsync(k.secretKey, m) };
    });
    const load = configureAsyncSigning();
    expect(load.inFlight).toBe(1);
    expect(load.waiting).toBe(59); // proves the batched path is the one under test
    for (const { k, m, p } of jobs) {
      const sig = await p;
      expect(sig.buffer.byteLength).toBe(sig.length); // its own buffer, not a view of the batch
      expect(k.s.verify(k.publicKey, m, sig)).toBe(true);
      const other = keys.find((o) => o.s === k.s && o !== k);
      expect(other && k.s.verify(other.publicKey, m, sig)).toBe(false);
    }
    expect(configureAsyncSigning().waiting).toBe(0);
  });

  it('deterministic signatures from batches equal the sync ones, in order', async () => {
    configureAsyncSigning({ slots: 1, maxBatch: 3 });
    const { secretKey } = mlDsa65.keygen(randomBytes(32));
    const msgs = Array.from({ length: 20 }, (_, i) => randomBytes(i * 31));
    const sigs = await Promise.all(msgs.map((m) => mlDsa65.signAsync(secretKey, m, { deterministic: true })));
    sigs.forEach((sig, i) => {
      const m = msgs[i];
      if (!m) throw new Error('unreachable');
      expect(Buffer.from(sig).equals(mlDsa65.sign(secretKey, m, { deterministic: true }))).toBe(true);
    });
  });

  it('bad input inside a flood rejects only that call, with a typed error', async () => {
    configureAsyncSigning({ slots: 1, maxBatch: 4 });
    const { publicKey, secretKey } = mlDsa44.keygen(randomBytes(32));
    const m = randomBytes(64);
    const before = Array.from({ length: 6 }, () => mlDsa44.signAsync(secretKey, m));
    const bad = mlDsa44.signAsync(secretKey, m, { context: new Uint8Array(256) });
    const wrongKey = mlDsa65.signAsync(secretKey, m);
    const after = Array.from({ length: 6 }, () => mlDsa44.signAsync(secretKey, m));
    await expect(bad).rejects.toBeInstanceOf(LiboqsError);
    await expect(bad).rejects.toMatchObject({ code: 'ERR_CONTEXT_TOO_LONG' });
    await expect(wrongKey).rejects.toMatchObject({ code: 'ERR_KEY_ALGORITHM_MISMATCH' });
    for (const sig of await Promise.all([...before, ...after])) {
      expect(mlDsa44.verify(publicKey, m, sig)).toBe(true);
    }
  });

  it('inputs are copied when signAsync is called: later mutation and free() do not reach waiting jobs', async () => {
    configureAsyncSigning({ slots: 1, maxBatch: 8 });
    const { publicKey, secretKey } = mlDsa87.keygen(randomBytes(32));
    const msgs = Array.from({ length: 12 }, () => randomBytes(256));
    const copies = msgs.map((m) => Uint8Array.from(m));
    const pending = msgs.map((m) => mlDsa87.signAsync(secretKey, m));
    expect(configureAsyncSigning().waiting).toBe(11);
    for (const m of msgs) m.fill(0);
    secretKey.free();
    const sigs = await Promise.all(pending);
    sigs.forEach((sig, i) => {
      const c = copies[i];
      if (!c) throw new Error('unreachable');
      expect(mlDsa87.verify(publicKey, c, sig)).toBe(true);
    });
    await expect(mlDsa87.signAsync(secretKey, randomBytes(8))).rejects.toMatchObject({
      code: 'ERR_KEY_FREED',
    });
  });

  it('hedged signatures draw fresh randomness per job, alone and in batches', async () => {
    const { publicKey, secretKey } = mlDsa65.keygen(randomBytes(32));
    const m = randomBytes(32);
    const det = Buffer.from(mlDsa65.sign(secretKey, m, { deterministic: true }));
    const alone = [await mlDsa65.signAsync(secretKey, m), await mlDsa65.signAsync(secretKey, m)];
    configureAsyncSigning({ slots: 1, maxBatch: 8 });
    const batched = await Promise.all(Array.from({ length: 9 }, () => mlDsa65.signAsync(secretKey, m)));
    const all = [...alone, ...batched].map((s) => Buffer.from(s).toString('hex'));
    expect(new Set(all).size).toBe(all.length);
    expect(all).not.toContain(det.toString('hex'));
    for (const sig of [...alone, ...batched]) expect(mlDsa65.verify(publicKey, m, sig)).toBe(true);
  });

  it('maxBatch 1 and a larger slot count still sign everything', async () => {
    configureAsyncSigning({ slots: 3, maxBatch: 1 });
    const { publicKey, secretKey } = mlDsa44.keygen(randomBytes(32));
    const m = randomBytes(100);
    const sigs = await Promise.all(Array.from({ length: 16 }, () => mlDsa44.signAsync(secretKey, m)));
    for (const sig of sigs) expect(mlDsa44.verify(publicKey, m, sig)).toBe(true);
  });

  it('raising the slot count starts waiting batches at once', async () => {
    configureAsyncSigning({ slots: 1, maxBatch: 2 });
    const { secretKey } = mlDsa44.keygen(randomBytes(32));
    const pending = Array.from({ length: 9 }, () => mlDsa44.signAsync(secretKey, randomBytes(10)));
    expect(configureAsyncSigning().waiting).toBe(8);
    const after = configureAsyncSigning({ slots: 5 });
    expect(after.inFlight).toBe(5); // the single job + 4 batches of 2
    expect(after.waiting).toBe(0);
    await Promise.all(pending);
  });

  it('reads no settings from the environment: the application configures the queue', () => {
    const run = (env: Record<string, string>) =>
      spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const m = await import(${JSON.stringify(new URL('../index.js', import.meta.url).href)}); console.log(JSON.stringify(m.configureAsyncSigning()));`,
        ],
        { env: { ...process.env, ...env }, encoding: 'utf8' },
      );
    // The variables the IdP maps onto @pqid/jose's configure({ nativeSigning }), and a typo.
    const plain = run({});
    expect(plain.status, plain.stderr).toBe(0);
    const envs: Record<string, string>[] = [
      { PQID_SIGN_SLOTS: '3', PQID_SIGN_BATCH: '5' },
      { PQID_SIGN_BATCH: 'eight' },
    ];
    for (const env of envs) {
      const r = run(env);
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(JSON.parse(plain.stdout));
    }
    expect(JSON.parse(plain.stdout)).toMatchObject({ maxBatch: 8 });
  });

  it('rejects nonsense settings', () => {
    expect(() => configureAsyncSigning({ slots: 0 })).toThrow(RangeError);
    expect(() => configureAsyncSigning({ maxBatch: 1.5 })).toThrow(RangeError);
    expect(configureAsyncSigning()).toMatchObject({ slots: defaults.slots, maxBatch: defaults.maxBatch });
  });
});
