#!/usr/bin/env node
/**
 * pqid fault and soak script: `npm run faults -- [--long] | --soak [--minutes 10]`.
 *
 * Starts its own throw-away PostgreSQL cluster (scripts/pg-test.sh on its own port and
 * directory, so restarting it never disturbs the cluster other tests use), two IdP instances
 * (child processes of idp/dist/main.js on one database, one KEK, one issuer) behind a
 * round-robin balancer (load/lib/balancer.mjs), and drives token traffic with k6
 * (load/scenarios/soak.js: refresh_token rotations on per-VU chains plus client_credentials).
 *
 * Faults, one k6 run each, each with a verdict:
 *   kill     SIGKILL one instance mid-load, restart it later
 *   pg       stop PostgreSQL under load, keep it down a few seconds, start it again
 *   sigterm  SIGTERM one instance mid-load: it drains and exits 0; restart it later
 * After every run the database is checked against what k6 saw (the grant invariant, below),
 * and every surviving refresh token is redeemed once (200) and then again (400).
 *
 * Soak: measure capacity (a short ramp, or --capacity), then --minutes at 70% of it, sampling
 * each instance's RSS from /proc and k6's p99 per 30 s window; plots with load/lib/report.mjs.
 *
 * Writes load/reports/<timestamp>-faults/ (or -soak/): results.json, report.md, *.svg, logs.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { backends, preferredBackend } from '@pqid/jose';
import pg from 'pg';
import { list, parseCommandLine, positive } from './lib/args.mjs';
import { startBalancer } from './lib/balancer.mjs';
import { loginFlow } from './lib/flow.mjs';
import { findK6, freePort } from './lib/proc.mjs';
import { svg } from './lib/report.mjs';

const loadDir = dirname(fileURLToPath(import.meta.url));
const repoDir = dirname(loadDir);
const nodeBin = process.execPath;
const MAIN = join(repoDir, 'idp', 'dist', 'main.js');
const PG_SCRIPT = join(repoDir, 'scripts', 'pg-test.sh');

const USAGE = `usage: npm run faults -- [--long] [options]      fault cases (short: CI, ~90 s; --long: minutes)
       npm run faults -- --soak [--minutes 10] [options]
  --only kill,pg,sigterm  run only these fault cases
  --rate N                offered token requests/s during the fault runs (default: short 80, long 120)
  --vus N                 k6 virtual users = refresh chains in use (default 12)
  --alg ALG               signing algorithm of the test clients (default ML-DSA-65)
  --minutes M             soak length (default 10)
  --capacity N            skip the capacity ramp, take N requests/s as capacity (soak)
  --load F                soak at this fraction of capacity (default 0.7)
  --pg-port P             port of the script's own PostgreSQL cluster (default: a free port)
  --out DIR               report directory (default load/reports/<timestamp>-faults|-soak)`;

export function parseArgs(argv) {
  const str = { type: 'string' };
  const { values: v } = parseCommandLine(
    argv,
    {
      long: { type: 'boolean' },
      soak: { type: 'boolean' },
      only: str,
      rate: str,
      vus: str,
      alg: str,
      minutes: str,
      capacity: str,
      load: str,
      'pg-port': str,
      out: str,
      help: { type: 'boolean', short: 'h' },
    },
    USAGE,
  );
  const o = {
    long: v.long === true,
    soak: v.soak === true,
    minutes: positive(v.minutes, 'minutes') ?? 10,
    load: positive(v.load, 'load') ?? 0.7,
    alg: v.alg ?? 'ML-DSA-65',
    help: v.help === true,
  };
  const cases = ['kill', 'pg', 'sigterm'];
  const only = list(v.only);
  o.cases = only ? cases.filter((c) => only.includes(c)) : cases;
  o.rate = positive(v.rate, 'rate') ?? (o.long ? 120 : 80);
  o.vus = Math.round(positive(v.vus, 'vus') ?? 12);
  const capacity = positive(v.capacity, 'capacity');
  if (capacity !== undefined) o.capacity = capacity;
  const pgPort = positive(v['pg-port'], 'pg-port');
  if (pgPort !== undefined) o.pgPort = Math.round(pgPort);
  if (v.out !== undefined) o.out = v.out;
  return o;
}

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const f = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '–');
const quantile = (sorted, q) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : Number.NaN;
const say = (m) => process.stdout.write(`${m}\n`);

/** VmRSS of a process in MiB, or undefined when it is gone. */
function rssMiB(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

// ---- PostgreSQL (the script's own cluster) ----------------------------------------------------

function pgEnv(opts) {
  return {
    ...process.env,
    PQID_PG_PORT: String(opts.pgPort),
    PQID_PG_DIR: join(tmpdir(), `pqid-pg-faults-${opts.pgPort}`),
    PQID_PG_DB: 'pqid_faults',
  };
}
const pgCtl = (opts, cmd) =>
  execFileSync('bash', [PG_SCRIPT, cmd], {
    env: pgEnv(opts),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();

// ---- IdP instances ------------------------------------------------------------------------------

class Instance {
  constructor(name, port, env, logDir) {
    this.name = name;
    this.port = port;
    this.env = env;
    this.logDir = logDir;
    this.starts = 0;
  }
  /** Start main.js and wait until /healthz answers 200 (bounded). */
  async start() {
    this.starts++;
    const out = createWriteStream(join(this.logDir, `idp-${this.name}.log`), { flags: 'a' });
    out.write(`\n--- start ${this.starts} at ${new Date().toISOString()}\n`);
    const child = spawn(nodeBin, [MAIN], {
      env: { ...this.env, PQID_PORT: String(this.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    this.child = child;
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal, at: Date.now() };
        resolve(this.exitInfo);
      }),
    );
    const t0 = Date.now();
    while (Date.now() - t0 < 60_000) {
      if (child.exitCode !== null)
        throw new Error(`instance ${this.name} exited with ${child.exitCode} at start`);
      try {
        const r = await fetch(`http://127.0.0.1:${this.port}/healthz`, { signal: AbortSignal.timeout(2000) });
        if (r.status === 200) {
          this.health = await r.json();
          return Date.now() - t0;
        }
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    throw new Error(`instance ${this.name} not healthy after 60 s`);
  }
  get pid() {
    return this.child?.pid;
  }
  alive() {
    return this.child && this.child.exitCode === null && this.child.signalCode === null;
  }
  async stop() {
    if (!this.alive()) return;
    this.child.kill('SIGTERM');
    const t = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(t);
  }
}

// ---- k6 -----------------------------------------------------------------------------------------

function runK6(k6, configPath, consoleFile, logStream) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      k6,
      [
        'run',
        '--quiet',
        '--no-usage-report',
        '--log-format',
        'raw',
        '--console-output',
        consoleFile,
        '-e',
        `LOAD_CONFIG=${configPath}`,
        join(loadDir, 'scenarios', 'soak.js'),
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, K6_NO_USAGE_REPORT: 'true', K6_NO_COLOR: 'true' },
      },
    );
    let output = '';
    const collect = (d) => {
      output += d;
      logStream.write(d);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Parse soak.js's per-request lines. */
function parseLines(file) {
  const rows = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const p = line.trim().split(' ');
    if (p.length !== 9 || !/^\d+$/.test(p[0])) continue;
    rows.push({
      t: Number(p[0]),
      vu: Number(p[1]),
      grant: p[2],
      status: Number(p[3]),
      ms: Number(p[4]),
      wall: Number(p[5]),
      old: p[6] === '-' ? undefined : p[6],
      fresh: p[7] === '-' ? undefined : p[7],
      error: p[8] === '-' ? undefined : p[8],
    });
  }
  return rows.sort((a, b) => a.t - b.t);
}

// ---- the grant invariant --------------------------------------------------------------------------

/**
 * What k6 saw must match the database exactly:
 *  1. no double spend: no refresh token was rotated successfully (200) twice;
 *  2. k6's chains are consistent: every successful rotation presented the previous link (or a
 *     chain's initial token);
 *  3. for every chain whose grant is alive, the database holds exactly the refresh tokens k6
 *     saw issued for that grant (no token lost, none extra), every link but the last consumed
 *     and the last one not;
 *  4. a chain whose grant was revoked (k6 got invalid_grant) is explained: the token it
 *     presented had an earlier request that failed without a definite answer (502 lost in
 *     flight, 503, transport error), so the server may have rotated it without the client
 *     learning the new token; and the grant is gone entirely (no live refresh token left,
 *     tombstone present). A revocation without such a cause would be a lost grant.
 *  5. usable once: every chain head is redeemed once (200), and a second time (400 invalid_grant).
 */
async function checkGrants({ pool, schema, chains, rows, balancerUrl, rpClientId, grantOf }) {
  const problems = [];
  const ok = rows.filter((r) => r.grant === 'r' && r.status === 200 && r.fresh);
  const seenOld = new Map();
  for (const r of ok) {
    if (seenOld.has(r.old)) problems.push(`refresh token ${r.old.slice(0, 8)}… rotated successfully twice`);
    seenOld.set(r.old, r.fresh);
  }
  const uncertain = new Set(
    rows.filter((r) => r.grant === 'r' && r.old && (r.status === 0 || r.status >= 500)).map((r) => r.old),
  );
  const invalid = rows.filter((r) => r.grant === 'r' && r.status === 400 && r.error === 'invalid_grant');
  const q = (sql, params) => pool.query(sql.replaceAll('%T', `"${schema}"`), params);
  const summary = {
    chains: 0,
    used: 0,
    alive: 0,
    revoked: 0,
    revokedExplained: 0,
    tokensSeen: 0,
    rowsChecked: 0,
  };
  const heads = [];
  for (const chain of chains.flat()) {
    summary.chains++;
    const links = [chain.id];
    while (seenOld.has(links[links.length - 1])) links.push(seenOld.get(links[links.length - 1]));
    if (links.length > 1 || rows.some((r) => r.old === chain.id)) summary.used++;
    summary.tokensSeen += links.length;
    const linkSet = new Set(links);
    const revokedAt = invalid.find((r) => linkSet.has(r.old));
    const grantId = grantOf.get(chain.id);
    const { rows: dbRows } = await q(
      `SELECT id, consumed_at IS NOT NULL AS consumed FROM %T.records WHERE model = 'RefreshToken' AND grant_id = $1`,
      [grantId],
    );
    summary.rowsChecked += dbRows.length;
    if (revokedAt) {
      summary.revoked++;
      const explained = uncertain.has(revokedAt.old) && revokedAt.old === links[links.length - 1];
      if (explained) summary.revokedExplained++;
      else
        problems.push(`grant of chain ${chain.id.slice(0, 8)}… revoked without a failed request before it`);
      if (dbRows.length)
        problems.push(`revoked grant ${grantId.slice(0, 8)}… still has ${dbRows.length} refresh tokens`);
      const { rows: tomb } = await q(`SELECT 1 FROM %T.revoked_grants WHERE grant_id = $1`, [grantId]);
      if (!tomb.length) problems.push(`revoked grant ${grantId.slice(0, 8)}… has no tombstone`);
      continue;
    }
    summary.alive++;
    const db = new Map(dbRows.map((r) => [r.id, r.consumed]));
    for (const [i, id] of links.entries()) {
      if (!db.has(id))
        problems.push(`issued refresh token ${id.slice(0, 8)}… (link ${i}) not in the database`);
      else if (db.get(id) !== i < links.length - 1)
        problems.push(
          `refresh token ${id.slice(0, 8)}… (link ${i} of ${links.length}) consumed=${db.get(id)}`,
        );
    }
    for (const id of db.keys())
      if (!linkSet.has(id)) problems.push(`grant ${grantId.slice(0, 8)}… has a refresh token k6 never saw`);
    heads.push({ chain, head: links[links.length - 1], isInitial: links.length === 1 });
  }
  // 5. usable once, through the balancer: the current token of every live chain.
  let usable = 0;
  let secondRejected = 0;
  const tokenOf = new Map(chains.flat().map((c) => [c.id, c.token]));
  for (const h of heads) {
    // Only the initial tokens are known in clear to the runner; later links live in k6 only
    // (it logs digests). Redeem the initial token of unused chains; for used chains the DB
    // state above already proves the head is live and unconsumed.
    if (!h.isInitial) continue;
    const body = (t) =>
      new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: rpClientId,
        refresh_token: t,
      }).toString();
    const post = (t) =>
      fetch(`${balancerUrl}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: body(t),
        signal: AbortSignal.timeout(10_000),
      });
    const t = tokenOf.get(h.head);
    const r1 = await post(t);
    if (r1.status === 200) usable++;
    else problems.push(`unused chain head ${h.head.slice(0, 8)}… not usable: ${r1.status}`);
    await r1.arrayBuffer();
    const r2 = await post(t);
    const b2 = await r2.json().catch(() => ({}));
    if (r2.status === 400 && b2.error === 'invalid_grant') secondRejected++;
    else problems.push(`second use of ${h.head.slice(0, 8)}… answered ${r2.status}`);
  }
  return { ...summary, usableOnce: usable, secondUseRejected: secondRejected, problems };
}

// ---- analysis helpers -----------------------------------------------------------------------------

function perSecond(rows, t0, t1) {
  const n = Math.ceil((t1 - t0) / 1000);
  const out = Array.from({ length: n }, (_, i) => ({ s: i, ok: 0, failed: 0 }));
  for (const r of rows) {
    const i = Math.floor((r.t - t0) / 1000);
    if (i < 0 || i >= n) continue;
    if (r.status === 200) out[i].ok++;
    else out[i].failed++;
  }
  return out;
}

const failures = (rows) => rows.filter((r) => r.status !== 200);
const statusCounts = (rows) => {
  const m = {};
  for (const r of rows) {
    const k = `${r.status}${r.error ? ` ${r.error}` : ''}`;
    m[k] = (m[k] ?? 0) + 1;
  }
  return m;
};

// ---- main -----------------------------------------------------------------------------------------

export async function main(argv) {
  const opts = parseArgs(argv);
  if (opts.help) {
    say(USAGE);
    return 0;
  }
  const k6 = findK6(loadDir);
  if (!k6) {
    process.stderr.write('k6 not found: run `bash load/scripts/install-k6.sh`\n');
    return 3;
  }
  const mode = opts.soak ? 'soak' : opts.long ? 'long' : 'short';
  const outDir = opts.out ?? join(loadDir, 'reports', `${stamp()}-${opts.soak ? 'soak' : 'faults'}`);
  mkdirSync(outDir, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'pqid-faults-'));
  const k6log = createWriteStream(join(outDir, 'k6.log'));
  const started = Date.now();
  const results = {
    meta: {
      mode,
      started: new Date().toISOString(),
      options: { ...opts, help: undefined },
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model,
        memoryGiB: Math.round(os.totalmem() / 2 ** 30),
        loadavgAtStart: os.loadavg(),
        node: process.version,
      },
      k6: relative(repoDir, k6),
      runnerMldsaBackend: preferredBackend(),
      nativeAvailable: backends().find((b) => b.name === 'native')?.available,
    },
    cases: [],
  };
  say(`pqid faults: ${mode} mode, report in ${relative(process.cwd(), outDir)}`);

  const instances = [];
  let balancer;
  let pool;
  let pgStarted = false;
  const rss = [];
  let rssTimer;
  const cleanup = async () => {
    clearInterval(rssTimer);
    for (const i of instances) await i.stop().catch(() => {});
    await balancer?.close().catch(() => {});
    await pool?.end().catch(() => {});
    if (pgStarted) {
      try {
        pgCtl(opts, 'destroy');
      } catch {
        // best effort
      }
    }
    rmSync(work, { recursive: true, force: true });
  };
  const onSignal = () => {
    cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    // -- PostgreSQL, own cluster, fresh schema
    const t0 = Date.now();
    opts.pgPort ??= await freePort();
    pgStarted = true; // our own directory: destroyed at the end even if start fails half-way
    const baseUrl = pgCtl(opts, 'start');
    const schema = `faults_${randomBytes(4).toString('hex')}`;
    // Fail fast when the database is unreachable: 2 s to connect or to get a pooled connection.
    const databaseUrl = `${baseUrl}?schema=${schema}&connect_timeout_ms=2000&statement_timeout_ms=5000`;
    pool = new pg.Pool({ connectionString: baseUrl, max: 2 });
    pool.on('error', () => {});
    say(`PostgreSQL on 127.0.0.1:${opts.pgPort} (own cluster), schema ${schema} (${Date.now() - t0} ms)`);

    // -- balancer first: its URL is the issuer of both instances
    const ports = [await freePort(), await freePort()];
    balancer = await startBalancer({
      upstreams: [
        { name: 'A', port: ports[0] },
        { name: 'B', port: ports[1] },
      ],
      healthIntervalMs: 250,
    });
    const issuer = balancer.url;
    const kek = randomBytes(32).toString('base64');

    // -- clients and users, registered once through the library on the shared database
    const { createIdp, loadConfig, registerClient } = await import('@pqid/idp');
    const setupDir = join(work, 'setup');
    mkdirSync(setupDir);
    const setupConfig = loadConfig({
      env: {},
      cwd: setupDir,
      overrides: { issuer, dataDir: setupDir, databaseUrl, logLevel: 'silent', demo: { enabled: false } },
    });
    const setup = await createIdp(setupConfig, { env: { PQID_KEK: kek }, warn: () => {} });
    const common = {
      id_token_signed_response_alg: opts.alg,
      access_token_format: 'jwt',
      access_token_signed_response_alg: opts.alg,
    };
    const { clientSecret } = await registerClient(setup.ctx, {
      ...common,
      client_id: 'faults-cc',
      token_endpoint_auth_method: 'client_secret_basic',
      redirect_uris: [],
      grant_types: ['client_credentials'],
      scope: 'api',
    });
    const REDIRECT_URI = 'http://127.0.0.1:9/cb';
    await registerClient(setup.ctx, {
      ...common,
      client_id: 'faults-rp',
      token_endpoint_auth_method: 'none',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      scope: 'openid profile email offline_access',
    });
    const password = randomBytes(12).toString('base64url');
    const users = [];
    for (let i = 0; i < 4; i++) {
      await setup.ctx.accounts.create({
        username: `faults-${i}`,
        password,
        name: `Faults ${i}`,
        email: `faults-${i}@example.com`,
        emailVerified: true,
      });
      users.push(`faults-${i}`);
    }
    await setup.close();

    // -- two instances
    const env = {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      PQID_HOST: '127.0.0.1',
      PQID_ISSUER: issuer,
      PQID_DATABASE_URL: databaseUrl,
      PQID_KEK: kek,
      PQID_DEMO: 'false',
      PQID_LOG_LEVEL: 'info',
    };
    for (const [i, name] of ['A', 'B'].entries()) {
      mkdirSync(join(work, name));
      instances.push(new Instance(name, ports[i], { ...env, PQID_DATA_DIR: join(work, name) }, outDir));
    }
    const startMs = await Promise.all(instances.map((i) => i.start()));
    const health = instances[0].health;
    results.meta.idp = {
      mldsaBackend: health.mldsaBackend,
      storage: health.storage,
      startMs,
    };
    say(
      `instances A :${ports[0]} (pid ${instances[0].pid}) and B :${ports[1]} (pid ${instances[1].pid}) ready in ${startMs.join(' / ')} ms, ML-DSA backend ${health.mldsaBackend}; balancer ${issuer}`,
    );

    // -- RSS sampler (every 2 s; soak windows average it)
    rssTimer = setInterval(() => {
      const t = Date.now();
      for (const i of instances) {
        const v = i.alive() ? rssMiB(i.pid) : undefined;
        if (v !== undefined) rss.push({ t, instance: i.name, rssMiB: v });
      }
    }, 2000);

    // -- chains of refresh tokens: one login each, `perVu` per VU
    const mint = async (vus, perVu) => {
      const tokens = [];
      const n = vus * perVu;
      for (let i = 0; i < n; i += 6) {
        const got = await Promise.all(
          Array.from({ length: Math.min(6, n - i) }, (_, j) =>
            loginFlow({
              issuer,
              clientId: 'faults-rp',
              redirectUri: REDIRECT_URI,
              username: users[(i + j) % users.length],
              password,
            }),
          ),
        );
        for (const t of got) tokens.push(t.refresh_token);
      }
      const { createHash } = await import('node:crypto');
      const chains = Array.from({ length: vus }, (_, v) =>
        tokens.slice(v * perVu, (v + 1) * perVu).map((token) => ({
          token,
          id: createHash('sha256').update(token).digest('base64url'),
        })),
      );
      const ids = chains.flat().map((c) => c.id);
      const { rows } = await pool.query(
        `SELECT id, grant_id FROM "${schema}".records WHERE model = 'RefreshToken' AND id = ANY($1)`,
        [ids],
      );
      const grantOf = new Map(rows.map((r) => [r.id, r.grant_id]));
      if (grantOf.size !== ids.length)
        throw new Error(`minted ${ids.length} refresh tokens, found ${grantOf.size}`);
      if (new Set(grantOf.values()).size !== ids.length) throw new Error('two logins share a grant');
      return { chains, grantOf };
    };

    /** One k6 run with fault actions scheduled at offsets (seconds) from its start. */
    const k6Run = async (name, { rate, duration, vus, phase = 'steady', ceiling, actions = [] }) => {
      const minted = await mint(vus, phase === 'steady' ? 2 : 1);
      const consoleFile = join(work, `${name}.lines`);
      const configPath = join(work, `${name}.config.json`);
      const summaryFile = join(work, `${name}.summary.json`);
      writeFileSync(
        configPath,
        JSON.stringify({
          tokenUrl: `${issuer}/token`,
          phase,
          rate,
          ceiling,
          duration,
          vus,
          ccShare: 0.05,
          ccClient: { id: 'faults-cc', secret: clientSecret },
          rpClientId: 'faults-rp',
          chains: minted.chains.map((c) => c.map((x) => x.token)),
          summaryFile,
        }),
      );
      const events = [];
      const mark = (what, extra = {}) => {
        const e = { what, t: Date.now(), ...extra };
        events.push(e);
        return e;
      };
      k6log.write(`\n=== ${name}\n`);
      const start = mark('k6 start');
      const run = runK6(k6, configPath, consoleFile, k6log);
      const acts = (async () => {
        for (const a of actions) {
          const wait = start.t + a.at * 1000 - Date.now();
          if (wait > 0) await sleep(wait);
          await a.run(mark);
        }
      })();
      const [{ code, output }] = await Promise.all([run, acts]);
      const end = mark('k6 end');
      if (code !== 0) throw new Error(`k6 ${name} failed with exit ${code}:\n${output.slice(-2000)}`);
      const rows = parseLines(consoleFile);
      const grants = await checkGrants({
        pool,
        schema,
        chains: minted.chains,
        rows,
        balancerUrl: issuer,
        rpClientId: 'faults-rp',
        grantOf: minted.grantOf,
      });
      return { rows, events, start: start.t, end: end.t, grants };
    };

    const served = () => Object.fromEntries(balancer.upstreams.map((u) => [u.name, u.served]));
    const statsSnapshot = () => ({ ...balancer.stats, served: served() });
    const [A, B] = instances;
    balancerRef = balancer;

    if (!opts.soak) {
      const D = opts.long ? 60 : 16;
      for (const name of opts.cases) {
        const before = statsSnapshot();
        let c;
        if (name === 'kill') c = await faultKill(k6Run, A, D, opts);
        else if (name === 'pg') c = await faultPg(k6Run, instances, D, opts);
        else c = await faultSigterm(k6Run, B, D, opts);
        c.balancer = { before, after: statsSnapshot() };
        results.cases.push(c);
        say(`${c.pass ? 'PASS' : 'FAIL'}  ${c.case}: ${c.observed}`);
        for (const p of c.problems) say(`      - ${p}`);
      }
    } else {
      results.soak = await soak(k6Run, instances, opts, rss, say);
      results.cases.push(results.soak.verdict);
      say(`${results.soak.verdict.pass ? 'PASS' : 'FAIL'}  soak: ${results.soak.verdict.observed}`);
      for (const p of results.soak.verdict.problems) say(`      - ${p}`);
    }

    results.meta.finished = new Date().toISOString();
    results.meta.elapsedSeconds = (Date.now() - started) / 1000;
    results.meta.loadavgAtEnd = os.loadavg();
    results.rss = rss;
    const files = await writeFaultReport(outDir, results);
    say(`\n${summaryTable(results.cases)}`);
    say(`report: ${relative(process.cwd(), files.md)} (${f(results.meta.elapsedSeconds, 0)} s)`);
    return results.cases.every((c) => c.pass) ? 0 : 1;
  } finally {
    k6log.end();
    await cleanup();
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}

// ---- the fault cases ------------------------------------------------------------------------------

let balancerRef;

/** (a) SIGKILL instance A at 30% of the run, restart it at 60%. */
async function faultKill(k6Run, A, D, opts) {
  let readyMs;
  const repeats = opts.long ? 2 : 1;
  const actions = [];
  for (let k = 0; k < repeats; k++) {
    const base = (k * D) / repeats;
    const span = D / repeats;
    actions.push(
      {
        at: base + span * 0.3,
        run: async (mark) => {
          const inflight = await balancerRef.busy('A');
          A.child.kill('SIGKILL');
          mark('SIGKILL A', { pid: A.pid, inflight });
          const { signal } = await A.exited;
          mark('A exited', { signal });
        },
      },
      {
        at: base + span * 0.6,
        run: async (mark) => {
          mark('restart A');
          readyMs = await A.start();
          mark('A ready', { pid: A.pid, readyMs });
        },
      },
    );
  }
  const r = await k6Run('kill', { rate: opts.rate, duration: D, vus: opts.vus, actions });
  const kills = r.events.filter((e) => e.what === 'SIGKILL A').map((e) => e.t);
  const exits = r.events.filter((e) => e.what === 'A exited').map((e) => e.t);
  const readies = r.events.filter((e) => e.what === 'A ready').map((e) => e.t);
  const fails = failures(r.rows);
  // Explained failures: lost in flight on the killed instance (502), and the invalid_grant that
  // follows on such a chain (the rotation had committed). In flight means overlapping the time
  // from the signal to the process's exit, not the signal alone: until the kernel has torn the
  // killed process down its listening socket still completes TCP handshakes, so the balancer
  // still connects to it, sends, and then sees the connection reset (20-90 ms on a loaded
  // 2-core machine, more than the 50 ms of slack the window once had). From the exit on, a
  // connection is refused and the balancer retries it on the other instance: no 502 then.
  const windows = kills.map((k, i) => [k, exits[i] ?? k]);
  const lostIdx = new Set();
  const explained = fails.filter((x) => {
    if (x.status === 502 && windows.some(([k, e]) => x.t <= e + 50 && x.t + x.wall >= k - 50)) {
      lostIdx.add(x.old);
      return true;
    }
    return x.status === 400 && x.error === 'invalid_grant' && lostIdx.has(x.old);
  });
  const unexplained = fails.filter((x) => !explained.includes(x));
  const lastKill = Math.max(...kills);
  const afterWindow = fails.filter((x) => x.t > lastKill + 1000 && !explained.includes(x));
  const sec = perSecond(r.rows, r.start, r.end);
  const zeroSeconds = sec.slice(1, -2).filter((s) => s.ok === 0).length;
  const problems = [...r.grants.problems];
  if (unexplained.length)
    problems.push(
      `${unexplained.length} failures not explained by the kill: ${JSON.stringify(statusCounts(unexplained))}`,
    );
  if (zeroSeconds) problems.push(`${zeroSeconds} seconds without a successful request`);
  if (explained.filter((x) => x.status === 502).length > opts.vus * kills.length)
    problems.push('more requests lost than could be in flight');
  if (exits.length !== kills.length) problems.push('instance A did not exit after SIGKILL');
  if (readies.length !== kills.length) problems.push('instance A did not come back');
  const aRows = r.rows.filter(
    (x) => readies.length && x.t > Math.max(...readies) + 1000 && x.status === 200,
  ).length;
  const lost = explained.filter((x) => x.status === 502).length;
  const revoked = explained.filter((x) => x.status === 400).length;
  return {
    case: 'kill',
    fault: 'one instance SIGKILLed mid-load (k6), restarted later',
    expected:
      'the other keeps serving; errors only for requests in flight on the killed one; no grant lost or duplicated',
    requests: r.rows.length,
    okRequests: r.rows.filter((x) => x.status === 200).length,
    failures: fails.length,
    failureKinds: statusCounts(fails),
    lostInFlight: lost,
    chainsRevokedAfterLostResponse: revoked,
    failuresAfterKillWindow: afterWindow.length,
    secondsWithoutSuccess: zeroSeconds,
    restartReadyMs: readyMs,
    restarts: readies.length,
    requestsAfterRestart: aRows,
    grants: r.grants,
    events: r.events.map((e) => ({ ...e, s: (e.t - r.start) / 1000 })),
    perSecond: sec,
    problems,
    pass: problems.length === 0,
    inflightAtKill: r.events.filter((e) => e.what === 'SIGKILL A').map((e) => e.inflight),
    exitAfterKillMs: windows.map(([k, e]) => e - k),
    observed: `${kills.length}× SIGKILL at ${opts.rate} req/s (in flight on it: ${r.events
      .filter((e) => e.what === 'SIGKILL A')
      .map((e) => e.inflight)
      .join(
        ', ',
      )}; exited ${windows.map(([k, e]) => e - k).join(', ')} ms after the signal): ${r.rows.length} requests, ${lost} lost in flight (502), ${revoked} grants revoked by the retry of a lost rotation, ${unexplained.length} other failures, 0 after the kill window: ${afterWindow.length === 0 ? 'yes' : 'no'}; never a second without successes: ${zeroSeconds === 0 ? 'yes' : 'no'}; restarted in ${readyMs} ms; grants: ${r.grants.alive} alive chains match the database row for row (${r.grants.rowsChecked} rows), ${r.grants.problems.length} problems`,
  };
}

/** (b) Stop PostgreSQL at 30% of the run, keep it down, start it again. */
async function faultPg(k6Run, instances, D, opts) {
  const outage = opts.long ? 10 : 3;
  const pids = instances.map((i) => i.pid);
  const probes = [];
  const actions = [
    {
      at: D * 0.3,
      run: async (mark) => {
        mark('pg stop');
        pgCtl(opts, 'stop');
        mark('pg down');
        // Probe each instance directly, too: time to an answer while the database is down.
        for (const inst of instances) {
          const t0 = Date.now();
          try {
            const res = await fetch(`http://127.0.0.1:${inst.port}/token`, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: 'grant_type=refresh_token&client_id=faults-rp&refresh_token=probe',
              signal: AbortSignal.timeout(30_000),
            });
            const body = await res.json().catch(() => ({}));
            probes.push({
              instance: inst.name,
              status: res.status,
              error: body.error,
              retryAfter: res.headers.get('retry-after'),
              ms: Date.now() - t0,
            });
          } catch (e) {
            probes.push({ instance: inst.name, status: 0, error: String(e), ms: Date.now() - t0 });
          }
        }
      },
    },
    {
      at: D * 0.3 + outage,
      run: async (mark) => {
        mark('pg start');
        pgCtl(opts, 'start');
        mark('pg up');
      },
    },
  ];
  const r = await k6Run('pg', { rate: opts.rate, duration: D, vus: opts.vus, actions });
  const ev = (w) => r.events.find((e) => e.what === w)?.t;
  const tStop = ev('pg stop');
  const tUp = ev('pg up');
  const fails = failures(r.rows);
  const during = r.rows.filter((x) => x.t + x.wall >= tStop && x.t <= tUp);
  const failedDuring = during.filter((x) => x.status !== 200);
  const is503 = (x) => x.status === 503 && x.error === 'temporarily_unavailable';
  const nonConforming = failedDuring.filter(
    (x) => !is503(x) && !(x.status === 400 && x.error === 'invalid_grant'),
  );
  const walls = failedDuring
    .filter(is503)
    .map((x) => x.wall)
    .sort((a, b) => a - b);
  const firstOkAfter = r.rows.find((x) => x.t >= tUp && x.status === 200);
  const lastFail = [...fails].reverse().find((x) => x.t >= tUp);
  const failsBefore = fails.filter((x) => x.t + x.wall < tStop);
  const failsAfter = fails.filter((x) => x.t > tUp + 2000);
  // A 503 means "not done"; the rotation of a refresh token is two statements (consume, then
  // write the new token), so a 503 between them leaves the token consumed: the client's retry
  // is then a reuse and revokes the grant. Counted, and checked to follow a 503 on that token.
  const uncertain = new Set(fails.filter((x) => x.status >= 500 || x.status === 0).map((x) => x.old));
  const revokedAfter503 = fails.filter(
    (x) => x.status === 400 && x.error === 'invalid_grant' && uncertain.has(x.old),
  );
  const problems = [...r.grants.problems];
  if (failsBefore.length) problems.push(`${failsBefore.length} failures before the outage`);
  if (nonConforming.length)
    problems.push(
      `failures during the outage that are not 503 temporarily_unavailable: ${JSON.stringify(statusCounts(nonConforming))}`,
    );
  const maxWall = walls.length ? walls[walls.length - 1] : Number.NaN;
  const probeMax = Math.max(...probes.map((p) => p.ms));
  if (!(maxWall <= 3000)) problems.push(`slowest 503 took ${maxWall} ms (limit 3000)`);
  if (probes.some((p) => p.status !== 503 || p.error !== 'temporarily_unavailable' || p.retryAfter === null))
    problems.push(`direct probes: ${JSON.stringify(probes)}`);
  if (!firstOkAfter) problems.push('no successful request after PostgreSQL came back');
  const failsAfterNon = failsAfter.filter((x) => !revokedAfter503.includes(x));
  if (failsAfterNon.length)
    problems.push(
      `${failsAfterNon.length} failures more than 2 s after PostgreSQL was back: ${JSON.stringify(statusCounts(failsAfterNon))}`,
    );
  if (instances.some((i, k) => i.pid !== pids[k] || !i.alive()))
    problems.push('an instance restarted or died');
  const recoverMs = firstOkAfter ? firstOkAfter.t + firstOkAfter.wall - tUp : Number.NaN;
  return {
    case: 'pg',
    fault: `PostgreSQL stopped under load (${outage} s outage, fast shutdown) and started again`,
    expected:
      'fast 503 + OAuth error body during the outage (≤ 3 s, never a hang), recovery without restarting the IdP',
    requests: r.rows.length,
    okRequests: r.rows.filter((x) => x.status === 200).length,
    failures: fails.length,
    failureKinds: statusCounts(fails),
    outageSeconds: (tUp - tStop) / 1000,
    failed503: walls.length,
    timeToFailMs: { p50: quantile(walls, 0.5), p99: quantile(walls, 0.99), max: maxWall },
    directProbes: probes,
    recoveryMs: recoverMs,
    lastFailureAfterUpMs: lastFail ? lastFail.t - tUp : null,
    chainsRevokedAfter503: revokedAfter503.length,
    idpRestarted: false,
    grants: r.grants,
    events: r.events.map((e) => ({ ...e, s: (e.t - r.start) / 1000 })),
    perSecond: perSecond(r.rows, r.start, r.end),
    problems,
    pass: problems.length === 0,
    observed: `${f((tUp - tStop) / 1000)} s outage at ${opts.rate} req/s: ${walls.length} requests answered 503 temporarily_unavailable, time-to-fail p50 ${f(quantile(walls, 0.5), 0)} ms / max ${f(maxWall, 0)} ms (direct probes ${probes.map((p) => `${p.status} in ${p.ms} ms`).join(', ')}), ${nonConforming.length} other failures; first 200 ${f(recoverMs, 0)} ms after PostgreSQL was up, same IdP processes; ${revokedAfter503.length} grants revoked by the retry of a rotation cut by the outage; grants: ${r.grants.problems.length} problems (max probe ${probeMax} ms)`,
  };
}

/** (c) SIGTERM instance B at 30% of the run; restart it after it exits. */
async function faultSigterm(k6Run, B, D, opts) {
  let exit;
  let drainMs;
  const pid0 = B.pid;
  const actions = [
    {
      at: D * 0.3,
      run: async (mark) => {
        const inflight = await balancerRef.busy('B');
        B.child.kill('SIGTERM');
        const t = mark('SIGTERM B', { pid: B.pid, inflight }).t;
        exit = await B.exited;
        drainMs = exit.at - t;
        mark('B exited', { code: exit.code, signal: exit.signal, drainMs });
      },
    },
    {
      at: D * 0.6,
      run: async (mark) => {
        mark('restart B');
        const readyMs = await B.start();
        mark('B ready', { pid: B.pid, readyMs });
      },
    },
  ];
  const r = await k6Run('sigterm', { rate: opts.rate, duration: D, vus: opts.vus, actions });
  const fails = failures(r.rows);
  const log = readFileSync(join(B.logDir, 'idp-B.log'), 'utf8');
  const problems = [...r.grants.problems];
  if (fails.length) problems.push(`${fails.length} failed requests: ${JSON.stringify(statusCounts(fails))}`);
  if (exit?.code !== 0) problems.push(`exit ${exit?.code} signal ${exit?.signal}`);
  if (!log.includes('draining in-flight requests')) problems.push('no drain line in the log');
  return {
    case: 'sigterm',
    fault: 'one instance SIGTERMed mid-load (k6), restarted after it exited',
    expected: 'it drains in-flight requests and exits 0; the balancer shifts traffic; zero failed requests',
    requests: r.rows.length,
    okRequests: r.rows.filter((x) => x.status === 200).length,
    failures: fails.length,
    failureKinds: statusCounts(fails),
    exitCode: exit?.code,
    exitSignal: exit?.signal,
    drainMs,
    pid: pid0,
    grants: r.grants,
    events: r.events.map((e) => ({ ...e, s: (e.t - r.start) / 1000 })),
    perSecond: perSecond(r.rows, r.start, r.end),
    problems,
    pass: problems.length === 0,
    inflightAtSignal: r.events.find((e) => e.what === 'SIGTERM B')?.inflight,
    observed: `SIGTERM at ${opts.rate} req/s with ${r.events.find((e) => e.what === 'SIGTERM B')?.inflight} requests in flight on it: exit code ${exit?.code} after ${drainMs} ms, ${fails.length} failed of ${r.rows.length} requests; grants: ${r.grants.problems.length} problems`,
  };
}

// ---- soak -------------------------------------------------------------------------------------------

async function soak(k6Run, instances, opts, rss, log) {
  let capacity = opts.capacity;
  let ramp;
  if (!capacity) {
    const duration = 30;
    const r = await k6Run('capacity', { phase: 'saturate', ceiling: 3000, duration, vus: 64 });
    const sec = perSecond(r.rows, r.start, r.end);
    // the plateau: the best 10 consecutive seconds after the ramp
    const oks = sec.map((s) => s.ok);
    let best = 0;
    for (let i = Math.round(duration * 0.3); i + 10 <= oks.length; i++)
      best = Math.max(best, oks.slice(i, i + 10).reduce((a, b) => a + b, 0) / 10);
    capacity = best;
    ramp = { duration, perSecond: sec, failures: failures(r.rows).length, grants: r.grants.problems };
    log(`capacity: ${f(capacity)} token requests/s across two instances (best 10 s of a ${duration} s ramp)`);
  }
  const rate = Math.max(1, Math.round(capacity * opts.load));
  const duration = Math.round(opts.minutes * 60);
  const rssFrom = rss.length;
  log(`soak: ${duration} s at ${rate} req/s (${Math.round(opts.load * 100)}% of ${f(capacity)})`);
  const vus = Math.max(opts.vus, Math.ceil(rate / 20));
  const r = await k6Run('soak', { rate, duration, vus, actions: [] });
  const W = 30_000;
  const windows = [];
  for (let w = r.start; w < r.end - 5000; w += W) {
    const rows = r.rows.filter((x) => x.t >= w && x.t < w + W);
    const ms = rows
      .filter((x) => x.status === 200)
      .map((x) => x.ms)
      .sort((a, b) => a - b);
    const rs = rss.slice(rssFrom).filter((s) => s.t >= w && s.t < w + W);
    const rssOf = (name) => {
      const v = rs.filter((s) => s.instance === name).map((s) => s.rssMiB);
      return v.length ? v.reduce((a, b) => a + b, 0) / v.length : Number.NaN;
    };
    windows.push({
      minute: (w - r.start) / 60_000,
      requests: rows.length,
      rate: rows.length / (W / 1000),
      errors: rows.filter((x) => x.status !== 200).length,
      p50: quantile(ms, 0.5),
      p99: quantile(ms, 0.99),
      max: ms[ms.length - 1],
      rssA: rssOf('A'),
      rssB: rssOf('B'),
    });
  }
  const fails = failures(r.rows);
  const full = windows.filter((w) => w.requests > 0);
  const third = Math.max(1, Math.floor(full.length / 3));
  const med = (a) =>
    quantile(
      [...a].sort((x, y) => x - y),
      0.5,
    );
  const early = full.slice(1, 1 + third); // skip the first window (JIT warm-up)
  const late = full.slice(-third);
  const p99Early = med(early.map((w) => w.p99));
  const p99Late = med(late.map((w) => w.p99));
  const rssGrowth = ['A', 'B'].map((n) => {
    const e = med(early.map((w) => w[`rss${n}`]));
    const l = med(late.map((w) => w[`rss${n}`]));
    return { instance: n, earlyMiB: e, lateMiB: l, growthMiB: l - e, growthPct: ((l - e) / e) * 100 };
  });
  const problems = [...r.grants.problems];
  if (fails.length) problems.push(`${fails.length} failed requests: ${JSON.stringify(statusCounts(fails))}`);
  if (p99Late > p99Early * 2) problems.push(`p99 rose from ${f(p99Early)} to ${f(p99Late)} ms`);
  for (const g of rssGrowth)
    if (g.growthMiB > 64 && g.growthPct > 25)
      problems.push(`RSS of ${g.instance} grew ${f(g.growthMiB)} MiB`);
  const all = r.rows
    .filter((x) => x.status === 200)
    .map((x) => x.ms)
    .sort((a, b) => a - b);
  const verdict = {
    case: 'soak',
    fault: `soak: ${f(duration / 60, 0)} min at ${Math.round(opts.load * 100)}% of measured capacity across two instances`,
    expected: 'zero errors; RSS and p99 stable',
    pass: problems.length === 0,
    problems,
    observed: `${r.rows.length} requests at ${rate}/s (capacity ${f(capacity)}/s), ${fails.length} errors; p99 per 30 s window: median ${f(p99Early)} ms early → ${f(p99Late)} ms late (overall p50 ${f(quantile(all, 0.5))} / p99 ${f(quantile(all, 0.99))} ms); RSS ${rssGrowth.map((g) => `${g.instance} ${f(g.earlyMiB, 0)} → ${f(g.lateMiB, 0)} MiB`).join(', ')}; grants: ${r.grants.problems.length} problems`,
  };
  return {
    capacity,
    capacityMeasured: ramp ?? null,
    rate,
    durationSeconds: duration,
    vus,
    requests: r.rows.length,
    errors: fails.length,
    overall: { p50: quantile(all, 0.5), p99: quantile(all, 0.99), max: all[all.length - 1] },
    windows,
    p99Early,
    p99Late,
    rssGrowth,
    grants: r.grants,
    rssSamples: rss.slice(rssFrom).map((s) => ({ ...s, minute: (s.t - r.start) / 60_000 })),
    verdict,
    loadavgAtEnd: os.loadavg(),
    instances: instances.map((i) => ({ name: i.name, pid: i.pid, starts: i.starts })),
  };
}

// ---- report -----------------------------------------------------------------------------------------

function summaryTable(cases) {
  const lines = ['| case | expected | verdict | observed |', '|---|---|---|---|'];
  for (const c of cases)
    lines.push(`| ${c.fault} | ${c.expected} | ${c.pass ? 'PASS' : '**FAIL**'} | ${c.observed} |`);
  return lines.join('\n');
}

async function writeFaultReport(outDir, results) {
  const md = [
    `# pqid ${results.meta.mode === 'soak' ? 'soak' : 'fault'} run (${results.meta.mode})`,
    '',
    `${results.meta.started} · ${results.meta.machine.cpus} vCPU ${results.meta.machine.cpuModel ?? ''}, ${results.meta.machine.memoryGiB} GiB · Node ${results.meta.machine.node} · ${results.meta.k6} · IdP ML-DSA backend ${results.meta.idp?.mldsaBackend} · load average ${results.meta.machine.loadavgAtStart.map((x) => x.toFixed(1)).join(' ')} → ${results.meta.loadavgAtEnd.map((x) => x.toFixed(1)).join(' ')} · ${f(results.meta.elapsedSeconds, 0)} s`,
    '',
    'Two IdP instances (idp/dist/main.js) on one PostgreSQL database behind a round-robin balancer (load/lib/balancer.mjs); k6 (load/scenarios/soak.js) sends refresh_token rotations on per-VU chains and 5% client_credentials.',
    '',
    summaryTable(results.cases),
    '',
  ];
  for (const c of results.cases) {
    if (c.problems.length) md.push(`**${c.case} problems:**`, '', ...c.problems.map((p) => `- ${p}`), '');
    if (c.grants)
      md.push(
        `${c.case}: grant invariant — ${c.grants.chains} chains (${c.grants.used} used), ${c.grants.tokensSeen} refresh tokens seen by k6, ${c.grants.rowsChecked} database rows checked, ${c.grants.alive} alive / ${c.grants.revoked} revoked (${c.grants.revokedExplained} explained), unused heads usable once ${c.grants.usableOnce}/${c.grants.usableOnce} and rejected on second use ${c.grants.secondUseRejected}.`,
        '',
      );
  }
  const files = { md: join(outDir, 'report.md'), json: join(outDir, 'results.json'), svgs: [] };
  if (results.soak) {
    const s = results.soak;
    const rssSpec = {
      title: `RSS per instance during the soak (${s.rate} req/s)`,
      width: 560,
      height: 220,
      data: { values: s.rssSamples },
      mark: { type: 'line' },
      encoding: {
        x: { field: 'minute', type: 'quantitative', title: 'minutes' },
        y: { field: 'rssMiB', type: 'quantitative', title: 'RSS (MiB)', scale: { zero: true } },
        color: { field: 'instance', type: 'nominal' },
      },
    };
    const latValues = s.windows.flatMap((w) => [
      { minute: w.minute, ms: w.p99, stat: 'p99' },
      { minute: w.minute, ms: w.p50, stat: 'p50' },
    ]);
    const latSpec = {
      title: 'Token request latency per 30 s window (k6, through the balancer)',
      width: 560,
      height: 220,
      data: { values: latValues },
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'minute', type: 'quantitative', title: 'minutes' },
        y: { field: 'ms', type: 'quantitative', title: 'ms', scale: { zero: true } },
        color: { field: 'stat', type: 'nominal' },
      },
    };
    for (const [name, spec] of [
      ['soak-rss.svg', rssSpec],
      ['soak-p99.svg', latSpec],
    ]) {
      writeFileSync(join(outDir, name), await svg(spec));
      files.svgs.push(name);
    }
    md.push(
      '## Soak',
      '',
      `Capacity ${f(s.capacity)} req/s; soak at ${s.rate} req/s for ${s.durationSeconds} s with ${s.vus} VUs: ${s.requests} requests, ${s.errors} errors, p50 ${f(s.overall.p50)} ms, p99 ${f(s.overall.p99)} ms, max ${f(s.overall.max)} ms.`,
      '',
      '![RSS](soak-rss.svg)',
      '',
      '![latency](soak-p99.svg)',
      '',
      '| minute | req/s | errors | p50 ms | p99 ms | RSS A MiB | RSS B MiB |',
      '|---:|---:|---:|---:|---:|---:|---:|',
      ...s.windows.map(
        (w) =>
          `| ${f(w.minute)} | ${f(w.rate)} | ${w.errors} | ${f(w.p50)} | ${f(w.p99)} | ${f(w.rssA, 0)} | ${f(w.rssB, 0)} |`,
      ),
      '',
    );
  }
  writeFileSync(files.md, md.join('\n'));
  writeFileSync(files.json, JSON.stringify(results, null, 2));
  return files;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`pqid faults: ${e.stack ?? e}\n`);
      process.exit(1);
    },
  );
}
