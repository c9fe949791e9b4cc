/**
 * The page checks the browser tests rely on can fail. checkPage (phone and desktop width, no
 * sideways scrolling, axe-core with no serious or critical violation) passes every IdP and
 * example page; here it meets pages built to break each rule, so a check that silently stopped
 * working (axe not injected, the rule tags matching nothing, the impact filter wrong, the width
 * check measuring nothing) fails this test instead of letting every page pass. No server: the
 * pages are set as content. Skips without Chromium unless CI is set.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations } from './helpers/axe.ts';
import { ARTIFACTS, launchChromium, skipBrowser } from './helpers/browser.ts';
import { checkPage } from './helpers/pages.ts';

const doc = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>control</title></head>
<body><main><h1>Control</h1>${body}</main></body></html>`;

describe.skipIf(skipBrowser)('the page checks catch what they are for', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('a clean page passes', async () => {
    await page.setContent(doc('<p>Nothing to see.</p><button type="button">Continue</button>'));
    await checkPage(page, 'control-clean');
  });

  it('axe reports serious and critical violations, by rule', async () => {
    // A button without a name and an image without alt text (critical), grey on white
    // (serious), a form field without a label (critical).
    await page.setContent(
      doc(`<button type="button"></button><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
<p style="color:#ccc;background:#fff">Faint text</p><input type="text">`),
    );
    const found = await seriousViolations(page, 'control-violations');
    expect(found.map((v) => v.id).sort()).toEqual(
      expect.arrayContaining(['button-name', 'color-contrast', 'image-alt', 'label']),
    );
    expect(describeViolations(found).join('\n')).toMatch(/^button-name \(critical\): .+ — button/m);
    await expect(checkPage(page, 'control-violations')).rejects.toThrow(/control-violations-phone/);
  });

  it('a moderate violation alone does not fail a page', async () => {
    // Two main landmarks: axe's landmark-no-duplicate-main is "moderate".
    await page.setContent(doc('<p>One</p>').replace('</body>', '<main><p>Two</p></main></body>'));
    expect(await seriousViolations(page, 'control-moderate')).toEqual([]);
    // …though axe did see it: the full result written next to the screenshots lists it.
    const all = JSON.parse(readFileSync(join(ARTIFACTS, 'control-moderate.axe.json'), 'utf8'));
    expect(all.violations).toContainEqual(
      expect.objectContaining({ id: 'landmark-no-duplicate-main', impact: 'moderate' }),
    );
  });

  it('a page wider than the phone fails', async () => {
    await page.setContent(doc('<div style="width:900px">A fixed-width table of keys</div>'));
    await expect(checkPage(page, 'control-wide')).rejects.toThrow(/wider than the viewport/);
  });
});
