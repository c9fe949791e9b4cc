/** Number and flag formatting shared by the report sections. */

/**
 * A number with `d` decimals, or '–' when there is none.
 * @param {number | null | undefined} n
 * @param {number} [d]
 */
export const f = (n, d = 1) => (n === undefined || n === null || !Number.isFinite(n) ? '–' : n.toFixed(d));

/**
 * A whole number with thousands separators, or '–'.
 * @param {number | null | undefined} n
 */
export const int = (n) =>
  n === undefined || n === null || !Number.isFinite(n) ? '–' : Math.round(n).toLocaleString('en-US');

/**
 * A budget check: yes, a bold no, or '–' when it was not measured.
 * @param {boolean | undefined} b
 */
export const yes = (b) => (b === undefined ? '–' : b ? 'yes' : '**no**');

/**
 * Whether the IdP accepted something: yes, no, or '–' when it was not tried.
 * @param {boolean | undefined} v
 */
export const accepted = (v) => (v === undefined ? '–' : v ? 'yes' : 'no');
