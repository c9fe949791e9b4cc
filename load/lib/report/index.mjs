/**
 * The report of a load run: results.json (every number), report.md and report.html, one SVG per
 * plot. The models are computed once (capacity, placement, the token's parts); then each section
 * renders its part of the markdown and its plots, in report order.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { capacityModel } from './capacity.mjs';
import { decomposeToken } from './decomposition.mjs';
import { renderHtml } from './html.mjs';
import { measuredPlacement, placementModel } from './placement-model.mjs';
import { svg } from './plots.mjs';
import { capacitySection } from './sections/capacity.mjs';
import { encryptedIdTokensSection } from './sections/encrypted-id-tokens.mjs';
import { encryptionSection } from './sections/encryption.mjs';
import { headerSection } from './sections/header.mjs';
import { loginSection } from './sections/login.mjs';
import { placementSection } from './sections/placement.mjs';
import { signCostSection } from './sections/sign-cost.mjs';
import { sizesSection } from './sections/sizes.mjs';
import { tlsSection, tlsSummary } from './sections/tls.mjs';

export { decomposeToken, tokenBudget, tokenDecomposition } from './decomposition.mjs';

/** @typedef {import('../types.d.ts').Results} Results */
/** @typedef {import('../types.d.ts').Derived} Derived */
/** @typedef {import('../types.d.ts').Section} Section */

/**
 * The report's sections in order; a section with nothing to show returns no lines.
 * @type {((results: Results, derived: Derived) => Section)[]}
 */
const SECTIONS = [
  headerSection,
  capacitySection,
  placementSection,
  signCostSection,
  sizesSection,
  encryptionSection,
  encryptedIdTokensSection,
  loginSection,
  tlsSection,
];

/**
 * The models, also stored in results.json.
 * @param {Results} results
 * @returns {Derived}
 */
function derive(results) {
  const capacity = capacityModel(results);
  const placement = results.placementRun
    ? measuredPlacement(results, capacity)
    : results.throughput
      ? placementModel(results, capacity)
      : undefined;
  const decomposition = decomposeToken(results);
  results.capacity = capacity;
  results.placement = placement;
  results.decomposition = decomposition;
  if (results.tls) results.tls.summary = tlsSummary(results.tls);
  return { capacity, placement, decomposition };
}

/** @param {string} caption @param {Record<string, unknown>} spec */
const captionOf = (caption, spec) =>
  /** @type {{ logScale?: boolean } | undefined} */ (spec.usermeta)?.logScale &&
  !caption.includes('log scale')
    ? `${caption} (Log scale: the values span orders of magnitude.)`
    : caption;

/**
 * @param {string} outDir
 * @param {Results} results
 */
export async function writeReport(outDir, results) {
  const derived = derive(results);
  writeFileSync(join(outDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  const sections = SECTIONS.map((s) => s(results, derived));
  const charts = [];
  for (const c of sections.flatMap((s) => s.charts)) {
    const rendered = await svg(c.spec);
    writeFileSync(join(outDir, `${c.name}.svg`), rendered);
    charts.push({ ...c, caption: captionOf(c.caption, c.spec), svg: rendered });
  }
  const md = sections.flatMap((s) => s.md);
  md.push('## Plots', '');
  for (const c of charts) md.push(`![${c.caption}](${c.name}.svg)`, '', `*${c.caption}*`, '');
  const mdText = `${md.join('\n')}\n`;
  const mdPath = join(outDir, 'report.md');
  writeFileSync(mdPath, mdText);
  writeFileSync(join(outDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  const htmlPath = join(outDir, 'report.html');
  writeFileSync(htmlPath, renderHtml(mdText, charts));
  return { md: mdPath, html: htmlPath, ...derived };
}
