/** The fault script's report: report.md (verdicts, grant checks, the soak's windows and plots) and results.json. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { svg } from '../report/plots.mjs';

/** @typedef {import('./types.d.ts').FaultCase} FaultCase */
/** @typedef {import('./cases/soak.mjs').SoakResult} SoakResult */

/** @param {number | undefined} n @param {number} [d] */
const f = (n, d = 1) => (n !== undefined && Number.isFinite(n) ? n.toFixed(d) : '–');

/** @param {number[] | undefined} xs */
const loads = (xs) => (xs ?? []).map((x) => x.toFixed(1)).join(' ');

/**
 * One row per case: the fault, what is expected, the verdict, what was observed.
 * @param {FaultCase[]} cases
 */
export function summaryTable(cases) {
  const lines = ['| case | expected | verdict | observed |', '|---|---|---|---|'];
  for (const c of cases)
    lines.push(`| ${c.fault} | ${c.expected} | ${c.pass ? 'PASS' : '**FAIL**'} | ${c.observed} |`);
  return lines.join('\n');
}

/**
 * Each case's problems and its grant invariant in numbers.
 * @param {FaultCase[]} cases
 */
const caseDetails = (cases) =>
  cases.flatMap((c) => [
    ...(c.problems.length ? [`**${c.case} problems:**`, '', ...c.problems.map((p) => `- ${p}`), ''] : []),
    ...(c.grants
      ? [
          `${c.case}: grant invariant — ${c.grants.chains} chains (${c.grants.used} used), ${c.grants.tokensSeen} refresh tokens seen by k6, ${c.grants.rowsChecked} database rows checked, ${c.grants.alive} alive / ${c.grants.revoked} revoked (${c.grants.revokedExplained} explained), unused heads usable once ${c.grants.usableOnce}/${c.grants.usableOnce} and rejected on second use ${c.grants.secondUseRejected}.`,
          '',
        ]
      : []),
  ]);

/**
 * The soak's two plots: RSS per instance, and p50/p99 per window (linear: a drift is the point).
 * @param {SoakResult} s
 * @returns {[string, Record<string, unknown>][]}
 */
const soakPlots = (s) => [
  [
    'soak-rss.svg',
    {
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
    },
  ],
  [
    'soak-p99.svg',
    {
      title: 'Token request latency per 30 s window (k6, through the balancer)',
      width: 560,
      height: 220,
      data: {
        values: s.windows.flatMap((w) => [
          { minute: w.minute, ms: w.p99, stat: 'p99' },
          { minute: w.minute, ms: w.p50, stat: 'p50' },
        ]),
      },
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'minute', type: 'quantitative', title: 'minutes' },
        y: { field: 'ms', type: 'quantitative', title: 'ms', scale: { zero: true } },
        color: { field: 'stat', type: 'nominal' },
      },
    },
  ],
];

/**
 * The soak section (its plots are written beside the report).
 * @param {SoakResult} s
 */
const soakSection = (s) => [
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
];

/**
 * @param {string} outDir
 * @param {import('./types.d.ts').FaultResults} results
 */
export async function writeFaultReport(outDir, results) {
  const { meta } = results;
  const m = meta.machine;
  const md = [
    `# pqid ${meta.mode === 'soak' ? 'soak' : 'fault'} run (${meta.mode})`,
    '',
    `${meta.started} · ${m.cpus} vCPU ${m.cpuModel ?? ''} (${m.cpuFlags}), ${m.memoryGiB} GiB · Node ${m.node} · ${meta.k6} · IdP ML-DSA backend ${meta.idp?.mldsaBackend} · load average ${loads(m.loadavgAtStart)} → ${loads(meta.loadavgAtEnd)} · ${f(meta.elapsedSeconds, 0)} s`,
    '',
    'Two IdP instances (idp/dist/main.js) on one PostgreSQL database behind a round-robin balancer (load/lib/balancer.mjs); k6 (load/scenarios/soak.js) sends refresh_token rotations on per-VU chains and 5% client_credentials.',
    '',
    summaryTable(results.cases),
    '',
    ...caseDetails(results.cases),
  ];
  const files = {
    md: join(outDir, 'report.md'),
    json: join(outDir, 'results.json'),
    svgs: /** @type {string[]} */ ([]),
  };
  if (results.soak) {
    for (const [name, spec] of soakPlots(results.soak)) {
      writeFileSync(join(outDir, name), await svg(spec));
      files.svgs.push(name);
    }
    md.push(...soakSection(results.soak));
  }
  writeFileSync(files.md, md.join('\n'));
  writeFileSync(files.json, JSON.stringify(results, null, 2));
  return files;
}
