/**
 * The throughput phases: one k6 run of load/scenarios/throughput.js against one server variant,
 * for one grant and one algorithm, with the server's CPU time read from /proc around it; and a
 * variant's whole matrix (warm-up, then PHASES per grant and algorithm).
 */
import { loginFlow } from '../flow.mjs';
import { cpuSeconds } from '../proc.mjs';
import { PHASES } from '../variants.mjs';
import { k6run, metric } from './k6.mjs';
import { fmt } from './progress.mjs';

/** @typedef {import('../types.d.ts').Server} Server */
/** @typedef {import('../types.d.ts').ServerInfo} ServerInfo */
/** @typedef {import('../types.d.ts').IdpInfo} IdpInfo */
/** @typedef {import('../types.d.ts').ThroughputRow} ThroughputRow */
/** @typedef {import('../variants.mjs').Variant} Variant */
/** @typedef {import('./context.mjs').RunContext} RunContext */

/**
 * Refresh tokens minted through the real login form before a phase, so that the phase's CPU
 * holds only the requests under test (4 logins at a time).
 * @param {Server} server
 * @param {string} alg
 * @param {number} n
 */
async function mintRefreshTokens(server, alg, n) {
  const info = /** @type {IdpInfo} */ (server.info);
  const clientId = info.clients[alg]?.public.id;
  if (!clientId) throw new Error(`no public client for ${alg}`);
  const out = [];
  const batch = 4;
  for (let i = 0; i < n; i += batch) {
    const got = await Promise.all(
      Array.from({ length: Math.min(batch, n - i) }, (_, j) =>
        loginFlow({
          issuer: info.issuer,
          clientId,
          redirectUri: info.redirectUri,
          username: info.users[(i + j) % info.users.length] ?? '',
          password: info.password,
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

/**
 * The k6 config of a phase.
 * @param {RunContext} ctx
 * @param {Server} server
 * @param {string} grant
 * @param {string} alg
 * @param {string} phaseName
 * @param {Record<string, unknown>} extra
 */
async function phaseConfig(ctx, server, grant, alg, phaseName, extra) {
  const client = server.info.clients[alg];
  if (!client) throw new Error(`${server.info.issuer} has no client for ${alg}`);
  const warmup = phaseName === 'warmup';
  return {
    tokenUrl: `${server.info.issuer}/token`,
    grant,
    alg,
    phase: warmup ? 'saturate' : phaseName,
    duration: warmup ? Math.max(1, Math.round(ctx.opts.duration / 3)) : ctx.opts.duration,
    vus: ctx.opts.vus,
    ceiling: 5000,
    maxErrorRate: 0.01,
    clientId: grant === 'client_credentials' ? client.confidential.id : client.public?.id,
    secret: client.confidential?.secret,
    ...extra,
    ...(grant === 'refresh_token'
      ? { refreshTokens: await mintRefreshTokens(server, alg, ctx.opts.vus) }
      : {}),
  };
}

/**
 * One phase; recorded in results.throughput unless it is the warm-up.
 * @param {RunContext} ctx
 * @param {string} target
 * @param {Server} server
 * @param {string} grant
 * @param {string} alg
 * @param {string} phaseName a PHASES name, or `warmup`
 * @param {Record<string, unknown>} extra additions to the k6 config
 * @returns {Promise<ThroughputRow>}
 */
export async function runPhase(ctx, target, server, grant, alg, phaseName, extra) {
  const config = await phaseConfig(ctx, server, grant, alg, phaseName, extra);
  const cpu0 = cpuSeconds(server.info.pid);
  const t0 = Date.now();
  const { summary, thresholdsCrossed } = await k6run(
    ctx,
    'throughput',
    `throughput-${target}-${grant}-${alg}-${phaseName}`,
    config,
  );
  const wall = (Date.now() - t0) / 1000;
  const cpu = cpuSeconds(server.info.pid) - cpu0;
  const lat = metric(summary, 'token_latency')?.values ?? {};
  const ok = metric(summary, 'tokens_ok')?.values?.count ?? 0;
  const errRate = metric(summary, 'token_errors')?.values?.rate ?? 0;
  /** @type {ThroughputRow} */
  const row = {
    target,
    grant,
    alg,
    phase: phaseName,
    offeredRate: typeof extra.rate === 'number' ? extra.rate : null,
    tokens: ok,
    tokensPerSecond: ok / config.duration,
    errorRate: errRate,
    errorBudgetCrossed: thresholdsCrossed,
    p50: lat.med,
    p95: lat['p(95)'],
    p99: lat['p(99)'],
    max: lat.max,
    avg: lat.avg,
    jwtAccessTokens: metric(summary, 'jwt_access_tokens')?.values?.count ?? 0,
    serverCpuSeconds: cpu,
    wallSeconds: wall,
    responseBytes: metric(summary, 'token_response_bytes')?.values?.avg,
  };
  if (phaseName === 'warmup') {
    ctx.progress.note(`warm-up ${target} ${grant}: ${fmt(row.tokensPerSecond)} tok/s`);
    return row;
  }
  ctx.results.throughput ??= [];
  ctx.results.throughput.push(row);
  ctx.progress.step(
    `throughput ${target} ${grant} ${alg} ${phaseName}: ${fmt(row.tokensPerSecond)} tok/s, p99 ${fmt(row.p99)} ms, errors ${fmt(errRate * 100, 2)}%, server CPU ${fmt((cpu / Math.max(ok, 1)) * 1000, 3)} ms/token`,
  );
  return row;
}

/**
 * A variant's matrix on its server: the warm-up (one unrecorded phase per grant, when the
 * variant asks for it), then every PHASES row for each grant and algorithm.
 * @param {RunContext} ctx
 * @param {Variant} v
 * @param {Server} server
 */
export async function measureVariant(ctx, v, server) {
  const algs = v.algs(ctx.opts);
  /** @param {string} alg */
  const request = (alg) => v.request?.(server.info.issuer, alg) ?? {};
  const first = algs[0];
  if (v.warmup && first !== undefined)
    for (const grant of v.grants)
      await runPhase(ctx, v.target, server, grant, first, 'warmup', request(first));
  for (const grant of v.grants) {
    for (const alg of algs) {
      /** @type {ThroughputRow | undefined} */
      let previous;
      for (const p of PHASES)
        previous = await runPhase(ctx, v.target, server, grant, alg, p.name, {
          ...request(alg),
          ...p.request(previous),
        });
    }
  }
}
