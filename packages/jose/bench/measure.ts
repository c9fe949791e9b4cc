/** Per-operation timing with `process.hrtime.bigint()`: warm up, then sample within a time budget. */

export interface Stats {
  samples: number;
  /** Microseconds. */
  median: number;
  p99: number;
  mean: number;
  min: number;
  /** Sequential throughput: 1 / mean. */
  opsPerSec: number;
}

export interface MeasureOptions {
  /** Sampling time budget (ms). */
  budgetMs: number;
  /** Warm-up time (ms, default 10% of the budget, at most 200 ms); at least `minWarmup` ops. */
  warmupMs?: number;
  minWarmup?: number;
  /** Keep sampling past the budget until this many samples (default 20). */
  minSamples?: number;
  maxSamples?: number;
}

export function stats(samplesNs: readonly bigint[]): Stats {
  const us = samplesNs.map((n) => Number(n) / 1000).sort((a, b) => a - b);
  const n = us.length;
  if (n === 0)
    return {
      samples: 0,
      median: Number.NaN,
      p99: Number.NaN,
      mean: Number.NaN,
      min: Number.NaN,
      opsPerSec: Number.NaN,
    };
  const at = (q: number) => us[Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1))] as number;
  const median =
    n % 2 ? (us[(n - 1) / 2] as number) : ((us[n / 2 - 1] as number) + (us[n / 2] as number)) / 2;
  const mean = us.reduce((a, b) => a + b, 0) / n;
  return { samples: n, median, p99: at(0.99), mean, min: us[0] as number, opsPerSec: 1e6 / mean };
}

/**
 * Times `fn` one call at a time. `setup` (untimed) runs before each call and its result is passed
 * in, so per-op inputs such as fresh seeds do not count.
 */
export async function measure<T = undefined>(
  fn: (input: T) => unknown,
  opts: MeasureOptions,
  setup?: () => T,
): Promise<Stats> {
  const { budgetMs, minSamples = 20, maxSamples = 1_000_000, minWarmup = 3 } = opts;
  const warmupMs = opts.warmupMs ?? Math.min(200, budgetMs / 10);
  const next = setup ?? ((() => undefined) as () => T);
  const warmEnd = process.hrtime.bigint() + BigInt(Math.round(warmupMs * 1e6));
  for (let i = 0; i < minWarmup || process.hrtime.bigint() < warmEnd; i++) await fn(next());
  const samples: bigint[] = [];
  const end = process.hrtime.bigint() + BigInt(Math.round(budgetMs * 1e6));
  while (samples.length < maxSamples && (samples.length < minSamples || process.hrtime.bigint() < end)) {
    const input = next();
    const t0 = process.hrtime.bigint();
    await fn(input);
    samples.push(process.hrtime.bigint() - t0);
  }
  return stats(samples);
}

const nf0 = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const nf1 = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** µs with one decimal below 100, integers above, thousands separators. */
export const fmtUs = (us: number): string =>
  Number.isFinite(us) ? (us < 100 ? nf1.format(us) : nf0.format(us)) : '-';
export const fmtInt = (n: number): string => (Number.isFinite(n) ? nf0.format(n) : '-');
export const fmtRatio = (r: number): string =>
  Number.isFinite(r) ? `${r >= 10 ? nf0.format(r) : r.toFixed(r >= 1 ? 1 : 2)}×` : '-';
