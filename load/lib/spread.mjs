/**
 * The spread of a repeated measurement. The report quotes the median (one of the samples: the
 * lower middle one for an even count) and shows min and max beside it, so an outlier is visible
 * instead of averaged in; a measurement repeated fewer than MIN_SAMPLES times is marked, never
 * shown as if it were settled.
 */

/** Samples below this count are marked in the report ("1 sample: no spread"). */
export const MIN_SAMPLES = 3;

/**
 * (max − min) / median above this marks a row as noisy. Repeated CPU-time loops on a quiet
 * machine agree within a few percent; a third of the median means something else ran.
 */
export const LARGE_SPREAD = 0.3;

/**
 * @param {number[]} samples
 * @returns {import('./types.d.ts').Spread}
 */
export function spreadOf(samples) {
  const s = samples.filter(Number.isFinite).sort((a, b) => a - b);
  const n = s.length;
  const median = n ? (s[Math.floor((n - 1) / 2)] ?? Number.NaN) : Number.NaN;
  const min = s[0] ?? Number.NaN;
  const max = s[n - 1] ?? Number.NaN;
  const relative = n && median !== 0 ? (max - min) / Math.abs(median) : Number.NaN;
  return { n, min, median, max, relative, large: relative > LARGE_SPREAD };
}

/**
 * A spread as report text: `min–max` with the sample count, and a visible mark when the spread
 * is large or there is a single sample. `format` renders one number.
 * @param {import('./types.d.ts').Spread | undefined} s
 * @param {(n: number) => string} format
 */
export function spreadText(s, format) {
  if (!s || s.n === 0) return '–';
  if (s.n < 2) return `${format(s.median)} (**1 sample: no spread**)`;
  const range = `${format(s.min)}–${format(s.max)} (n=${s.n})`;
  if (s.large) return `${range} **⚠ spread ${Math.round(s.relative * 100)}%**`;
  return s.n < MIN_SAMPLES ? `${range} (few samples)` : range;
}
