/** The report's title and run description: when, on what machine, with which backends and settings. */
import { f } from '../format.mjs';

/** @typedef {import('../../types.d.ts').Results} Results */
/** @typedef {import('../../types.d.ts').Section} Section */

/** @param {number[] | undefined} xs */
const loads = (xs) => (xs ?? []).map((x) => x.toFixed(1)).join(' ');

/**
 * @param {Results} results
 * @returns {Section}
 */
export function headerSection({ meta }) {
  const m = meta.machine;
  const mode = meta.mode === 'smoke' ? ' — SMOKE RUN (seconds per phase: numbers are indicative only)' : '';
  const backends = meta.idp?.mldsaBackends;
  const md = [
    `# pqid load and size report${mode}`,
    '',
    `Run ${meta.started} → ${meta.finished} (${f(meta.elapsedSeconds, 0)} s), scenarios: ${meta.scenarios.join(', ')}.`,
    `Machine: ${m.cpus} × ${m.cpuModel}${m.cpuFlags ? ` (${m.cpuFlags})` : ''}, ${m.memoryGiB} GiB, Linux ${m.kernel}, Node ${m.node}, OpenSSL ${m.openssl}; load average at start ${loads(m.loadavgAtStart)}, at end ${loads(meta.loadavgAtEnd)}.`,
    `ML-DSA backends available in the IdP: ${(backends ?? []).join(', ') || 'unknown'} (the runner's sign-cost benchmark used \`${meta.runnerMldsaBackend ?? '?'}\`).`,
    `k6: ${meta.k6}; throughput phases ${meta.duration} s × ${meta.vus} VUs; price ${meta.pricePerVcpuHour} $/vCPU-hour.`,
    '',
    ...(backends && !backends.includes('native')
      ? [
          '**Note:** the native liboqs binding was not loadable when the IdP started, so ML-DSA signed through node:crypto (OpenSSL 3.5), which is several times slower per signature than the native backend: ML-DSA rows here are pessimistic.',
          '',
        ]
      : []),
    "The k6 load generator and the server share this machine, and other work may run beside them: absolute rates are noisy, so read the **ratios** (each algorithm against ES256, measured side by side in this run) and the **server CPU per token** (read from `/proc/<pid>/stat` around each k6 run, so it counts only the server's own work).",
    '',
  ];
  return { md, charts: [] };
}
