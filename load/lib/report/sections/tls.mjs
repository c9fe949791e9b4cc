/** "TLS": new handshakes per second and server CPU per handshake, hybrid X25519MLKEM768 against X25519. */
import { spreadOf, spreadText } from '../../spread.mjs';
import { f } from '../format.mjs';
import { barChart } from '../plots.mjs';

/** @typedef {import('../../types.d.ts').Results} Results */
/** @typedef {import('../../types.d.ts').Tls} Tls */
/** @typedef {import('../../types.d.ts').TlsGroupSummary} TlsGroupSummary */
/** @typedef {import('../../types.d.ts').Section} Section */

/**
 * One key-exchange group over its rounds: handshakes, CPU per handshake, mean rate and the rates' spread.
 * @param {Tls} t
 * @param {string} group
 * @returns {TlsGroupSummary}
 */
function aggregate(t, group) {
  const rs = t.rounds.filter((r) => r.group === group);
  const hs = rs.reduce((s, r) => s + r.handshakes, 0);
  const cpu = rs.reduce((s, r) => s + r.serverCpuSeconds, 0);
  return {
    hs,
    cpuMs: (cpu / Math.max(hs, 1)) * 1000,
    rate: rs.reduce((s, r) => s + r.handshakesPerSecond, 0) / rs.length,
    rounds: rs.length,
    rateSpread: spreadOf(rs.map((r) => r.handshakesPerSecond)),
  };
}

/**
 * Hybrid against classical over all rounds (kept in results.json as `tls.summary`).
 * @param {Tls} t
 */
export function tlsSummary(t) {
  const hybrid = aggregate(t, 'X25519MLKEM768');
  const classical = aggregate(t, 'X25519');
  return {
    hybrid,
    classical,
    rateRatio: hybrid.rate / classical.rate,
    cpuRatio: hybrid.cpuMs / classical.cpuMs,
  };
}

/**
 * @param {Results} results
 * @returns {Section}
 */
export function tlsSection(results) {
  const t = results.tls;
  if (!t?.summary) return { md: [], charts: [] };
  const { hybrid, classical, rateRatio, cpuRatio } = t.summary;
  /** @param {number} n */
  const rate = (n) => f(n, 0);
  const md = [
    '## TLS: hybrid X25519MLKEM768 vs X25519',
    '',
    `Each request is a new TLS 1.3 handshake (k6 \`noConnectionReuse\`) to a trivial endpoint of the IdP process, HTTPS via node:https with \`ecdhCurve\` set per listener; P-256 self-signed certificate made at run time. Group a Node client negotiates: ${Object.entries(
      t.negotiated,
    )
      .map(([k, v]) => `${k} listener → ${v}`)
      .join(', ')}.`,
    '',
    '| round | listener | handshakes/s | handshake p50 / p95 / p99 (ms) | server CPU ms/handshake | errors |',
    '|---:|---|---:|---|---:|---:|',
    ...t.rounds.map(
      (r, i) =>
        `| ${i + 1} | ${r.group} (\`${r.ecdhCurve}\`) | ${f(r.handshakesPerSecond)} | ${f(r.handshakeP50, 2)} / ${f(r.handshakeP95, 2)} / ${f(r.handshakeP99, 2)} | ${f(r.serverCpuMsPerHandshake, 3)} | ${f(r.errorRate * 100, 2)}% |`,
    ),
    '',
    `Hybrid vs classical: ${f(rateRatio * 100, 0)}% of the handshake rate, ${f(cpuRatio, 2)}× the server CPU per handshake (handshakes/s over the rounds: hybrid ${spreadText(hybrid.rateSpread, rate)}, classical ${spreadText(classical.rateSpread, rate)}). For scale: OpenSSL 3.5, which computes a hybrid ML-KEM key share on every TLS 1.3 connection by default, has been reported to complete ~13% fewer new handshakes per second than OpenSSL 3.4.`,
    '',
  ];
  const chart = {
    name: 'tls',
    caption: 'New TLS handshakes per second by key-exchange group (each round).',
    spec: barChart(
      t.rounds.map((r, i) => ({ alg: `${i + 1}: ${r.group}`, value: r.handshakesPerSecond })),
      { title: 'TLS handshakes per second', y: 'value', yTitle: 'handshakes/s', scale: 'linear' },
    ),
  };
  return { md, charts: [chart] };
}
