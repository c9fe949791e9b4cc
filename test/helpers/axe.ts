/**
 * Accessibility of a page in the browser tests: axe-core (Deque's rules engine) run inside the
 * page, WCAG 2.x A and AA rules plus axe's best practices. Serious and critical violations fail
 * a test; every result is also written next to the screenshots.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { AxeResults, Result } from 'axe-core';
import type { Page } from 'playwright-core';
import { ARTIFACTS } from './browser.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One line per violation: rule, impact, what to fix and where. */
export const describeViolations = (violations: Result[]): string[] =>
  violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );

/**
 * Runs axe on the page as it is now, writes the full result to ARTIFACTS/<name>.axe.json and
 * returns the serious and critical violations. Runs through the DevTools protocol, so a page's
 * CSP (the IdP allows only hashed scripts) does not stop it.
 */
export async function seriousViolations(page: Page, name: string): Promise<Result[]> {
  await page.evaluate(AXE_SOURCE);
  const results = (await page.evaluate(
    "axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] })",
  )) as AxeResults;
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(
    join(ARTIFACTS, `${name}.axe.json`),
    JSON.stringify(
      { url: results.url, violations: results.violations, passes: results.passes.map((p) => p.id) },
      null,
      2,
    ),
  );
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
