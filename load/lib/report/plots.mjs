/**
 * The report's plots: vega-lite specs rendered to SVG strings by vega in Node (no browser).
 *
 * Bar charts choose their y scale per plot: `linear` where the point is a comparison against a
 * limit line or between close values, `log` where the point is orders of magnitude, and `auto`
 * (the default) goes logarithmic when the bars span LOG_RATIO or more — otherwise one slow bar
 * (an SLH-DSA token at ~1 s) would flatten every other one.
 */
import * as vega from 'vega';
import { compile } from 'vega-lite';

/** max ÷ min of the bars from which `auto` draws a log axis (smallest bar < 5% of the tallest). */
export const LOG_RATIO = 20;

/**
 * @typedef {Record<string, unknown>} Spec a vega-lite spec (layered or single)
 * @typedef {{ bytes: number, label: string }} Limit a horizontal rule with its label
 * @typedef {Record<string, string | number | undefined>} Datum
 */

/**
 * A vega-lite spec rendered to an SVG string.
 * @param {Spec} vlSpec
 * @returns {Promise<string>}
 */
export async function svg(vlSpec) {
  const spec = compile(
    /** @type {import('vega-lite').TopLevelSpec} */ ({
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      config: {
        font: 'sans-serif',
        axis: { labelFontSize: 11, titleFontSize: 12 },
        legend: { labelFontSize: 11, labelLimit: 320 },
      },
      ...vlSpec,
    }),
  ).spec;
  const view = new vega.View(vega.parse(spec), { renderer: 'none' });
  const out = await view.toSVG();
  view.finalize();
  return out;
}

/**
 * Whether positive values span LOG_RATIO or more.
 * @param {unknown[]} values
 */
export function spansOrders(values) {
  const v = /** @type {number[]} */ (
    values.filter((x) => typeof x === 'number' && Number.isFinite(x) && x > 0)
  );
  return v.length > 1 && Math.max(...v) / Math.min(...v) >= LOG_RATIO;
}

/**
 * Powers of ten around the positive values: a log axis's domain, and the base its bars start from.
 * @param {unknown[]} values
 */
function logDomain(values) {
  const v = /** @type {number[]} */ (
    values.filter((x) => typeof x === 'number' && Number.isFinite(x) && x > 0)
  );
  const lo = v.length ? 10 ** Math.floor(Math.log10(Math.min(...v))) : 0.1;
  const hi = v.length ? 10 ** Math.ceil(Math.log10(Math.max(...v))) : 10;
  return { lo, hi: hi > lo ? hi : lo * 10 };
}

/**
 * Dashed horizontal rules with their labels (limits and targets).
 * @param {Limit[]} limits
 */
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

/**
 * Bytes per algorithm and claim profile against transport limits (always linear: the limits are the point).
 * @param {object[]} rows size rows
 * @param {string} field the size to plot
 * @param {string} title
 * @param {Limit[]} limits
 * @param {string[]} algs x order
 * @returns {Spec}
 */
export function sizeChart(rows, field, title, limits, algs) {
  const values = /** @type {Record<string, unknown>[]} */ (rows)
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

/**
 * @typedef {object} BarOptions
 * @property {string} title
 * @property {string} [x] the category field (default `alg`)
 * @property {string} y the value field
 * @property {string} yTitle
 * @property {string} [color] a series field: grouped bars, one colour each
 * @property {string[] | null} [sort] x order
 * @property {Limit[]} [rule] limit or target lines
 * @property {'auto' | 'linear' | 'log'} [scale] the y scale (default `auto`, see the module comment)
 */

/**
 * Grouped bars; `usermeta.logScale` tells the caption that the axis is logarithmic.
 * @param {Datum[]} values
 * @param {BarOptions} options
 * @returns {Spec}
 */
export function barChart(values, { title, x = 'alg', y, yTitle, color, sort, rule, scale = 'auto' }) {
  const log = scale === 'log' || (scale === 'auto' && spansOrders(values.map((v) => v[y])));
  const domain = logDomain(values.map((v) => v[y]));
  const layer = [
    {
      // A log axis cannot show zero or less: such bars are left out rather than drawn wrong.
      data: { values: log ? values.filter((v) => Number(v[y]) > 0) : values },
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
          title: log ? `${yTitle} (log scale)` : yTitle,
          ...(log ? { scale: { type: 'log', domainMin: domain.lo, domainMax: domain.hi }, stack: null } : {}),
        },
        tooltip: [{ field: x }, ...(color ? [{ field: color }] : []), { field: y, format: '.3~f' }],
        // Bars on a log scale need an explicit base (the default base, 0, has no logarithm).
        ...(log ? { y2: { datum: domain.lo } } : {}),
      },
    },
    ...(rule ? [limitLayer(rule)] : []),
  ];
  return { title, width: 620, height: 260, layer, ...(log ? { usermeta: { logScale: true } } : {}) };
}
