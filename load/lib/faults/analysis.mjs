/** Reading k6's request lines: failures, their kinds, successes per second, quantiles. */

/** @typedef {import('./types.d.ts').Line} Line */

/**
 * The q-quantile of sorted numbers (nearest rank), NaN for none.
 * @param {number[]} sorted
 * @param {number} q
 */
export const quantile = (sorted, q) =>
  sorted.length
    ? (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN)
    : Number.NaN;

/**
 * Successes and failures per second from `t0` to `t1`.
 * @param {Line[]} rows
 * @param {number} t0
 * @param {number} t1
 */
export function perSecond(rows, t0, t1) {
  const n = Math.ceil((t1 - t0) / 1000);
  const out = Array.from({ length: n }, (_, i) => ({ s: i, ok: 0, failed: 0 }));
  for (const r of rows) {
    const sec = out[Math.floor((r.t - t0) / 1000)];
    if (!sec) continue;
    if (r.status === 200) sec.ok++;
    else sec.failed++;
  }
  return out;
}

/** @param {Line[]} rows */
export const failures = (rows) => rows.filter((r) => r.status !== 200);

/**
 * How many requests ended how (`status` or `status error`).
 * @param {Line[]} rows
 */
export const statusCounts = (rows) => {
  /** @type {Record<string, number>} */
  const m = {};
  for (const r of rows) {
    const k = `${r.status}${r.error ? ` ${r.error}` : ''}`;
    m[k] = (m[k] ?? 0) + 1;
  }
  return m;
};

/** @param {Line[]} rows */
export const okCount = (rows) => rows.filter((x) => x.status === 200).length;
