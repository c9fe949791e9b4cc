#!/usr/bin/env node
/**
 * pqid load and size suite runner: `npm run load -- <scenario…|all> [--smoke] [options]`.
 *
 * Starts a fresh pqid IdP (child process, temp data dir, one client per algorithm), runs the k6
 * scenarios in load/scenarios against it, reads the IdP's CPU time from /proc/<pid>/stat around
 * every k6 run, starts node-oidc-provider for the comparison, and writes
 * load/reports/<timestamp>/{report.md,report.html,results.json} with SVG plots.
 */
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { samlSizes } from '@pqid/idp';
import { preferredBackend } from '@pqid/jose';
import { list, parseCommandLine, positive } from './lib/args.mjs';
import { signCostPerAlg, slhDsaSignCost } from './lib/bench.mjs';
import { measureColdPath } from './lib/cold-path.mjs';
import { loginFlow } from './lib/flow.mjs';
import { cpuSeconds, findK6, freePort, runK6, startChild, stopChild } from './lib/proc.mjs';
import { tokenBudget, tokenDecomposition, writeReport } from './lib/report.mjs';
import { buildSizeItems } from './lib/samples.mjs';

const loadDir = dirname(fileURLToPath(import.meta.url));
const repoDir = dirname(loadDir);
const nodeBin = process.execPath;

export const ALL_ALGS = [
  'ES256',
  'EdDSA',
  'RS256',
  'ML-DSA-44',
  'ML-DSA-65',
  'ML-DSA-87',
  'ML-DSA-44-Ed25519',
  'ML-DSA-44-ES256',
  'ML-DSA-65-Ed25519',
  'ML-DSA-65-ES256',
  'ML-DSA-87-ES384',
  'ML-DSA-87-Ed448',
];
export const SCENARIOS = ['sizes', 'throughput', 'placement', 'login', 'tls'];
const COMPARE_ALGS = ['ES256', 'ML-DSA-65'];
/** The algorithms whose token responses the HTTP-floor phases replay (see `pqid-floor`). */
const FLOOR_ALGS = ['ES256', 'ML-DSA-65'];
/**
 * The token endpoint taken apart, each a harness route of the same IdP driven by the same k6
 * requests (load/lib/idp-server.mjs): a canned response (HTTP floor), + a freshly signed access
 * token, + its storage write. /token itself adds the protocol on top (report: tokenDecomposition).
 */
const FLOOR_ROUTES = [
  { target: 'pqid-floor', path: '/__load/floor' },
  { target: 'pqid-sign-floor', path: '/__load/sign-floor' },
  { target: 'pqid-store-floor', path: '/__load/store-floor' },
];
/**
 * The placement study's hot-path algorithms, on an IdP whose cold-path root is SLH-DSA-SHA2-128s
 * (SAML certificates and metadata, a signed JWKS) and which accepts SLH-DSA clients
 * (keys.allowSlhDsaHotPath): the baseline, the recommended hot algorithm, and SLH-DSA per token.
 */
export const PLACEMENT_ALGS = ['ES256', 'ML-DSA-65', 'SLH-DSA-SHA2-128f', 'SLH-DSA-SHA2-128s'];
const PLACEMENT_CONFIG = {
  keys: {
    placement: { cold: 'SLH-DSA-SHA2-128s' },
    signedJwks: true,
    allowSlhDsaHotPath: true,
  },
};
/** The algorithms the SAML IdP signs with (idp/src/saml/config.ts). */
const SAML_ALGS = ['ES256', 'RS256', 'ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'];

const USAGE = `usage: npm run load -- <${SCENARIOS.join('|')}|all>… [--smoke] [options]
  --smoke              every scenario for a few seconds (CI)
  --algs A,B,…         algorithms (default: ${ALL_ALGS.join(',')})
  --duration S         seconds per throughput phase (default 10, smoke 1)
  --vus N              virtual users for the throughput phases (default 8, smoke 4)
  --price USD          $ per vCPU-hour for the cost model (default 0.04, the seed paper's figure)
  --no-compare         skip node-oidc-provider
  --out DIR            report directory (default load/reports/<timestamp>)
  --cpu-prof DIR       write a V8 CPU profile of the (first) IdP to DIR (node --cpu-prof; profiling
                       slows it: read the frames, not that run's numbers)
  budgets: --cookie 4096 --header-line 8190 --node-headers 16384 --url-conservative 2048 --url 8000`;

export function parseArgs(argv) {
  const str = { type: 'string' };
  const { values: v, positionals } = parseCommandLine(
    argv,
    {
      smoke: { type: 'boolean' },
      algs: str,
      duration: str,
      vus: str,
      price: str,
      'no-compare': { type: 'boolean' },
      out: str,
      'cpu-prof': str,
      cookie: str,
      'header-line': str,
      'node-headers': str,
      'url-conservative': str,
      url: str,
      help: { type: 'boolean', short: 'h' },
    },
    USAGE,
    { positionals: true },
  );
  for (const p of positionals)
    if (p !== 'all' && !SCENARIOS.includes(p)) throw new Error(`unknown argument ${p}\n${USAGE}`);
  const o = {
    scenarios: SCENARIOS.filter((s) => positionals.includes(s) || positionals.includes('all')),
    smoke: v.smoke === true,
    algs: list(v.algs) ?? ALL_ALGS,
    price: positive(v.price, 'price') ?? 0.04,
    compare: v['no-compare'] !== true,
    budgets: {
      cookie: positive(v.cookie, 'cookie') ?? 4096,
      headerLine: positive(v['header-line'], 'header-line') ?? 8190,
      nodeHeaders: positive(v['node-headers'], 'node-headers') ?? 16384,
      urlConservative: positive(v['url-conservative'], 'url-conservative') ?? 2048,
      url: positive(v.url, 'url') ?? 8000,
    },
    help: v.help === true,
  };
  if (v.out !== undefined) o.out = v.out;
  if (v['cpu-prof'] !== undefined) o.cpuProf = v['cpu-prof'];
  const unknown = o.algs.filter((a) => !ALL_ALGS.includes(a));
  if (unknown.length)
    throw new Error(`unknown algorithm(s) ${unknown.join(', ')}; choose from ${ALL_ALGS.join(', ')}`);
  if (!o.algs.includes('ES256')) o.algs = ['ES256', ...o.algs]; // the baseline of every ratio
  o.duration = positive(v.duration, 'duration') ?? (o.smoke ? 1 : 10);
  o.vus = positive(v.vus, 'vus') ?? (o.smoke ? 4 : 8);
  return o;
}

/** The instruction-set extensions that decide which code runs (liboqs AVX2, SHA-NI, AES, …). */
const FLAGS = [
  'avx2',
  'avx512f',
  'avx512ifma',
  'bmi2',
  'adx',
  'aes',
  'vaes',
  'sha_ni',
  'asimd',
  'sha2',
  'sha3',
];
function cpuFlags() {
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    const have = new Set((/^(?:flags|Features)\s*:\s*(.*)$/m.exec(info)?.[1] ?? '').split(/\s+/));
    return FLAGS.filter((f) => have.has(f)).join(' ') || 'unknown';
  } catch {
    return 'unknown'; // not Linux
  }
}

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-').replace(/Z$/, 'Z');
const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '–');

class Progress {
  constructor(total) {
    this.total = total;
    this.done = 0;
    this.t0 = Date.now();
  }
  step(label) {
    this.done++;
    const s = ((Date.now() - this.t0) / 1000).toFixed(0);
    process.stdout.write(`[${String(this.done).padStart(2)}/${this.total}] ${s.padStart(4)}s  ${label}\n`);
  }
  note(text) {
    process.stdout.write(`           ${text}\n`);
  }
}

/** A sub-metric from a k6 summary, by metric name and tags. */
export function metric(summary, name, tags) {
  const key = tags
    ? `${name}{${Object.entries(tags)
        .map(([k, v]) => `${k}:${v}`)
        .join(',')}}`
    : name;
  return summary?.metrics?.[key];
}

async function mintRefreshTokens(idp, alg, n) {
  const out = [];
  const batch = 4;
  for (let i = 0; i < n; i += batch) {
    const got = await Promise.all(
      Array.from({ length: Math.min(batch, n - i) }, (_, j) =>
        loginFlow({
          issuer: idp.info.issuer,
          clientId: idp.info.clients[alg].public.id,
          redirectUri: idp.info.redirectUri,
          username: idp.info.users[(i + j) % idp.info.users.length],
          password: idp.info.password,
        }),
      ),
    );
    for (const t of got) {
      if (!t.refresh_token) throw new Error(`no refresh token for ${alg}: ${JSON.stringify(Object.keys(t))}`);
      out.push(t.refresh_token);
    }
  }
  return out;
}

export async function main(argv) {
  const opts = parseArgs(argv);
  if (opts.help || opts.scenarios.length === 0) {
    process.stdout.write(`${USAGE}\n`);
    return opts.help ? 0 : 2;
  }
  const k6 = findK6(loadDir);
  if (!k6) {
    process.stderr.write(
      'k6 not found: run `bash load/scripts/install-k6.sh` (installs the pinned k6 into load/bin)\n',
    );
    return 3;
  }
  const outDir = opts.out ?? join(loadDir, 'reports', stamp());
  mkdirSync(outDir, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'pqid-load-'));
  const log = createWriteStream(join(outDir, 'k6.log'));
  const started = Date.now();
  const results = {
    meta: {
      started: new Date().toISOString(),
      mode: opts.smoke ? 'smoke' : 'full',
      scenarios: opts.scenarios,
      algs: opts.algs,
      duration: opts.duration,
      vus: opts.vus,
      pricePerVcpuHour: opts.price,
      budgets: opts.budgets,
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model,
        cpuFlags: cpuFlags(),
        memoryGiB: Math.round(os.totalmem() / 2 ** 30),
        loadavgAtStart: os.loadavg(),
        kernel: os.release(),
        node: process.version,
        openssl: process.versions.openssl,
      },
      k6: k6.startsWith(repoDir) ? relative(repoDir, k6) : k6,
    },
  };
  const withThroughput = opts.scenarios.includes('throughput');
  const steps =
    (opts.scenarios.includes('sizes') ? 1 : 0) +
    (withThroughput
      ? opts.algs.length * 4 +
        FLOOR_ALGS.filter((a) => opts.algs.includes(a)).length * 2 * FLOOR_ROUTES.length +
        (opts.compare ? COMPARE_ALGS.length * 2 : 0) +
        1
      : 0) +
    (opts.scenarios.includes('placement') ? PLACEMENT_ALGS.length * 2 + 2 : 0) +
    (opts.scenarios.includes('login') ? 1 : 0) +
    (opts.scenarios.includes('tls') ? (opts.smoke ? 2 : 4) : 0);
  const progress = new Progress(steps);
  process.stdout.write(
    `pqid load: ${opts.scenarios.join(', ')} (${results.meta.mode}), ${opts.algs.length} algorithms, k6 ${results.meta.k6}\n`,
  );

  const children = [];
  const cleanup = async () => {
    for (const c of children) await stopChild(c).catch(() => {});
    rmSync(work, { recursive: true, force: true });
  };
  const onSignal = () => {
    cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    const port = await freePort();
    const tlsPorts = opts.scenarios.includes('tls') ? [await freePort(), await freePort()] : [];
    const nodeArgs = opts.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${opts.cpuProf}`] : [];
    const idp = await startChild(
      nodeBin,
      join(loadDir, 'lib', 'idp-server.mjs'),
      {
        port,
        dataDir: join(work, 'idp'),
        algs: opts.algs,
        floorAlgs: FLOOR_ALGS,
        users: Math.max(8, opts.vus * 2),
        tls: tlsPorts.length
          ? [
              { name: 'X25519MLKEM768', ecdhCurve: 'X25519MLKEM768:X25519', port: tlsPorts[0] },
              { name: 'X25519', ecdhCurve: 'X25519', port: tlsPorts[1] },
            ]
          : [],
      },
      { nodeArgs },
    );
    children.push(idp.child);
    results.meta.idp = {
      issuer: idp.info.issuer,
      node: idp.info.node,
      openssl: idp.info.openssl,
      mldsaBackends: idp.info.mldsaBackends ?? [],
    };
    results.meta.runnerMldsaBackend = preferredBackend();
    process.stdout.write(
      `IdP ready at ${idp.info.issuer} (pid ${idp.info.pid}), ML-DSA backends: ${results.meta.idp.mldsaBackends.join(', ') || '?'}\n`,
    );

    const k6run = async (scenario, name, config) => {
      const summaryFile = join(work, `${name}.summary.json`);
      const configPath = join(work, `${name}.config.json`);
      writeFileSync(configPath, JSON.stringify({ ...config, summaryFile }));
      log.write(`\n=== ${name}\n`);
      const { code, output } = await runK6(k6, join(loadDir, 'scenarios', `${scenario}.js`), configPath, {
        logStream: log,
      });
      let summary;
      try {
        summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
      } catch {
        throw new Error(`k6 ${name} wrote no summary (exit ${code}):\n${output.slice(-3000)}`);
      }
      // 99: thresholds crossed. For sizes that is the finding itself; for the load phases the
      // row records it (error budget crossed) and the report shows it.
      const thresholdsCrossed = code === 99;
      if (code !== 0 && !thresholdsCrossed)
        throw new Error(`k6 ${name} failed with exit ${code}:\n${output.slice(-3000)}`);
      return { summary, code, thresholdsCrossed };
    };

    // ---- sizes ---------------------------------------------------------------------------
    if (opts.scenarios.includes('sizes')) {
      const issued = {};
      for (const alg of opts.algs) {
        const t = await loginFlow({
          issuer: idp.info.issuer,
          clientId: idp.info.clients[alg].public.id,
          redirectUri: idp.info.redirectUri,
          username: idp.info.users[0],
          password: idp.info.password,
        });
        issued[alg] = { idToken: t.id_token, accessToken: t.access_token };
      }
      const discovery = await (await fetch(`${idp.info.issuer}/.well-known/openid-configuration`)).json();
      const jarClients = Object.fromEntries(opts.algs.map((alg) => [alg, idp.info.clients[alg].jar]));
      const { items, jwks } = await buildSizeItems(issued, discovery.token_endpoint, jarClients, {
        issuer: idp.info.issuer,
        redirectUri: idp.info.redirectUri,
      });
      // The DPoP proofs are sent to the token endpoint as this algorithm's confidential client.
      for (const item of items) if (item.dpopProof) item.ccClient = idp.info.clients[item.alg].confidential;
      const accessTokenFormat = Object.values(issued).every((t) => t.accessToken.split('.').length === 3)
        ? 'jwt'
        : 'reference';
      // SAML messages from the IdP's own signing code (samlSizes: a signed AuthnRequest over
      // HTTP-Redirect, a signed Response in its HTTP-POST form, leaf certificate from an
      // ML-DSA-87 root in KeyInfo), for the SAML algorithms among --algs.
      const samlItems = (await samlSizes(SAML_ALGS.filter((a) => opts.algs.includes(a)))).map((r) => ({
        ...r,
        profile: 'typical',
      }));
      const { summary, thresholdsCrossed } = await k6run('sizes', 'sizes', {
        budgets: opts.budgets,
        items,
        jwks,
        jwksUri: discovery.jwks_uri,
        userinfoEndpoint: discovery.userinfo_endpoint,
        tokenEndpoint: discovery.token_endpoint,
        authorizationEndpoint: discovery.authorization_endpoint,
        parEndpoint: discovery.pushed_authorization_request_endpoint,
        endSessionEndpoint: discovery.end_session_endpoint ?? `${idp.info.issuer}/logout`,
        postLogoutRedirectUri: 'http://127.0.0.1:9/bye',
        saml: samlItems,
      });
      results.sizes = collectSizes(summary, items, jwks, opts, samlItems);
      results.sizes.accessTokenFormat = accessTokenFormat;
      results.sizes.endSessionEndpoint = discovery.end_session_endpoint ?? null;
      results.sizes.budgetsCrossed = thresholdsCrossed;
      progress.step(
        `sizes: ${items.length} token sets, ${results.sizes.rows.filter((r) => !r.fitsCookie).length} ID tokens too big for one cookie`,
      );
    }

    // k6 phases against a server: one algorithm, one grant, one phase (throughput and placement).
    const phase = async (target, server, grant, alg, phaseName, extra) => {
      const client = server.info.clients[alg];
      const base = {
        tokenUrl: `${server.info.issuer}/token`,
        grant,
        alg,
        phase: phaseName === 'warmup' ? 'saturate' : phaseName,
        duration: phaseName === 'warmup' ? Math.max(1, Math.round(opts.duration / 3)) : opts.duration,
        vus: opts.vus,
        ceiling: 5000,
        maxErrorRate: 0.01,
        clientId: grant === 'client_credentials' ? client.confidential.id : client.public.id,
        secret: client.confidential?.secret,
        ...extra,
      };
      if (grant === 'refresh_token') base.refreshTokens = await mintRefreshTokens(server, alg, opts.vus);
      const cpu0 = cpuSeconds(server.info.pid);
      const t0 = Date.now();
      const { summary, thresholdsCrossed } = await k6run(
        'throughput',
        `throughput-${target}-${grant}-${alg}-${phaseName}`,
        base,
      );
      const wall = (Date.now() - t0) / 1000;
      const cpu = cpuSeconds(server.info.pid) - cpu0;
      const lat = metric(summary, 'token_latency')?.values ?? {};
      const ok = metric(summary, 'tokens_ok')?.values?.count ?? 0;
      const errRate = metric(summary, 'token_errors')?.values?.rate ?? 0;
      const jwt = metric(summary, 'jwt_access_tokens')?.values?.count ?? 0;
      const row = {
        target,
        grant,
        alg,
        phase: phaseName,
        offeredRate: phaseName === 'steady' ? extra.rate : null,
        tokens: ok,
        tokensPerSecond: ok / base.duration,
        errorRate: errRate,
        errorBudgetCrossed: thresholdsCrossed,
        p50: lat.med,
        p95: lat['p(95)'],
        p99: lat['p(99)'],
        max: lat.max,
        avg: lat.avg,
        jwtAccessTokens: jwt,
        serverCpuSeconds: cpu,
        wallSeconds: wall,
        responseBytes: metric(summary, 'token_response_bytes')?.values?.avg,
      };
      if (extra.record === false) {
        progress.note(`warm-up ${target} ${grant}: ${fmt(row.tokensPerSecond)} tok/s`);
        return row;
      }
      results.throughput ??= [];
      results.throughput.push(row);
      progress.step(
        `throughput ${target} ${grant} ${alg} ${phaseName}: ${fmt(row.tokensPerSecond)} tok/s, p99 ${fmt(row.p99)} ms, errors ${fmt(errRate * 100, 2)}%, server CPU ${fmt((cpu / Math.max(ok, 1)) * 1000, 3)} ms/token`,
      );
      return row;
    };
    const matrix = async (target, server, grants, algs) => {
      // Warm-up (not recorded): JIT, connection pools and caches of a fresh server would
      // otherwise penalise whichever algorithm runs first.
      for (const grant of grants) await phase(target, server, grant, algs[0], 'warmup', { record: false });
      for (const grant of grants) {
        for (const alg of algs) {
          const peak = await phase(target, server, grant, alg, 'saturate', {});
          await phase(target, server, grant, alg, 'steady', {
            rate: Math.max(1, 0.7 * peak.tokensPerSecond),
          });
        }
      }
    };
    // ---- throughput ----------------------------------------------------------------------
    if (withThroughput) {
      await matrix('pqid', idp, ['client_credentials', 'refresh_token'], opts.algs);
      // The HTTP floor and the token endpoint's parts: the same k6 requests against harness
      // routes of the same server — a canned token response of the same bytes, then a freshly
      // signed token, then a signed and stored one — with no client authentication or grant
      // checks behind them. The differences split pqid's CPU per token, all in this run.
      for (const { target, path } of FLOOR_ROUTES) {
        for (const alg of FLOOR_ALGS.filter((a) => opts.algs.includes(a))) {
          const tokenUrl = `${idp.info.issuer}${path}?alg=${encodeURIComponent(alg)}`;
          const peak = await phase(target, idp, 'client_credentials', alg, 'saturate', { tokenUrl });
          await phase(target, idp, 'client_credentials', alg, 'steady', {
            tokenUrl,
            rate: Math.max(1, 0.7 * peak.tokensPerSecond),
          });
        }
      }
      for (const line of tokenDecomposition(results)) progress.note(line);
      if (opts.compare) {
        const opPort = await freePort();
        const op = await startChild(nodeBin, join(loadDir, 'lib', 'oidc-provider-server.mjs'), {
          port: opPort,
          algs: COMPARE_ALGS,
        });
        children.push(op.child);
        await matrix('oidc-provider', op, ['client_credentials'], COMPARE_ALGS);
        await stopChild(op.child);
        for (const line of tokenBudget(results)) progress.note(line);
        results.meta.oidcProvider = JSON.parse(
          readFileSync(join(repoDir, 'node_modules', 'oidc-provider', 'package.json'), 'utf8'),
        ).version;
      }
      // Per-operation sign costs (placement study, and to split token CPU into signing and the rest).
      results.signCost = await signCostPerAlg(opts.algs, opts.smoke ? { minOps: 5, minMs: 20 } : {});
      results.slhDsa = await slhDsaSignCost(undefined, { ops: opts.smoke ? 1 : 3 });
      progress.step(
        `sign cost per op: ${Object.entries(results.signCost)
          .map(([a, c]) => `${a} ${fmt(c.usPerOp / 1000, 3)} ms`)
          .join(', ')}; SLH-DSA-SHA2-128s ${fmt(results.slhDsa['slh-dsa-sha2-128s'].usPerOp / 1000)} ms`,
      );
    }

    // ---- placement -----------------------------------------------------------------------
    // A second IdP with the cold path the docs recommend (an SLH-DSA-SHA2-128s root signing the
    // SAML certificates, the metadata and a signed JWKS) that also accepts SLH-DSA clients, so
    // every placement regime is served and measured rather than modelled.
    if (opts.scenarios.includes('placement')) {
      const placed = await startChild(nodeBin, join(loadDir, 'lib', 'idp-server.mjs'), {
        port: await freePort(),
        dataDir: join(work, 'idp-placement'),
        algs: PLACEMENT_ALGS,
        users: Math.max(8, opts.vus * 2),
        config: PLACEMENT_CONFIG,
      });
      children.push(placed.child);
      const cold = await measureColdPath(placed, {
        rounds: opts.smoke ? 1 : 3,
        cachedFetches: opts.smoke ? 5 : 50,
      });
      progress.step(
        `cold path: signed JWKS re-signed in ${fmt(cold.objects.signedJwks.resign.cpuMs, 0)} ms CPU, SAML metadata in ${fmt(cold.objects.metadata.resign.cpuMs, 0)} ms CPU (${cold.objects.metadata.resign.signatures} SLH-DSA signatures); cached fetch p50 ${fmt(cold.objects.signedJwks.cached.p50Ms, 2)} ms`,
      );
      // Relying parties polling the cold objects while tokens are issued: one fetch per 50 token requests.
      const coldTraffic = {
        coldUrls: [`${placed.info.issuer}/jwks.jwt`, `${placed.info.issuer}/saml/metadata`],
        coldEvery: 50,
      };
      await phase('pqid-placement', placed, 'refresh_token', 'ES256', 'warmup', {
        record: false,
        ...coldTraffic,
      });
      for (const alg of PLACEMENT_ALGS) {
        const peak = await phase('pqid-placement', placed, 'refresh_token', alg, 'saturate', coldTraffic);
        await phase('pqid-placement', placed, 'refresh_token', alg, 'steady', {
          ...coldTraffic,
          rate: Math.max(1, 0.7 * peak.tokensPerSecond),
        });
      }
      // Per-op costs for the model's predictions beside the measured rows.
      results.signCost ??= await signCostPerAlg(['ES256'], opts.smoke ? { minOps: 5, minMs: 20 } : {});
      results.slhDsa ??= await slhDsaSignCost(undefined, { ops: opts.smoke ? 1 : 3 });
      results.placementRun = {
        algs: PLACEMENT_ALGS,
        config: PLACEMENT_CONFIG,
        coldPath: cold,
        coldTraffic: { every: 50 },
      };
      progress.step(
        `placement: ${PLACEMENT_ALGS.join(', ')} on the hot path, SLH-DSA-SHA2-128s on the cold path`,
      );
      await stopChild(placed.child);
    }

    // ---- login ---------------------------------------------------------------------------
    if (opts.scenarios.includes('login')) {
      const duration = opts.smoke ? 4 : 30;
      const rate = opts.smoke ? Math.max(4, opts.algs.length) : 8;
      const cpu0 = cpuSeconds(idp.info.pid);
      const { summary, thresholdsCrossed } = await k6run('login', 'login', {
        issuer: idp.info.issuer,
        redirectUri: idp.info.redirectUri,
        password: idp.info.password,
        users: idp.info.users,
        clients: opts.algs.map((alg) => ({ alg, clientId: idp.info.clients[alg].public.id })),
        rate,
        duration,
        vus: opts.smoke ? 8 : 16,
        maxErrorRate: 0.05,
        flowBudgetMs: 10_000,
      });
      const cpu = cpuSeconds(idp.info.pid) - cpu0;
      results.login = {
        rate,
        duration,
        serverCpuSeconds: cpu,
        flows: metric(summary, 'login_ok')?.values?.count ?? 0,
        errorRate: metric(summary, 'login_errors')?.values?.rate ?? 0,
        thresholdsCrossed,
        perAlg: opts.algs.map((alg) => {
          const f = metric(summary, 'login_flow_ms', { alg })?.values ?? {};
          const x = metric(summary, 'login_token_exchange_ms', { alg })?.values ?? {};
          return {
            alg,
            flows: f.count ?? 0,
            flowP50: f.med,
            flowP95: f['p(95)'],
            flowP99: f['p(99)'],
            exchangeP50: x.med,
            exchangeP99: x['p(99)'],
            errorRate: metric(summary, 'login_errors', { alg })?.values?.rate ?? 0,
          };
        }),
      };
      progress.step(
        `login: ${results.login.flows} flows, errors ${fmt(results.login.errorRate * 100, 2)}%, server CPU ${fmt((cpu / Math.max(results.login.flows, 1)) * 1000, 1)} ms/flow`,
      );
    }

    // ---- tls -----------------------------------------------------------------------------
    if (opts.scenarios.includes('tls')) {
      results.tls = { rounds: [], negotiated: await negotiatedGroups(idp.info.tls) };
      const order = opts.smoke
        ? ['X25519MLKEM768', 'X25519']
        : ['X25519MLKEM768', 'X25519', 'X25519', 'X25519MLKEM768'];
      const duration = opts.smoke ? 2 : 10;
      for (const [i, name] of order.entries()) {
        const cpu0 = cpuSeconds(idp.info.pid);
        const { summary } = await k6run('tls', `tls-${i}-${name}`, {
          url: `https://127.0.0.1:${idp.info.tls[name].port}/__load/ping`,
          duration,
          vus: opts.smoke ? 2 : 4,
          maxErrorRate: 0.01,
        });
        const cpu = cpuSeconds(idp.info.pid) - cpu0;
        const hs = metric(summary, 'http_req_tls_handshaking')?.values ?? {};
        const dur = metric(summary, 'http_req_duration')?.values ?? {};
        const ok = metric(summary, 'handshakes_ok')?.values?.count ?? 0;
        const row = {
          group: name,
          ecdhCurve: idp.info.tls[name].ecdhCurve,
          handshakes: ok,
          handshakesPerSecond: ok / duration,
          handshakeP50: hs.med,
          handshakeP95: hs['p(95)'],
          handshakeP99: hs['p(99)'],
          requestP99: dur['p(99)'],
          errorRate: metric(summary, 'handshake_errors')?.values?.rate ?? 0,
          serverCpuSeconds: cpu,
          serverCpuMsPerHandshake: (cpu / Math.max(ok, 1)) * 1000,
        };
        results.tls.rounds.push(row);
        progress.step(
          `tls ${name}: ${fmt(row.handshakesPerSecond)} handshakes/s, handshake p50 ${fmt(row.handshakeP50, 2)} ms, server CPU ${fmt(row.serverCpuMsPerHandshake, 3)} ms/handshake`,
        );
      }
    }

    results.meta.finished = new Date().toISOString();
    results.meta.elapsedSeconds = (Date.now() - started) / 1000;
    results.meta.loadavgAtEnd = os.loadavg();
    const files = await writeReport(outDir, results);
    process.stdout.write(
      `\nreport: ${relative(process.cwd(), files.md)}\n        ${relative(process.cwd(), files.html)}\n(${fmt(results.meta.elapsedSeconds, 0)} s)\n`,
    );
    return 0;
  } finally {
    log.end();
    await cleanup();
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}

/** Per (alg, profile): bytes of every line, and which budgets each crosses. */
function collectSizes(summary, items, jwks, opts, samlItems) {
  const b = opts.budgets;
  const val = (kind, alg, profile) => metric(summary, `size_${kind}`, { alg, profile })?.values?.max;
  const rows = items.map(({ alg, profile, source, dpopProof, requestObject }) => {
    const r = {
      alg,
      profile,
      source,
      idToken: val('id_token', alg, profile),
      accessToken: val('access_token', alg, profile),
      authorizationHeader: val('authorization_header', alg, profile),
      setCookie: val('set_cookie', alg, profile),
      setCookieLine: val('set_cookie_line', alg, profile),
      logoutUrl: val('logout_url', alg, profile),
      dpopHeader: dpopProof ? val('dpop_header', alg, profile) : undefined,
      authorizationUrlJar: requestObject ? val('authorization_url_jar', alg, profile) : undefined,
      authorizationUrlPar: requestObject ? val('authorization_url_par', alg, profile) : undefined,
    };
    r.fitsCookie = r.setCookie <= b.cookie;
    r.fitsHeaderLine = r.authorizationHeader <= b.headerLine;
    r.fitsNodeHeaders = r.authorizationHeader <= b.nodeHeaders;
    r.fitsUrlConservative = r.logoutUrl <= b.urlConservative;
    r.fitsUrl = r.logoutUrl <= b.url;
    if (r.dpopHeader !== undefined) {
      r.dpopFitsHeaderLine = r.dpopHeader <= b.headerLine;
      r.dpopFitsNodeHeaders = r.dpopHeader <= b.nodeHeaders;
      const bound = metric(summary, 'dpop_status', { alg, status: '200' })?.values?.count ?? 0;
      r.dpopAcceptedByIdp = bound > 0;
    }
    if (r.authorizationUrlJar !== undefined) {
      r.jarFitsUrlConservative = r.authorizationUrlJar <= b.urlConservative;
      r.jarFitsUrl = r.authorizationUrlJar <= b.url;
      r.parFitsUrlConservative = r.authorizationUrlPar <= b.urlConservative;
      r.parAcceptedByIdp = (metric(summary, 'par_status', { alg, status: '201' })?.values?.count ?? 0) > 0;
    }
    if (source === 'idp') {
      const accepted = metric(summary, 'transport_status', { alg, status: '200' })?.values?.count ?? 0;
      r.bearerAcceptedByIdp = accepted > 0;
    }
    return r;
  });
  return {
    rows,
    jwks,
    jwksLive: metric(summary, 'size_jwks', { alg: 'all', profile: 'live' })?.values?.max,
    saml: samlItems.map((s) => {
      const tags = { alg: s.alg, profile: s.profile };
      const redirectUrl = metric(summary, 'size_saml_redirect_url', tags)?.values?.max;
      return {
        alg: s.alg,
        signature: s.signatureBytes,
        redirectUrl,
        fitsUrlConservative: redirectUrl <= b.urlConservative,
        fitsUrl: redirectUrl <= b.url,
        responseXml: s.responseXmlBytes,
        postForm: metric(summary, 'size_saml_post_form', tags)?.values?.max,
      };
    }),
  };
}

/** What a Node client negotiates with each listener (k6's Go client is configured alike). */
async function negotiatedGroups(tls) {
  const { connect } = await import('node:tls');
  const out = {};
  for (const [name, { port }] of Object.entries(tls)) {
    out[name] = await new Promise((resolve) => {
      const s = connect(
        { host: '127.0.0.1', port, rejectUnauthorized: false, ecdhCurve: 'X25519MLKEM768:X25519' },
        () => {
          const info = s.getEphemeralKeyInfo();
          s.end();
          resolve(info?.name ?? info?.type ?? 'unknown');
        },
      );
      s.once('error', (e) => resolve(`error: ${e.message}`));
    });
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`pqid load: ${e.stack ?? e}\n`);
      process.exit(1);
    },
  );
}
