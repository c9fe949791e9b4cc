/**
 * The report: results.json, report.md and report.html with SVG plots rendered server-side by
 * vega-lite -> vega (no browser). The capacity model follows the signature-placement paper
 * (shared/seeds/002): server CPU seconds per token -> tokens per core-second -> retained
 * capacity vs the ES256 baseline -> infrastructure multiplier -> cost per million tokens at a
 * $/vCPU-hour price.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vega from 'vega';
import { compile } from 'vega-lite';

const f = (n, d = 1) => (n === undefined || n === null || !Number.isFinite(n) ? '–' : n.toFixed(d));
const int = (n) =>
  n === undefined || n === null || !Number.isFinite(n) ? '–' : Math.round(n).toLocaleString('en-US');
const yes = (b) => (b === undefined ? '–' : b ? 'yes' : '**no**');

/** Capacity model rows from the throughput phases (saturate + steady pooled per alg). */
export function capacityModel(results) {
  const price = results.meta.pricePerVcpuHour;
  const rows = [];
  const groups = new Map();
  for (const r of results.throughput ?? []) {
    const k = `${r.target}|${r.grant}|${r.alg}`;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(r);
  }
  for (const [, phases] of groups) {
    const sat = phases.find((p) => p.phase === 'saturate');
    const steady = phases.find((p) => p.phase === 'steady');
    const tokens = phases.reduce((s, p) => s + p.tokens, 0);
    const cpu = phases.reduce((s, p) => s + p.serverCpuSeconds, 0);
    const perCoreSecond = cpu > 0 ? tokens / cpu : Number.NaN;
    rows.push({
      target: sat.target,
      grant: sat.grant,
      alg: sat.alg,
      peakTokensPerSecond: sat.tokensPerSecond,
      steadyRate: steady?.offeredRate,
      steadyTokensPerSecond: steady?.tokensPerSecond,
      p50: steady?.p50,
      p95: steady?.p95,
      p99: steady?.p99,
      max: steady?.max,
      satP99: sat.p99,
      errorRate: Math.max(sat.errorRate, steady?.errorRate ?? 0),
      jwt: sat.jwtAccessTokens > 0,
      cpuMsPerToken: tokens > 0 ? (cpu / tokens) * 1000 : Number.NaN,
      tokensPerCoreSecond: perCoreSecond,
      tokensPerVcpuHour: perCoreSecond * 3600,
      costPerMillion: (1e6 / (perCoreSecond * 3600)) * price,
    });
  }
  for (const r of rows) {
    const base = rows.find((b) => b.target === r.target && b.grant === r.grant && b.alg === 'ES256');
    r.retained = base ? r.tokensPerCoreSecond / base.tokensPerCoreSecond : Number.NaN;
    r.infraMultiplier = 1 / r.retained;
    r.throughputRatio = base ? r.peakTokensPerSecond / base.peakTokensPerSecond : Number.NaN;
    r.p99Ratio = base && r.p99 && base.p99 ? r.p99 / base.p99 : Number.NaN;
  }
  return rows;
}

/**
 * Placement study: what signing the hot path (every token) with a slow signer does, against
 * using it only on the cold path (e.g. a signed JWKS / metadata statement, re-signed once an
 * hour). ES256 and ML-DSA-65 rows are measured; SLH-DSA rows are MODELLED from the measured
 * per-token non-signing CPU and SLH-DSA's measured per-op sign cost — the IdP does not serve them.
 */
export function placementModel(results, capacity) {
  const price = results.meta.pricePerVcpuHour;
  const grant = capacity.some((r) => r.target === 'pqid' && r.grant === 'refresh_token')
    ? 'refresh_token'
    : 'client_credentials';
  // refresh_token signs an ID token and a JWT access token; client_credentials one access token.
  const signsPerToken = grant === 'refresh_token' ? 2 : 1;
  const row = (alg) => capacity.find((r) => r.target === 'pqid' && r.grant === grant && r.alg === alg);
  const es = row('ES256');
  const ml = row('ML-DSA-65');
  const sc = results.signCost ?? {};
  const slh = results.slhDsa ?? {};
  if (!es || !ml || !sc.ES256 || !slh['slh-dsa-sha2-128s']) return undefined;
  const esCpu = es.cpuMsPerToken;
  // Everything that is not signing: HTTP, routing, storage, JSON, the refresh-token rotation.
  const rest = Math.max(esCpu - (signsPerToken * sc.ES256.usPerOp) / 1000, esCpu * 0.1);
  const coldSignsPerHour = 1;
  const rate = ml.peakTokensPerSecond; // the operating point the cold-path signature is amortised over
  const s128s = slh['slh-dsa-sha2-128s'].usPerOp / 1000;
  const s128f = slh['slh-dsa-sha2-128f']?.usPerOp / 1000;
  const regimes = [
    { regime: 'ES256 everywhere (baseline)', placement: 'hot: ES256', measured: true, cpuMs: esCpu },
    { regime: 'ML-DSA-65 hot path', placement: 'hot: ML-DSA-65', measured: true, cpuMs: ml.cpuMsPerToken },
    {
      regime: 'ML-DSA-65 hot + SLH-DSA-128s cold path',
      placement: 'hot: ML-DSA-65, cold: SLH-DSA-SHA2-128s (1 signature/hour)',
      measured: false,
      cpuMs: ml.cpuMsPerToken + (s128s * coldSignsPerHour) / (rate * 3600),
    },
    ...(Number.isFinite(s128f)
      ? [
          {
            regime: 'SLH-DSA-128f hot path',
            placement: `hot: SLH-DSA-SHA2-128f (${signsPerToken} signatures/token)`,
            measured: false,
            cpuMs: rest + signsPerToken * s128f,
          },
        ]
      : []),
    {
      regime: 'SLH-DSA-128s hot path',
      placement: `hot: SLH-DSA-SHA2-128s (${signsPerToken} signatures/token)`,
      measured: false,
      cpuMs: rest + signsPerToken * s128s,
    },
  ];
  for (const r of regimes) {
    r.tokensPerCoreSecond = 1000 / r.cpuMs;
    r.retained = esCpu / r.cpuMs;
    r.infraMultiplier = r.cpuMs / esCpu;
    r.costPerMillion = (r.cpuMs / 1000 / 3600) * 1e6 * price;
  }
  return { grant, signsPerToken, restMs: rest, coldSignsPerHour, operatingRate: rate, regimes };
}

/**
 * Placement study from the placement scenario (load/run.mjs): every regime MEASURED on an IdP
 * whose cold-path root is SLH-DSA-SHA2-128s (it signs the SAML certificates and metadata and the
 * signed JWKS, which relying parties fetch during the phases) and whose clients sign their tokens
 * with ES256, ML-DSA-65, SLH-DSA-SHA2-128f or -128s. The cold path's re-signing after a rotation
 * is measured too (server CPU around the fetch that signs) and amortised at one rotation an hour.
 * The model's prediction (non-signing CPU + signatures × per-op cost) is kept beside each SLH-DSA
 * row as a check on both.
 */
export function measuredPlacement(results, capacity) {
  const run = results.placementRun;
  const price = results.meta.pricePerVcpuHour;
  const grant = 'refresh_token';
  const signsPerToken = 2;
  const row = (alg) =>
    capacity.find((r) => r.target === 'pqid-placement' && r.grant === grant && r.alg === alg);
  const es = row('ES256');
  const ml = row('ML-DSA-65');
  if (!es || !ml) return undefined;
  const cold = run.coldPath.objects;
  const coldCpuMs = cold.signedJwks.resign.cpuMs + cold.metadata.resign.cpuMs;
  const coldSignsPerHour = 1;
  const rate = ml.peakTokensPerSecond;
  const esSign = results.signCost?.ES256?.usPerOp;
  // The model's non-signing CPU per token, for the predictions beside the measured SLH-DSA rows.
  const rest =
    esSign !== undefined ? Math.max(es.cpuMsPerToken - (signsPerToken * esSign) / 1000, 0) : undefined;
  const predict = (variant) =>
    rest !== undefined && results.slhDsa?.[variant]
      ? rest + (signsPerToken * results.slhDsa[variant].usPerOp) / 1000
      : undefined;
  const regimes = [
    {
      regime: 'ES256 everywhere (baseline)',
      placement: 'hot: ES256 (cold path: SLH-DSA-SHA2-128s root)',
      measured: true,
      cpuMs: es.cpuMsPerToken,
    },
    {
      regime: 'ML-DSA-65 hot + SLH-DSA-128s cold path',
      placement: `hot: ML-DSA-65; cold: SLH-DSA-SHA2-128s re-signing the JWKS statement and the SAML metadata once an hour (${f(coldCpuMs, 0)} ms CPU each time)`,
      measured: true,
      cpuMs: ml.cpuMsPerToken + (coldCpuMs * coldSignsPerHour) / (rate * 3600),
      hotCpuMs: ml.cpuMsPerToken,
    },
    ...[
      ['SLH-DSA-128f hot path', 'SLH-DSA-SHA2-128f', 'slh-dsa-sha2-128f'],
      ['SLH-DSA-128s hot path', 'SLH-DSA-SHA2-128s', 'slh-dsa-sha2-128s'],
    ]
      .map(([regime, alg, variant]) => {
        const r = row(alg);
        return r
          ? {
              regime,
              placement: `hot: ${alg} (${signsPerToken} signatures/token)`,
              measured: true,
              cpuMs: r.cpuMsPerToken,
              modelCpuMs: predict(variant),
              peakTokensPerSecond: r.peakTokensPerSecond,
              p99: r.p99,
            }
          : undefined;
      })
      .filter(Boolean),
  ];
  for (const r of regimes) {
    r.tokensPerCoreSecond = 1000 / r.cpuMs;
    r.retained = es.cpuMsPerToken / r.cpuMs;
    r.infraMultiplier = r.cpuMs / es.cpuMsPerToken;
    r.costPerMillion = (r.cpuMs / 1000 / 3600) * 1e6 * price;
  }
  return {
    grant,
    signsPerToken,
    coldSignsPerHour,
    operatingRate: rate,
    coldCpuMs,
    cold,
    regimes,
    measured: true,
  };
}

/** A vega-lite spec rendered to an SVG string (vega in Node, no browser); also used by load/faults.mjs. */
export async function svg(vlSpec) {
  const spec = compile({
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    config: {
      font: 'sans-serif',
      axis: { labelFontSize: 11, titleFontSize: 12 },
      legend: { labelFontSize: 11, labelLimit: 320 },
    },
    ...vlSpec,
  }).spec;
  const view = new vega.View(vega.parse(spec), { renderer: 'none' });
  const out = await view.toSVG();
  view.finalize();
  return out;
}

const limitLayer = (limits) => ({
  data: { values: limits },
  layer: [
    {
      mark: { type: 'rule', strokeDash: [6, 4], color: '#c0392b' },
      encoding: { y: { field: 'bytes', type: 'quantitative' } },
    },
    {
      mark: { type: 'text', align: 'left', dx: 4, dy: -6, color: '#c0392b', fontSize: 11 },
      encoding: { y: { field: 'bytes', type: 'quantitative' }, x: { value: 0 }, text: { field: 'label' } },
    },
  ],
});

function sizeChart(rows, field, title, limits, algs) {
  const values = rows
    .filter((r) => r[field] !== undefined)
    .map((r) => ({ alg: r.alg, profile: r.profile, bytes: r[field] }));
  return {
    title,
    width: 620,
    height: 260,
    layer: [
      {
        data: { values },
        mark: 'bar',
        encoding: {
          x: { field: 'alg', type: 'nominal', sort: algs, title: null, axis: { labelAngle: -40 } },
          xOffset: { field: 'profile', sort: ['minimal', 'typical', 'rich'] },
          y: { field: 'bytes', type: 'quantitative', title: 'bytes' },
          color: { field: 'profile', sort: ['minimal', 'typical', 'rich'], scale: { scheme: 'tableau10' } },
          tooltip: [{ field: 'alg' }, { field: 'profile' }, { field: 'bytes' }],
        },
      },
      limitLayer(limits),
    ],
  };
}

function barChart(values, { title, x = 'alg', y, yTitle, color, sort, rule, scaleType }) {
  const layer = [
    {
      data: { values },
      mark: 'bar',
      encoding: {
        x: {
          field: x,
          type: 'nominal',
          sort: sort ?? null,
          title: null,
          axis: { labelAngle: -40, labelLimit: 260 },
        },
        ...(color
          ? {
              xOffset: { field: color },
              color: { field: color, type: 'nominal', scale: { scheme: 'tableau10' } },
            }
          : {}),
        y: {
          field: y,
          type: 'quantitative',
          title: yTitle,
          ...(scaleType
            ? { scale: { type: scaleType, domainMin: 0.1, domainMax: 10_000 }, stack: null }
            : {}),
        },
        tooltip: [{ field: x }, ...(color ? [{ field: color }] : []), { field: y, format: '.3~f' }],
        // Bars on a log scale need an explicit base (the default base, 0, has no logarithm).
        ...(scaleType === 'log' ? { y2: { datum: 0.1 } } : {}),
      },
    },
  ];
  if (rule) layer.push(limitLayer(rule));
  return { title, width: 620, height: 260, layer };
}

/** Issue 12's targets (tokens per core-second, same run) and the HTTP floor, as report lines. */
export function issue12Targets(capacity) {
  const find = (t, g, a) => capacity.find((r) => r.target === t && r.grant === g && r.alg === a);
  const per = (r) => r?.tokensPerCoreSecond;
  const verdict = (x, min) => `${f(x, 2)} → **${x >= min ? 'met' : 'not met'}**`;
  const out = ['### Targets (issue 12, tokens per core-second)', ''];
  const opEs = find('oidc-provider', 'client_credentials', 'ES256');
  const ml = find('pqid', 'client_credentials', 'ML-DSA-65');
  const es = find('pqid', 'client_credentials', 'ES256');
  if (opEs && ml)
    out.push(
      `- pqid ML-DSA-65 ≥ 1.1× node-oidc-provider ES256 (client_credentials): ${verdict(per(ml) / per(opEs), 1.1)}`,
    );
  if (opEs && es)
    out.push(
      `- pqid ES256 ≥ 1.3× node-oidc-provider ES256 (client_credentials): ${verdict(per(es) / per(opEs), 1.3)}`,
    );
  const rtMl = find('pqid', 'refresh_token', 'ML-DSA-65');
  const rtEs = find('pqid', 'refresh_token', 'ES256');
  if (rtMl && rtEs)
    out.push(`- refresh_token: pqid ML-DSA-65 ≥ 0.9 of pqid ES256: ${verdict(per(rtMl) / per(rtEs), 0.9)}`);
  for (const grant of ['client_credentials', 'refresh_token']) {
    const rows = capacity.filter(
      (r) => r.target === 'pqid' && r.grant === grant && /^ML-DSA-\d+-/.test(r.alg),
    );
    const parts = rows
      .map((r) => [r, find('pqid', grant, r.alg.slice(0, 9))])
      .filter(([, pure]) => pure)
      .map(
        ([r, pure]) =>
          `${r.alg} ${f(per(r) / per(pure), 2)}${per(r) / per(pure) >= 0.87 ? '' : ' (not met)'}`,
      );
    if (parts.length) out.push(`- composites ≥ 0.87 of their pure ML-DSA (${grant}): ${parts.join(', ')}`);
  }
  for (const r of capacity.filter((x) => x.target === 'pqid-floor')) {
    const full = find('pqid', r.grant, r.alg);
    if (full)
      out.push(
        `- HTTP floor for ${r.alg} (same requests and response bytes, nothing behind them): ${f(r.cpuMsPerToken, 3)} ms of the ${f(full.cpuMsPerToken, 3)} ms per token; the IdP adds ${f(full.cpuMsPerToken - r.cpuMsPerToken, 3)} ms (client authentication, claims, signing, storage).`,
      );
  }
  return out;
}

/** Issue 12's per-token targets against node-oidc-provider's ES256 (client_credentials). */
const TARGET_RATIO = { ES256: 1.3, 'ML-DSA-65': 1.1 };

/**
 * The client_credentials token taken apart on the running server, from the harness phases of
 * this run (load/lib/idp-server.mjs): HTTP floor, + signature, + storage write, + protocol. Each
 * part is a difference of two targets' server CPU per token (saturate and steady pooled). The
 * saturate phases and the steady phases each give their own estimate of a part; half their
 * disagreement is its `noise`, the spread of one measurement within this run (its phases are
 * minutes apart on a shared machine).
 */
export function decomposeToken(results) {
  const rows = results.throughput ?? [];
  const measure = (target, alg) => {
    const ph = rows.filter((r) => r.target === target && r.grant === 'client_credentials' && r.alg === alg);
    const tokens = ph.reduce((n, r) => n + r.tokens, 0);
    if (!ph.length || tokens === 0) return undefined;
    const of = (name) => {
      const r = ph.find((x) => x.phase === name);
      return r && r.tokens > 0 ? (r.serverCpuSeconds / r.tokens) * 1000 : Number.NaN;
    };
    return {
      ms: (ph.reduce((c, r) => c + r.serverCpuSeconds, 0) / tokens) * 1000,
      saturate: of('saturate'),
      steady: of('steady'),
    };
  };
  const diff = (a, b) => {
    const noise = Math.abs(a.saturate - b.saturate - (a.steady - b.steady)) / 2;
    return { ms: a.ms - b.ms, noise: Number.isFinite(noise) ? noise : 0 };
  };
  const opEs = measure('oidc-provider', 'ES256');
  const out = [];
  for (const alg of Object.keys(TARGET_RATIO)) {
    const floor = measure('pqid-floor', alg);
    const sign = measure('pqid-sign-floor', alg);
    const store = measure('pqid-store-floor', alg);
    const token = measure('pqid', alg);
    if (!floor || !sign || !store || !token) continue;
    const ratio = TARGET_RATIO[alg];
    const budget = opEs ? opEs.ms / ratio : undefined;
    out.push({
      alg,
      http: { ms: floor.ms, noise: 0 },
      signature: diff(sign, floor),
      storage: diff(store, sign),
      protocol: diff(token, store),
      token: { ms: token.ms },
      // What cannot go without dropping a requirement: answering over HTTP, signing, storing.
      irreducible: { ms: store.ms },
      ...(opEs
        ? {
            target: {
              ratio,
              opEsMs: opEs.ms,
              budgetMs: budget,
              roomMs: budget - store.ms,
              cutMs: token.ms - budget,
            },
          }
        : {}),
    });
  }
  return out;
}

const part = (p) =>
  p.noise > 0
    ? `${f(p.ms, 3)} ± ${f(p.noise, 3)}${Math.abs(p.ms) <= p.noise ? ' (inside the noise)' : ''}`
    : f(p.ms, 3);

/** One progress line per algorithm: the decomposition as soon as its phases have run. */
export function tokenDecomposition(results) {
  return decomposeToken(results).map(
    (d) =>
      `${d.alg} token ${f(d.token.ms, 3)} ms CPU = HTTP ${part(d.http)} + signature ${part(d.signature)} + storage ${part(d.storage)} + protocol ${part(d.protocol)}`,
  );
}

/** One progress line per algorithm: issue 12's budget once node-oidc-provider has run. */
export function tokenBudget(results) {
  return decomposeToken(results)
    .filter((d) => d.target)
    .map(
      (d) =>
        `${d.alg} ≥ ${d.target.ratio}× node-oidc-provider ES256 (${f(d.target.opEsMs, 3)} ms) needs ≤ ${f(d.target.budgetMs, 3)} ms per token; HTTP + signature + storage are ${f(d.irreducible.ms, 3)} ms, leaving ${f(d.target.roomMs, 3)} ms for the protocol (now ${f(d.protocol.ms, 3)})`,
    );
}

/** The decomposition as a report section (markdown lines; none without the harness phases). */
export function decompositionSection(results) {
  const ds = decomposeToken(results);
  if (!ds.length) return [];
  const row = (label, get) => `| ${label} | ${ds.map((d) => get(d) ?? '–').join(' | ')} |`;
  const out = [
    '### Where a client_credentials token goes (issue 12, server CPU ms per token, this run)',
    '',
    'Harness routes of the same IdP, driven by the same k6 requests (`load/lib/idp-server.mjs`): `/__load/floor` answers a canned token response, `/__load/sign-floor` signs a fresh access token as the token endpoint does, `/__load/store-floor` also stores its record. Each part is the difference of two of them; the saturate and the steady phases each give an estimate of a part, and a part no larger than half their disagreement is marked as inside the noise (the phases of one run are minutes apart).',
    '',
    `| part | ${ds.map((d) => d.alg).join(' | ')} |`,
    `|---|${ds.map(() => '---:').join('|')}|`,
    row('HTTP floor: Node HTTP, fastify, hooks, the response bytes', (d) => part(d.http)),
    row('+ signature (sign-floor − floor): claims, JWS, signing', (d) => part(d.signature)),
    row('+ storage write (store-floor − sign-floor): digest, record, SQL', (d) => part(d.storage)),
    row('+ protocol (token − store-floor): body schema, client authentication, grant checks, metrics', (d) =>
      part(d.protocol),
    ),
    row('= the token endpoint', (d) => f(d.token.ms, 3)),
    row('HTTP + signature + storage (cannot go without dropping a requirement)', (d) =>
      f(d.irreducible.ms, 3),
    ),
  ];
  if (ds.some((d) => d.target))
    out.push(
      row('target: × node-oidc-provider ES256 tokens/core-s', (d) => d.target && `${d.target.ratio}×`),
      row(
        'budget per token (node-oidc-provider ES256 ms ÷ target)',
        (d) => d.target && f(d.target.budgetMs, 3),
      ),
      row('left for the protocol within the budget', (d) => d.target && f(d.target.roomMs, 3)),
      row('still to cut (token − budget)', (d) => d.target && f(Math.max(0, d.target.cutMs), 3)),
    );
  out.push('');
  return out;
}

export async function writeReport(outDir, results) {
  const capacity = capacityModel(results);
  const placement = results.placementRun
    ? measuredPlacement(results, capacity)
    : results.throughput
      ? placementModel(results, capacity)
      : undefined;
  results.capacity = capacity;
  results.placement = placement;
  results.decomposition = decomposeToken(results);
  writeFileSync(join(outDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);

  const algs = results.meta.algs;
  const b = results.meta.budgets;
  const charts = [];
  const add = async (name, caption, spec) => {
    const s = await svg(spec);
    writeFileSync(join(outDir, `${name}.svg`), s);
    charts.push({ name, caption, svg: s });
  };

  const md = [];
  const mode =
    results.meta.mode === 'smoke' ? ' — SMOKE RUN (seconds per phase: numbers are indicative only)' : '';
  md.push(`# pqid load and size report${mode}`, '');
  const m = results.meta.machine;
  md.push(
    `Run ${results.meta.started} → ${results.meta.finished} (${f(results.meta.elapsedSeconds, 0)} s), scenarios: ${results.meta.scenarios.join(', ')}.`,
    `Machine: ${m.cpus} × ${m.cpuModel}${m.cpuFlags ? ` (${m.cpuFlags})` : ''}, ${m.memoryGiB} GiB, Linux ${m.kernel}, Node ${m.node}, OpenSSL ${m.openssl}; load average at start ${m.loadavgAtStart.map((x) => x.toFixed(1)).join(' ')}, at end ${(results.meta.loadavgAtEnd ?? []).map((x) => x.toFixed(1)).join(' ')}.`,
    `ML-DSA backends available in the IdP: ${(results.meta.idp?.mldsaBackends ?? []).join(', ') || 'unknown'} (the runner's sign-cost benchmark used \`${results.meta.runnerMldsaBackend ?? '?'}\`).`,
    `k6: ${results.meta.k6}; throughput phases ${results.meta.duration} s × ${results.meta.vus} VUs; price ${results.meta.pricePerVcpuHour} $/vCPU-hour.`,
    '',
    ...(results.meta.idp?.mldsaBackends && !results.meta.idp.mldsaBackends.includes('native')
      ? [
          '**Note:** the native liboqs binding was not loadable when the IdP started, so ML-DSA signed through node:crypto (OpenSSL 3.5), which is several times slower per signature than the native backend: ML-DSA rows here are pessimistic.',
          '',
        ]
      : []),
    "The k6 load generator and the server share this machine, and other work may run beside them: absolute rates are noisy, so read the **ratios** (each algorithm against ES256, measured side by side in this run) and the **server CPU per token** (read from `/proc/<pid>/stat` around each k6 run, so it counts only the server's own work).",
    '',
  );

  if (capacity.length) {
    const pq = capacity.filter((r) => r.target === 'pqid');
    md.push('## Throughput and capacity', '');
    md.push(
      '`saturate`: ramping arrival rate up to a ceiling the VUs cannot reach (achieved rate = peak). `steady`: constant arrival rate at 70% of that peak (latency below saturation). Capacity model from server CPU time over both phases: tokens per core-second → retained capacity vs ES256 (same target and grant) → infrastructure multiplier (1/retained) → cost per million tokens.',
      '',
      '| target | grant | alg | JWT AT | peak tok/s | vs ES256 | p50 / p95 / p99 / max @70% (ms) | p99 vs ES256 | errors | server CPU ms/token | tokens/core-s | retained | infra × | $/M tokens |',
      '|---|---|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const r of capacity) {
      md.push(
        `| ${r.target} | ${r.grant} | ${r.alg} | ${r.jwt ? 'yes' : 'no'} | ${f(r.peakTokensPerSecond)} | ${f(r.throughputRatio, 2)} | ${f(r.p50)} / ${f(r.p95)} / ${f(r.p99)} / ${f(r.max)} | ${f(r.p99Ratio, 2)} | ${f(r.errorRate * 100, 2)}% | ${f(r.cpuMsPerToken, 3)} | ${f(r.tokensPerCoreSecond, 0)} | ${f(r.retained, 3)} | ${f(r.infraMultiplier, 2)} | ${f(r.costPerMillion, 4)} |`,
      );
    }
    md.push('');
    // The issue's targets, read off this run.
    const cc = (t, a) =>
      capacity.find((r) => r.target === t && r.grant === 'client_credentials' && r.alg === a);
    const rt = (a) => pq.find((r) => r.grant === 'refresh_token' && r.alg === a);
    const pqMl = cc('pqid', 'ML-DSA-65');
    const opEs = cc('oidc-provider', 'ES256');
    md.push('### Targets (issue 6)', '');
    if (pqMl && opEs)
      md.push(
        `- pqid ML-DSA-65 vs node-oidc-provider ES256 (client_credentials, same k6 script): ${f(pqMl.peakTokensPerSecond)} vs ${f(opEs.peakTokensPerSecond)} tok/s peak; ${f(pqMl.tokensPerCoreSecond, 0)} vs ${f(opEs.tokensPerCoreSecond, 0)} tokens/core-s → **${pqMl.tokensPerCoreSecond >= opEs.tokensPerCoreSecond ? 'met' : 'not met'}** (per core-second).`,
      );
    for (const grant of ['client_credentials', 'refresh_token']) {
      const ml = grant === 'refresh_token' ? rt('ML-DSA-65') : pqMl;
      if (ml)
        md.push(
          `- pqid ML-DSA-65 keeps ≥ 67% of its ES256 capacity (${grant}): retained ${f(ml.retained * 100, 0)}% (per core-second), ${f(ml.throughputRatio * 100, 0)}% (peak tok/s) → **${ml.retained >= 0.67 ? 'met' : 'not met'}**; p99 at 70% load ${f(ml.p99Ratio, 2)}× ES256 → **${ml.p99Ratio < 2 ? 'met' : 'not met'}** (< 2×).`,
        );
    }
    md.push('');
    md.push(...issue12Targets(capacity), '');
    md.push(...decompositionSection(results));
    const cost = pq.find((r) => r.grant === 'client_credentials' && r.alg === 'ES256');
    if (cost && cost.cpuMsPerToken > 3)
      md.push(
        `Note: client_credentials costs ${f(cost.cpuMsPerToken, 1)} ms of server CPU per token even for ES256 — the client secret is verified with scrypt (N=2^14) on every request, which dwarfs any signature. The refresh_token rows (public client, no secret) isolate signing.`,
        '',
      );
    const order = [...algs];
    // The harness floors are parts of a token, not a provider: no retained capacity or cost to plot.
    const tokenRows = capacity.filter((r) => !/^pqid-(sign-|store-)?floor$/.test(r.target));
    await add(
      'throughput',
      'Peak tokens per second (saturate phase), per algorithm and grant; node-oidc-provider for comparison.',
      barChart(
        capacity.map((r) => ({ alg: r.alg, series: `${r.target} ${r.grant}`, value: r.peakTokensPerSecond })),
        { title: 'Peak token rate', y: 'value', yTitle: 'tokens/s', color: 'series', sort: order },
      ),
    );
    await add(
      'p99',
      "p99 latency at 70% of each algorithm's own peak (steady phase).",
      barChart(
        capacity.map((r) => ({ alg: r.alg, series: `${r.target} ${r.grant}`, value: r.p99 })),
        { title: 'p99 latency at 70% load', y: 'value', yTitle: 'ms', color: 'series', sort: order },
      ),
    );
    await add(
      'retained',
      'Retained capacity vs ES256 (tokens per server core-second), with the 67% target.',
      barChart(
        tokenRows.map((r) => ({ alg: r.alg, series: `${r.target} ${r.grant}`, value: r.retained })),
        {
          title: 'Retained capacity vs ES256',
          y: 'value',
          yTitle: 'fraction of ES256',
          color: 'series',
          sort: order,
          rule: [{ bytes: 0.67, label: '67% target' }],
        },
      ),
    );
    await add(
      'cost',
      `Cost per million tokens at ${results.meta.pricePerVcpuHour} $/vCPU-hour, from measured server CPU time.`,
      barChart(
        tokenRows.map((r) => ({ alg: r.alg, series: `${r.target} ${r.grant}`, value: r.costPerMillion })),
        {
          title: 'Cost per million tokens',
          y: 'value',
          yTitle: '$ per million',
          color: 'series',
          sort: order,
        },
      ),
    );
  }

  if (placement?.measured) {
    const c = placement.cold;
    md.push('## Placement study: slow signer on the hot path vs the cold path (measured)', '');
    md.push(
      `The seed paper finds that SLH-DSA in the TLS leaf (signed on every handshake) collapses capacity by ~2500×, while SLH-DSA in the root (never signed live) costs little. The token analogue, served by a second IdP whose cold-path root is **SLH-DSA-SHA2-128s** — it certifies the SAML keys and signs the SAML metadata and the signed JWKS (\`/jwks.jwt\`), which the k6 clients fetch once per ${results.placementRun.coldTraffic.every} token requests during every phase — and whose clients sign tokens with ES256, ML-DSA-65, SLH-DSA-SHA2-128f or -128s (\`keys.allowSlhDsaHotPath\`). The **hot path** signs every token (${placement.signsPerToken} signatures per ${placement.grant} response). Every row is **measured** (server CPU per token from /proc); the cold path's re-signing after a rotation is measured below and amortised at ${placement.coldSignsPerHour} rotation/hour over the measured ML-DSA-65 rate (${f(placement.operatingRate)} tokens/s). "Model" is the earlier prediction (non-signing CPU + signatures × SLH-DSA per-op cost in the runner) for comparison.`,
      '',
      '| regime | placement | server CPU ms/token | model ms/token | tokens/core-s | retained vs ES256 | infra × | $/M tokens |',
      '|---|---|---:|---:|---:|---:|---:|---:|',
    );
    for (const r of placement.regimes)
      md.push(
        `| ${r.regime} | ${r.placement} | ${f(r.cpuMs, 3)} | ${r.modelCpuMs === undefined ? '–' : f(r.modelCpuMs, 3)} | ${f(r.tokensPerCoreSecond, 1)} | ${f(r.retained, 4)} | ${f(r.infraMultiplier, 1)} | ${f(r.costPerMillion, 4)} |`,
      );
    md.push(
      '',
      '**Cold path, measured from the running IdP** (median of the rounds; CPU = server process, only the fetch that signs):',
      '',
    );
    md.push(
      '| object | URL | bytes | signed with | signatures per re-sign | re-sign wall ms | re-sign server CPU ms | cached fetch p50 ms | CPU ms per cached fetch |',
      '|---|---|---:|---|---:|---:|---:|---:|---:|',
    );
    for (const [name, o] of Object.entries(c))
      md.push(
        `| ${name === 'signedJwks' ? 'signed JWKS (jwk-set+jwt)' : 'SAML metadata'} | \`${o.path}\` | ${int(o.bytes)} | ${o.signatureAlg ?? '?'} | ${o.resign.signatures} | ${f(o.resign.wallMs, 0)} | ${f(o.resign.cpuMs, 0)} | ${f(o.cached.p50Ms, 2)} | ${f(o.cached.cpuMsPerFetch, 3)} |`,
      );
    md.push('');
    await add(
      'placement',
      'Tokens per server core-second by placement regime (log scale), every regime measured on the running IdP.',
      barChart(
        placement.regimes.map((r) => ({ regime: r.regime, value: r.tokensPerCoreSecond, kind: 'measured' })),
        {
          title: 'Placement regimes (measured)',
          x: 'regime',
          y: 'value',
          yTitle: 'tokens per core-second',
          color: 'kind',
          scaleType: 'log',
        },
      ),
    );
  } else if (placement) {
    md.push('## Placement study: slow signer on the hot path vs the cold path (modelled)', '');
    md.push(
      `Run the \`placement\` scenario to measure these regimes on a running IdP; without it they are modelled. The seed paper finds that SLH-DSA in the TLS leaf (signed on every handshake) collapses capacity by ~2500×, while SLH-DSA in the root (never signed live) costs little. The token analogue: the **hot path** signs every token (${placement.signsPerToken} signature${placement.signsPerToken > 1 ? 's' : ''} per ${placement.grant} response); the **cold path** signs rarely (a signed JWKS / metadata statement, here ${placement.coldSignsPerHour}/hour, amortised over ${f(placement.operatingRate)} tokens/s).`,
      '',
      `ES256 and ML-DSA-65 rows are measured (server CPU per token, ${placement.grant} grant). SLH-DSA rows are **modelled**: non-signing CPU per token (${f(placement.restMs, 3)} ms = measured ES256 CPU per token minus its measured sign cost) plus the measured SLH-DSA sign cost per op (${Object.entries(
        results.slhDsa,
      )
        .map(
          ([k, v]) =>
            `${k} ${f(v.usPerOp / 1000, 1)} ms, ${v.signatureBytes} B signature, ${v.implementation}`,
        )
        .join('; ')}).`,
      '',
      '| regime | placement | measured? | server CPU ms/token | tokens/core-s | retained vs ES256 | infra × | $/M tokens |',
      '|---|---|---|---:|---:|---:|---:|---:|',
    );
    for (const r of placement.regimes)
      md.push(
        `| ${r.regime} | ${r.placement} | ${r.measured ? 'measured' : 'modelled'} | ${f(r.cpuMs, 3)} | ${f(r.tokensPerCoreSecond, 1)} | ${f(r.retained, 4)} | ${f(r.infraMultiplier, 1)} | ${f(r.costPerMillion, 4)} |`,
      );
    md.push('');
    await add(
      'placement',
      'Tokens per server core-second by placement regime (log scale); SLH-DSA rows are modelled from measured per-op cost.',
      barChart(
        placement.regimes.map((r) => ({
          regime: r.regime,
          value: r.tokensPerCoreSecond,
          kind: r.measured ? 'measured' : 'modelled',
        })),
        {
          title: 'Placement regimes',
          x: 'regime',
          y: 'value',
          yTitle: 'tokens per core-second',
          color: 'kind',
          scaleType: 'log',
        },
      ),
    );
  }

  if (results.signCost) {
    md.push('### Sign cost per operation (runner process, CPU time)', '');
    md.push('| alg | µs per signJwt |', '|---|---:|');
    for (const [alg, c] of Object.entries(results.signCost)) md.push(`| ${alg} | ${f(c.usPerOp, 0)} |`);
    md.push('');
  }

  if (results.sizes) {
    const s = results.sizes;
    md.push('## Sizes', '');
    md.push(
      `Minimal profile = tokens the IdP issued in a real login (access tokens: ${s.accessTokenFormat}); typical/rich = the same claims plus profile, group and role claims, signed by the runner under the same algorithm. Cookie = \`id_token=<jwt>; Path=/; Secure; HttpOnly; SameSite=Lax\` against ${b.cookie} B (RFC 6265 counts name, value and attributes); Authorization = \`Authorization: Bearer <access token>\` against ${b.headerLine} B (nginx/Apache line) and ${b.nodeHeaders} B (Node's total header limit); logout URL = end_session_endpoint with \`id_token_hint\` against ${b.urlConservative} and ${b.url} B; DPoP = \`DPoP: <proof>\` with the client's public key of that algorithm. Live JWKS (all ${algs.length} keys): ${int(s.jwksLive)} B.${s.endSessionEndpoint ? '' : ' (The IdP does not advertise an end_session_endpoint yet: the logout URL uses <issuer>/logout.)'}`,
      '',
      '| alg | profile | ID token | Set-Cookie (≤ cookie?) | AT | Authorization line (≤ 8190?) | logout URL (≤ 2048? ≤ 8000?) | DPoP header (≤ 8190? ≤ 16384?) | bearer accepted by IdP | DPoP proof accepted by IdP |',
      '|---|---|---:|---|---:|---|---|---|---|---|',
    );
    const accepted = (v) => (v === undefined ? '–' : v ? 'yes' : 'no');
    for (const r of s.rows)
      md.push(
        `| ${r.alg} | ${r.profile} | ${int(r.idToken)} | ${int(r.setCookie)} (${yes(r.fitsCookie)}) | ${int(r.accessToken)} | ${int(r.authorizationHeader)} (${yes(r.fitsHeaderLine)}) | ${int(r.logoutUrl)} (${yes(r.fitsUrlConservative)}, ${yes(r.fitsUrl)}) | ${r.dpopHeader === undefined ? '–' : `${int(r.dpopHeader)} (${yes(r.dpopFitsHeaderLine)}, ${yes(r.dpopFitsNodeHeaders)})`} | ${accepted(r.bearerAcceptedByIdp)} | ${accepted(r.dpopAcceptedByIdp)} |`,
      );
    const jarRows = s.rows.filter((r) => r.authorizationUrlJar !== undefined);
    if (jarRows.length) {
      md.push(
        '',
        '### Signed authorization requests: by value or pushed (PAR)',
        '',
        `A request object (JAR, RFC 9101: the code-flow parameters signed by the client with its key of that algorithm) sent by value makes the authorization URL \`authorization_endpoint?client_id=…&request=<jwt>\`; pushed to the PAR endpoint (RFC 9126, a back-channel POST the IdP answered live here), the browser's URL carries only \`client_id\` and a \`request_uri\`. Against ${b.urlConservative} B (old proxies, CDNs) and ${b.url} B (RFC 9110).`,
        '',
        `| alg | request | URL with the request object (≤ ${b.urlConservative}? ≤ ${b.url}?) | URL through PAR (≤ ${b.urlConservative}?) | pushed to the IdP |`,
        '|---|---|---|---|---|',
      );
      for (const r of jarRows)
        md.push(
          `| ${r.alg} | ${r.profile === 'rich' ? 'rich (+ claims, authorization_details)' : 'code flow'} | ${int(r.authorizationUrlJar)} (${yes(r.jarFitsUrlConservative)}, ${yes(r.jarFitsUrl)}) | ${int(r.authorizationUrlPar)} (${yes(r.parFitsUrlConservative)}) | ${accepted(r.parAcceptedByIdp)} |`,
        );
    }
    md.push(
      '',
      `JWKS with one key, per algorithm: ${Object.entries(s.jwks)
        .map(([a, n]) => `${a} ${int(n)} B`)
        .join(', ')}.`,
      '',
    );
    if (s.saml?.length) {
      md.push(
        '### SAML',
        '',
        `From the IdP's own SAML signing code (\`samlSizes()\`): a signed AuthnRequest over HTTP-Redirect (the signature travels in the query, so it meets URL limits: ${b.urlConservative} and ${b.url} B) and a signed Response (Response and Assertion both signed, the leaf certificate from an ML-DSA-87 root in each KeyInfo) in its auto-submitting HTTP-POST form. Responses always use POST.`,
        '',
        `| alg | signature | Redirect URL (≤ ${b.urlConservative}? ≤ ${b.url}?) | Response XML | POST form |`,
        '|---|---:|---|---:|---:|',
      );
      for (const r of s.saml)
        md.push(
          `| ${r.alg} | ${int(r.signature)} | ${int(r.redirectUrl)} (${yes(r.fitsUrlConservative)}, ${yes(r.fitsUrl)}) | ${int(r.responseXml)} | ${int(r.postForm)} |`,
        );
      md.push('');
    } else {
      md.push(
        'SAML sizes: none of the SAML algorithms (ES256, RS256, ML-DSA-44/65/87) was among --algs.',
        '',
      );
    }
    await add(
      'size-cookie',
      'ID token as one Set-Cookie value (name=value; attributes) against the 4096-byte cookie limit.',
      sizeChart(
        s.rows,
        'setCookie',
        'ID token in one cookie',
        [{ bytes: b.cookie, label: `${b.cookie} B cookie` }],
        algs,
      ),
    );
    await add(
      'size-authorization',
      'JWT access token as an Authorization header line against 8190 (nginx/Apache) and 16384 (Node) bytes.',
      sizeChart(
        s.rows,
        'authorizationHeader',
        'Authorization: Bearer <JWT access token>',
        [
          { bytes: b.headerLine, label: `${b.headerLine} B header line` },
          { bytes: b.nodeHeaders, label: `${b.nodeHeaders} B Node headers` },
        ],
        algs,
      ),
    );
    await add(
      'size-logout',
      'Logout URL with id_token_hint against 2048 and 8000 bytes.',
      sizeChart(
        s.rows,
        'logoutUrl',
        'Logout URL with id_token_hint',
        [
          { bytes: b.urlConservative, label: `${b.urlConservative} B URL` },
          { bytes: b.url, label: `${b.url} B URL (RFC 9110)` },
        ],
        algs,
      ),
    );
    await add(
      'size-dpop',
      "DPoP proof header with the client's public key, against the 8190-byte header line and Node's 16384-byte default for all headers (the IdP raises it: maxHeaderBytes).",
      sizeChart(
        s.rows,
        'dpopHeader',
        'DPoP: <proof>',
        [
          { bytes: b.headerLine, label: `${b.headerLine} B header line` },
          { bytes: b.nodeHeaders, label: `${b.nodeHeaders} B Node headers` },
        ],
        algs,
      ),
    );
    if (s.rows.some((r) => r.authorizationUrlJar !== undefined))
      await add(
        'size-authorization-request',
        'Authorization URL carrying a signed request object by value, and the URL PAR leaves, against 2048 and 8000 bytes.',
        barChart(
          s.rows
            .filter((r) => r.authorizationUrlJar !== undefined)
            .flatMap((r) => [
              { alg: r.alg, series: `${r.profile}: request object by value`, bytes: r.authorizationUrlJar },
              ...(r.profile === 'minimal'
                ? [{ alg: r.alg, series: 'through PAR', bytes: r.authorizationUrlPar }]
                : []),
            ]),
          {
            title: 'Authorization URL: signed request object vs PAR',
            y: 'bytes',
            yTitle: 'bytes',
            color: 'series',
            sort: algs,
            rule: [
              { bytes: b.urlConservative, label: `${b.urlConservative} B URL` },
              { bytes: b.url, label: `${b.url} B URL (RFC 9110)` },
            ],
          },
        ),
      );
    if (s.saml?.length)
      await add(
        'size-saml-redirect',
        'Signed AuthnRequest as an HTTP-Redirect URL (signature in the query), against 2048 and 8000 bytes.',
        sizeChart(
          s.saml.map((r) => ({ ...r, profile: 'typical' })),
          'redirectUrl',
          'SAML HTTP-Redirect URL, signed AuthnRequest',
          [
            { bytes: b.urlConservative, label: `${b.urlConservative} B URL` },
            { bytes: b.url, label: `${b.url} B URL (RFC 9110)` },
          ],
          algs,
        ),
      );
  }

  if (results.login) {
    const l = results.login;
    md.push('## Login (authorization code flow through the login form)', '');
    md.push(
      `${l.flows} flows at ${l.rate}/s for ${l.duration} s, algorithms round-robin (same conditions for each); errors ${f(l.errorRate * 100, 2)}%; server CPU ${f((l.serverCpuSeconds / Math.max(l.flows, 1)) * 1000, 1)} ms per flow (dominated by the scrypt password hash).`,
      '',
      '| alg | flows | flow p50 / p95 / p99 (ms) | code exchange p50 / p99 (ms) | errors |',
      '|---|---:|---|---|---:|',
    );
    for (const r of l.perAlg)
      md.push(
        `| ${r.alg} | ${r.flows} | ${f(r.flowP50)} / ${f(r.flowP95)} / ${f(r.flowP99)} | ${f(r.exchangeP50)} / ${f(r.exchangeP99)} | ${f(r.errorRate * 100, 1)}% |`,
      );
    md.push('');
    await add(
      'login',
      'Login flow p50 and code-exchange p50 per algorithm.',
      barChart(
        l.perAlg.flatMap((r) => [
          { alg: r.alg, series: 'whole flow p50', value: r.flowP50 },
          { alg: r.alg, series: 'code exchange p50', value: r.exchangeP50 },
        ]),
        { title: 'Login latency', y: 'value', yTitle: 'ms', color: 'series', sort: algs },
      ),
    );
  }

  if (results.tls) {
    const t = results.tls;
    md.push('## TLS: hybrid X25519MLKEM768 vs X25519', '');
    md.push(
      `Each request is a new TLS 1.3 handshake (k6 \`noConnectionReuse\`) to a trivial endpoint of the IdP process, HTTPS via node:https with \`ecdhCurve\` set per listener; P-256 self-signed certificate made at run time. Group a Node client negotiates: ${Object.entries(
        t.negotiated,
      )
        .map(([k, v]) => `${k} listener → ${v}`)
        .join(', ')}.`,
      '',
      '| round | listener | handshakes/s | handshake p50 / p95 / p99 (ms) | server CPU ms/handshake | errors |',
      '|---:|---|---:|---|---:|---:|',
    );
    for (const [i, r] of t.rounds.entries())
      md.push(
        `| ${i + 1} | ${r.group} (\`${r.ecdhCurve}\`) | ${f(r.handshakesPerSecond)} | ${f(r.handshakeP50, 2)} / ${f(r.handshakeP95, 2)} / ${f(r.handshakeP99, 2)} | ${f(r.serverCpuMsPerHandshake, 3)} | ${f(r.errorRate * 100, 2)}% |`,
      );
    const agg = (g) => {
      const rs = t.rounds.filter((r) => r.group === g);
      const hs = rs.reduce((s, r) => s + r.handshakes, 0);
      const cpu = rs.reduce((s, r) => s + r.serverCpuSeconds, 0);
      return {
        hs,
        cpuMs: (cpu / Math.max(hs, 1)) * 1000,
        rate: rs.reduce((s, r) => s + r.handshakesPerSecond, 0) / rs.length,
      };
    };
    const h = agg('X25519MLKEM768');
    const c = agg('X25519');
    t.summary = { hybrid: h, classical: c, rateRatio: h.rate / c.rate, cpuRatio: h.cpuMs / c.cpuMs };
    md.push(
      '',
      `Hybrid vs classical: ${f(t.summary.rateRatio * 100, 0)}% of the handshake rate, ${f(t.summary.cpuRatio, 2)}× the server CPU per handshake (the seed's OpenSSL 3.5 measurement: ~13% fewer handshakes/s with the hybrid key share).`,
      '',
    );
    await add(
      'tls',
      'New TLS handshakes per second by key-exchange group (each round).',
      barChart(
        t.rounds.map((r, i) => ({ alg: `${i + 1}: ${r.group}`, value: r.handshakesPerSecond })),
        { title: 'TLS handshakes per second', y: 'value', yTitle: 'handshakes/s' },
      ),
    );
  }

  md.push('## Plots', '');
  for (const c of charts) md.push(`![${c.caption}](${c.name}.svg)`, '', `*${c.caption}*`, '');
  const mdText = `${md.join('\n')}\n`;
  const mdPath = join(outDir, 'report.md');
  writeFileSync(mdPath, mdText);
  writeFileSync(join(outDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);

  const html = renderHtml(mdText, charts);
  const htmlPath = join(outDir, 'report.html');
  writeFileSync(htmlPath, html);
  return { md: mdPath, html: htmlPath, capacity, placement };
}

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A small markdown-to-HTML pass for what report.md contains: headings, tables, lists, paragraphs. */
function renderHtml(mdText, charts) {
  const inline = (s) =>
    esc(s)
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
      .replace(/`([^`]+)`/g, '<code>$1</code>')
      .replace(/\*([^*]+)\*/g, '<em>$1</em>');
  const lines = mdText.split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('## Plots')) break;
    const h = /^(#{1,3}) (.*)$/.exec(line);
    if (h) {
      out.push(`<h${h[1].length}>${inline(h[2])}</h${h[1].length}>`);
    } else if (line.startsWith('|')) {
      const rows = [];
      while (i < lines.length && lines[i].startsWith('|')) rows.push(lines[i++]);
      i--;
      const cells = (r) =>
        r
          .slice(1, -1)
          .split('|')
          .map((c) => c.trim());
      out.push(
        '<table><thead><tr>',
        ...cells(rows[0]).map((c) => `<th>${inline(c)}</th>`),
        '</tr></thead><tbody>',
      );
      for (const r of rows.slice(2))
        out.push('<tr>', ...cells(r).map((c) => `<td>${inline(c)}</td>`), '</tr>');
      out.push('</tbody></table>');
    } else if (line.startsWith('- ')) {
      out.push(`<ul><li>${inline(line.slice(2))}</li></ul>`);
    } else if (line.trim()) {
      out.push(`<p>${inline(line)}</p>`);
    }
  }
  out.push('<h2>Plots</h2>');
  for (const c of charts) out.push(`<figure>${c.svg}<figcaption>${esc(c.caption)}</figcaption></figure>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pqid load report</title>
<style>
body{font-family:system-ui,sans-serif;max-width:1200px;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;font-size:13px;margin:1rem 0}th,td{border:1px solid #ccc;padding:3px 6px;text-align:right}
th{background:#f3f3f3}td:first-child,td:nth-child(2),td:nth-child(3){text-align:left}
code{background:#f5f5f5;padding:0 3px}figure{margin:1.5rem 0}figcaption{font-size:13px;color:#555}
</style></head><body>
${out.join('\n')}
</body></html>
`;
}
