/** The body of load/client-check.mjs (its header says what it does), loaded once pqid is built. */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { positive, startScript } from '../args.mjs';
import { cpuFlags } from '../machine.mjs';
import { REPO_DIR } from '../paths.mjs';

const N = await startScript({
  script: 'client-check.mjs',
  usage: 'usage: node load/client-check.mjs [--n 20000]',
  options: { n: { type: 'string' } },
  read: (values) => positive(values.n, 'n') ?? 20000,
});
// After the check: the IdP's storage needs node:sqlite.
const { Clients } = await import(join(REPO_DIR, 'idp/dist/clients/clients.js'));
const { SqliteStorage } = await import(join(REPO_DIR, 'idp/dist/storage/sqlite.js'));

const dir = mkdtempSync(join(tmpdir(), 'pqid-client-check-'));
const storage = new SqliteStorage(join(dir, 'pqid.db'));
const clients = new Clients(storage.adapter('Client'), 'ML-DSA-65', { cacheTtl: 60 });
const { client } = await clients.register({
  client_id: 'svc',
  client_secret: 'bench-secret-bench-secret',
  grant_types: ['client_credentials'],
  redirect_uris: [],
});
const tokens = storage.adapter('AccessToken');
const digest = () => createHash('sha256').update(randomBytes(32)).digest('base64url');
const ids = Array.from({ length: N }, digest);
const iat = Math.floor(Date.now() / 1000);
for (const id of ids)
  await tokens.upsert(id, { clientId: 'svc', scope: 'api', iat, exp: iat + 3600, format: 'reference' }, 3600);

/** @type {Record<string, (i: number) => Promise<unknown>>} */
const CASES = {
  'access-token record lookup': (i) => tokens.find(ids[i % N]),
  'client from the cache (find)': () => clients.find('svc'),
  'client from storage (holderOf)': () => clients.holderOf('svc', iat),
};

/** @param {string} name */
async function measure(name) {
  const op = CASES[name];
  if (!op) throw new Error(`no case ${name}`);
  for (let i = 0; i < 1000; i++) await op(i);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await op(i);
  const wall = ((performance.now() - t0) * 1000) / N;
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / N, wall };
}

console.log(
  `CPU: ${os.cpus()[0]?.model ?? '?'} (${cpuFlags()}); ${N} calls per case; ${os.cpus().length} cores`,
);
if ((await clients.holderOf('svc', iat))?.client_id !== client.client_id) throw new Error('holderOf misses');
const names = Object.keys(CASES);
/** @type {Map<string, Array<{ cpu: number, wall: number }>>} */
const results = new Map(names.map((n) => [n, []]));
for (const name of [...names, ...[...names].reverse()]) results.get(name)?.push(await measure(name));
const fmt = (/** @type {number} */ x) => x.toFixed(2).padStart(7);
console.log('| case | CPU µs/call (A, B) | wall µs/call (A, B) |');
console.log('| --- | ---: | ---: |');
for (const [name, runs] of results)
  console.log(
    `| ${name} | ${runs.map((r) => fmt(r.cpu)).join(', ')} | ${runs.map((r) => fmt(r.wall)).join(', ')} |`,
  );
await storage.close();
rmSync(dir, { recursive: true, force: true });
