/** The body of load/sign-handoff.mjs (its header says what it does), loaded once pqid is built. */
import { generateKeyPairSync, sign, webcrypto } from 'node:crypto';
import os from 'node:os';
import { mldsa } from '@pqid/jose';
import { positive, startScript } from '../args.mjs';
import { cpuFlags } from '../machine.mjs';

const { ms, inFlight } = await startScript({
  script: 'sign-handoff.mjs',
  usage: 'usage: node load/sign-handoff.mjs [--ms 1500] [--in-flight 8]',
  options: { ms: { type: 'string' }, 'in-flight': { type: 'string' } },
  read: (values) => ({
    ms: positive(values.ms, 'ms') ?? 1500,
    inFlight: positive(values['in-flight'], 'in-flight') ?? 8,
  }),
});

// About the size of an access token's signing input (header.payload, base64url).
const message = Buffer.alloc(420, 0x61);

const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
const ecdsa = { name: 'ECDSA', hash: 'SHA-256' };
const { privateKey: webKey } = await webcrypto.subtle.generateKey(
  { name: 'ECDSA', namedCurve: 'P-256' },
  false,
  ['sign'],
);
const prepared = mldsa.prepareKey('ML-DSA-65', webcrypto.getRandomValues(new Uint8Array(32)));

const cases = {
  ES256: {
    sync: () => sign('sha256', message, { key: ec, dsaEncoding: 'ieee-p1363' }),
    pool: () => webcrypto.subtle.sign(ecdsa, webKey, message),
  },
  'ML-DSA-65': {
    sync: () => mldsa.signSync('ML-DSA-65', prepared, message),
    pool: () => mldsa.sign('ML-DSA-65', prepared, message),
  },
};

/**
 * Process and event-loop CPU µs per signature over `ms` of wall time, `batch` signatures at once.
 * @param {() => unknown} fn
 * @param {number} batch
 */
async function measure(fn, batch) {
  for (let i = 0; i < 200; i++) await Promise.all(Array.from({ length: batch }, fn)); // warm-up
  const cpu0 = process.cpuUsage();
  const main0 = process.threadCpuUsage();
  const end = performance.now() + ms;
  let n = 0;
  while (performance.now() < end) {
    await Promise.all(Array.from({ length: batch }, fn));
    n += batch;
  }
  const cpu = process.cpuUsage(cpu0);
  const main = process.threadCpuUsage(main0);
  return { process: (cpu.user + cpu.system) / n, main: (main.user + main.system) / n };
}

process.stdout.write(
  `${os.cpus().length} × ${os.cpus()[0]?.model} (${cpuFlags()}), Node ${process.version}, ML-DSA backend ${mldsa.preferredBackend()}; ${ms} ms per row\n\n`,
);
process.stdout.write('| alg | how | process CPU µs/sig | event-loop CPU µs/sig |\n|---|---|---:|---:|\n');
for (const [alg, c] of Object.entries(cases)) {
  /** @type {[string, () => unknown, number][]} */
  const ways = [
    ['on the event loop (sync)', c.sync, 1],
    ['pool, one at a time', c.pool, 1],
    [`pool, ${inFlight} in flight`, c.pool, inFlight],
  ];
  for (const [how, fn, batch] of ways) {
    const r = await measure(fn, batch);
    process.stdout.write(`| ${alg} | ${how} | ${r.process.toFixed(1)} | ${r.main.toFixed(1)} |\n`);
  }
}
