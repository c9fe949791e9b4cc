/**
 * The throughput phases: one k6 run of load/scenarios/throughput.js against one server variant,
 * for one grant and one algorithm, with the server's CPU time read from /proc around it; and a
 * variant's whole matrix (warm-up, then PHASES per grant and algorithm).
 */
import { loginFlow } from '../flow.mjs';
import { cpuSeconds } from '../proc.mjs';
import { PHASES } from '../variants.mjs';
import { openEncryptedIdToken } from './id-token-sample.mjs';
import { k6run, metric } from './k6.mjs';
import { fmt } from './progress.mjs';

/** @typedef {import('../types.d.ts').Server} Server */
/** @typedef {import('../types.d.ts').ServerInfo} ServerInfo */
/** @typedef {import('../types.d.ts').IdpInfo} IdpInfo */
/** @typedef {import('../types.d.ts').ThroughputRow} ThroughputRow */
/** @typedef {import('../types.d.ts').JweConfig} JweConfig */
/** @typedef {import('../types.d.ts').EncryptedIdTokenSample} EncryptedIdTokenSample */
/** @typedef {import('../variants.mjs').Variant} Variant */
/** @typedef {import('./context.mjs').RunContext} RunContext */

/**
 * Refresh tokens of a public client minted through the real login form before a phase, so that
 * the phase's CPU holds only the requests under test (4 logins at a time).
 * @param {Server} server
 * @param {string} clientId
 * @param {number} n
 */
async function mintRefreshTokens(server, clientId, n) {
  const info = /** @type {IdpInfo} */ (server.info);
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
      if (!t.refresh_token)
        throw new Error(`no refresh token for ${clientId}: ${JSON.stringify(Object.keys(t))}`);
      out.push(t.refresh_token);
    }
  }
  return out;
}

/**
 * The refresh tokens a refresh_token phase starts from. For a client with encrypted ID tokens,
 * the first is redeemed once by the runner and its ID token opened (id-token-sample.mjs).
 * @param {RunContext} ctx
 * @param {Server} server
 * @param {string} alg
 * @param {string} clientId
 * @param {NonNullable<import('../types.d.ts').ServerClients['encrypted']>[string] | undefined} encrypted
 * @returns {Promise<{ refreshTokens: string[], sample?: EncryptedIdTokenSample }>}
 */
async function refreshStart(ctx, server, alg, clientId, encrypted) {
  const refreshTokens = await mintRefreshTokens(server, clientId, ctx.opts.vus);
  const first = refreshTokens[0];
  if (!encrypted || first === undefined) return { refreshTokens };
  const opened = await openEncryptedIdToken(server.info.issuer, encrypted, alg, first);
  refreshTokens[0] = opened.refreshToken;
  return { refreshTokens, sample: opened.sample };
}

/**
 * The k6 config of a phase, and the decrypted sample of a client with encrypted ID tokens.
 * @param {RunContext} ctx
 * @param {Server} server
 * @param {string} grant
 * @param {string} alg
 * @param {string} phaseName
 * @param {Record<string, unknown>} extra
 * @param {JweConfig | undefined} jwe the variant's idTokenEncryption
 */
async function phaseConfig(ctx, server, grant, alg, phaseName, extra, jwe) {
  const client = server.info.clients[alg];
  if (!client) throw new Error(`${server.info.issuer} has no client for ${alg}`);
  const encrypted = jwe ? client.encrypted?.[jwe.alg] : undefined;
  if (jwe && !encrypted)
    throw new Error(`${server.info.issuer} has no ${jwe.alg} ID-token client for ${alg}`);
  const publicId = encrypted?.id ?? client.public?.id;
  if (grant === 'refresh_token' && !publicId) throw new Error(`no public client for ${alg}`);
  const refresh =
    grant === 'refresh_token' ? await refreshStart(ctx, server, alg, publicId ?? '', encrypted) : undefined;
  const warmup = phaseName === 'warmup';
  const config = {
    tokenUrl: `${server.info.issuer}/token`,
    grant,
    alg,
    phase: warmup ? 'saturate' : phaseName,
    duration: warmup ? Math.max(1, Math.round(ctx.opts.duration / 3)) : ctx.opts.duration,
    vus: ctx.opts.vus,
    ceiling: 5000,
    maxErrorRate: 0.01,
    clientId: grant === 'client_credentials' ? client.confidential.id : publicId,
    secret: client.confidential?.secret,
    ...extra,
    // k6 checks that every ID token is a JWE of this alg (five parts, its header's alg).
    ...(encrypted ? { idTokenJwe: encrypted.jwe.alg } : {}),
    ...(refresh ? { refreshTokens: refresh.refreshTokens } : {}),
  };
  return { config, sample: refresh?.sample };
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
 * @param {JweConfig} [jwe] the variant's idTokenEncryption
 * @returns {Promise<ThroughputRow>}
 */
export async function runPhase(ctx, target, server, grant, alg, phaseName, extra, jwe) {
  const { config, sample } = await phaseConfig(ctx, server, grant, alg, phaseName, extra, jwe);
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
    idTokenBytes: metric(summary, 'id_token_bytes')?.values?.avg,
    ...(jwe && sample ? { idTokenEncryption: { ...jwe, sample } } : {}),
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
      await runPhase(ctx, v.target, server, grant, first, 'warmup', request(first), v.idTokenEncryption);
  for (const grant of v.grants) {
    for (const alg of algs) {
      /** @type {ThroughputRow | undefined} */
      let previous;
      for (const p of PHASES)
        previous = await runPhase(
          ctx,
          v.target,
          server,
          grant,
          alg,
          p.name,
          { ...request(alg), ...p.request(previous) },
          v.idTokenEncryption,
        );
    }
  }
}
