/** The body of load/composite-handles.mjs (its header says what it does), loaded once pqid is built. */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { join } from 'node:path';
import {
  algorithms,
  createDelegatedKey,
  generateKeyPair,
  getAlgorithm,
  importJWK,
  localSigner,
  mldsa,
  signJwt,
} from '@pqid/jose';
import { list, positive, startScript, UsageError } from '../args.mjs';
import { cpuFlags } from '../machine.mjs';
import { REPO_DIR } from '../paths.mjs';
import { importPrivateJwk } from '../samples.mjs';

const COMPOSITES = algorithms().filter((a) => getAlgorithm(a).family === 'composite');
const { budgetMs, algs } = await startScript({
  script: 'composite-handles.mjs',
  usage: 'usage: node load/composite-handles.mjs [--ms 1500] [--algs ML-DSA-65-ES256,…]',
  options: { ms: { type: 'string' }, algs: { type: 'string' } },
  read: (values) => {
    const algs = list(values.algs) ?? COMPOSITES;
    const unknown = algs.filter((a) => !COMPOSITES.includes(a));
    if (unknown.length)
      throw new UsageError(`not a composite: ${unknown.join(', ')}; choose from ${COMPOSITES.join(', ')}`);
    return { budgetMs: positive(values.ms, 'ms') ?? 1500, algs };
  },
});
// After the check: the IdP's key store needs node:sqlite.
const { KeyManager } = await import(join(REPO_DIR, 'idp/dist/keys/key-manager.js'));
const { SqliteStorage } = await import(join(REPO_DIR, 'idp/dist/storage/sqlite.js'));
const IN_FLIGHT = 16;

/** @param {NodeJS.CpuUsage} u */
const us = (u) => u.user + u.system;

/**
 * Process and event-loop CPU µs per JWT signed with `key`, IN_FLIGHT at a time for `budgetMs`.
 * @param {import('@pqid/jose').PrivateKey} key
 */
async function cpuPerToken(key) {
  const claims = { iss: 'https://idp.example', sub: 'client', aud: 'api', scope: 'api' };
  const op = () => signJwt(claims, key, { expiresIn: 300 });
  for (let i = 0; i < 32; i++) await op();
  let done = 0;
  const end = performance.now() + budgetMs;
  const p0 = process.cpuUsage();
  const m0 = process.threadCpuUsage();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (performance.now() < end) {
        done++;
        await op();
      }
    }),
  );
  return { cpu: us(process.cpuUsage(p0)) / done, main: us(process.threadCpuUsage(m0)) / done, done };
}

console.log(
  `# CPU per composite JWT: ${os.cpus()[0]?.model ?? 'unknown'} (${cpuFlags()}), ${os.cpus().length} cores, load ${os.loadavg()[0]?.toFixed(2)}, Node ${process.versions.node}, backend ${mldsa.preferredBackend()}`,
);
console.log(`# ${budgetMs} ms per row, ${IN_FLIGHT} in flight; µs per token (process = event loop + pool)\n`);
console.log(
  '| alg | key manager: process / main | two delegated halves: process / main | plain key: process / main | main-thread saved | its pure ML-DSA (plain): process / main | composite ÷ pure, process CPU |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|');
/** @type {Map<string, { cpu: number, main: number, done: number }>} */
const pure = new Map();

const storage = new SqliteStorage(':memory:');
const km = new KeyManager(storage.adapter('SigningKey'), { key: randomBytes(32), source: 'env' });
/** @param {{ cpu: number, main: number } | undefined} r */
const f = (r) => (r ? `${r.cpu.toFixed(0)} / ${r.main.toFixed(0)}` : '–');
for (const alg of algs) {
  const managed = await km.signingKey(alg);
  const { privateJwk } = await generateKeyPair(alg);
  const plain = /** @type {import('@pqid/jose').PrivateKey} */ (await importJWK(privateJwk, { alg }));
  const { mldsa: m, traditional: t } = /** @type {import('@pqid/jose').CompositeSigners} */ (
    localSigner(plain)
  );
  // Copies of the local signers: the delegated path, half by half, as before the fix.
  const halves = await createDelegatedKey({ mldsa: { ...m }, traditional: { ...t } }, { alg, verify: false });
  const a = await cpuPerToken(managed);
  const b = await cpuPerToken(halves);
  const c = await cpuPerToken(plain);
  // The composite's own ML-DSA level alone: what the traditional half adds on top of it.
  const level = alg.slice(0, 9);
  if (!pure.has(level)) {
    const k = await generateKeyPair(level);
    pure.set(level, await cpuPerToken(await importPrivateJwk(k.privateJwk)));
  }
  const p = pure.get(level);
  console.log(
    `| ${alg} | ${f(a)} | ${f(b)} | ${f(c)} | ${(b.main - a.main).toFixed(0)} µs | ${level}: ${f(p)} | ${p ? (a.cpu / p.cpu).toFixed(2) : '–'} |`,
  );
}
await storage.close();
