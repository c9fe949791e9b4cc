/**
 * The `login` scenario: the whole authorization-code flow through the login form in k6, the
 * algorithms round-robin, with the IdP's CPU per flow.
 */
import { cpuSeconds } from '../../proc.mjs';
import { k6run, metric } from '../k6.mjs';
import { fmt } from '../progress.mjs';

/** @typedef {import('../../types.d.ts').Server<import('../../types.d.ts').IdpInfo>} Idp */
/** @typedef {import('../../types.d.ts').K6Summary} K6Summary */
/** @typedef {import('../context.mjs').RunContext} RunContext */

/**
 * Latency of the whole flow and of the code exchange, per algorithm.
 * @param {K6Summary} summary
 * @param {string} alg
 */
function perAlg(summary, alg) {
  const fl = metric(summary, 'login_flow_ms', { alg })?.values ?? {};
  const x = metric(summary, 'login_token_exchange_ms', { alg })?.values ?? {};
  return {
    alg,
    flows: fl.count ?? 0,
    flowP50: fl.med,
    flowP95: fl['p(95)'],
    flowP99: fl['p(99)'],
    exchangeP50: x.med,
    exchangeP99: x['p(99)'],
    errorRate: metric(summary, 'login_errors', { alg })?.values?.rate ?? 0,
  };
}

/**
 * @param {RunContext} ctx
 * @param {Idp} idp
 */
export async function login(ctx, idp) {
  const { opts } = ctx;
  const duration = opts.smoke ? 4 : 30;
  const rate = opts.smoke ? Math.max(4, opts.algs.length) : 8;
  const cpu0 = cpuSeconds(idp.info.pid);
  const { summary, thresholdsCrossed } = await k6run(ctx, 'login', 'login', {
    issuer: idp.info.issuer,
    redirectUri: idp.info.redirectUri,
    password: idp.info.password,
    users: idp.info.users,
    clients: opts.algs.map((alg) => ({ alg, clientId: idp.info.clients[alg]?.public.id })),
    rate,
    duration,
    vus: opts.smoke ? 8 : 16,
    maxErrorRate: 0.05,
    flowBudgetMs: 10_000,
  });
  const cpu = cpuSeconds(idp.info.pid) - cpu0;
  const l = {
    rate,
    duration,
    serverCpuSeconds: cpu,
    flows: metric(summary, 'login_ok')?.values?.count ?? 0,
    errorRate: metric(summary, 'login_errors')?.values?.rate ?? 0,
    thresholdsCrossed,
    perAlg: opts.algs.map((alg) => perAlg(summary, alg)),
  };
  ctx.results.login = l;
  ctx.progress.step(
    `login: ${l.flows} flows, errors ${fmt(l.errorRate * 100, 2)}%, server CPU ${fmt((cpu / Math.max(l.flows, 1)) * 1000, 1)} ms/flow`,
  );
}
