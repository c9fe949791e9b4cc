/**
 * "Sign cost per operation": CPU µs per signature in the runner process, the median of repeated
 * timed loops with their spread, so an outlier loop shows instead of becoming the number.
 */
import { LARGE_SPREAD, MIN_SAMPLES, spreadText } from '../../spread.mjs';
import { int } from '../format.mjs';

/** @typedef {import('../../types.d.ts').Results} Results */
/** @typedef {import('../../types.d.ts').Section} Section */
/** @typedef {import('../../types.d.ts').SignCost} SignCost */

/**
 * The parameter set as FIPS 205 names it (node:crypto's `slh-dsa-sha2-128s` → SLH-DSA-SHA2-128s).
 * @param {string} variant
 */
const slhName = (variant) =>
  variant.toUpperCase().replace(/(\d)([SF])$/, (_, d, v) => `${d}${v.toLowerCase()}`);

/**
 * @param {string} label
 * @param {SignCost} c
 */
const row = (label, c) => `| ${label} | ${int(c.usPerOp)} | ${spreadText(c.spread, int)} |`;

/**
 * @param {Results} results
 * @returns {Section}
 */
export function signCostSection(results) {
  if (!results.signCost) return { md: [], charts: [] };
  const slh = Object.entries(results.slhDsa ?? {});
  const md = [
    '### Sign cost per operation (runner process, CPU time)',
    '',
    `Each figure is the median of timed loops repeated in turn across the algorithms (at least ${MIN_SAMPLES}), with the range of the loops beside it; ⚠ marks a spread above ${Math.round(LARGE_SPREAD * 100)}% of the median (the machine was busy during a loop: read that row with care). SLH-DSA rows are one raw signature over the claims.`,
    '',
    '| alg | µs per signJwt (median) | min–max of the loops |',
    '|---|---:|---|',
    ...Object.entries(results.signCost).map(([alg, c]) => row(alg, c)),
    ...slh.map(([variant, c]) => row(`${slhName(variant)}, raw signature (${c.implementation})`, c)),
    '',
  ];
  return { md, charts: [] };
}
