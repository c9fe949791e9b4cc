/**
 * The example apps' pages in headless Chromium at a phone's width (390×844) and a desktop's
 * (1280×800): the RP (examples/oidc-rp) and the SAML SP (examples/saml-sp), signed out, signed in
 * through the IdP, and on an error. Each page must share the examples' one layout, fit the width
 * without sideways scrolling, and pass axe-core with no serious or critical violation; each is
 * screenshotted into test/artifacts/ (examples-<app>-<page>-<viewport>.png, with its axe results).
 * Skips without Chromium unless CI is set.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Idp } from '../idp/src/app.ts';
import { describeViolations, seriousViolations } from './helpers/axe.ts';
import { ARTIFACTS, CHROMIUM, launchChromium, skipBrowser } from './helpers/browser.ts';
import { startExampleRp, startExampleSp } from './helpers/examples.ts';
import { createLocalIdp } from './helpers/idp.ts';
import { freePort } from './helpers/net.ts';

if (skipBrowser)
  console.warn(
    `examples-browser: skipped, no Chromium at ${CHROMIUM} (apt-get install chromium); CI never skips it`,
  );

const VIEWPORTS = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 } },
} as const;
type Viewport = keyof typeof VIEWPORTS;

/** What makes the examples' layout theirs: measured in the page, the same for every example. */
const LAYOUT = `(() => {
  const main = document.querySelector('main');
  const button = document.querySelector('a.button');
  const css = (el, p) => (el ? getComputedStyle(el)[p] : null);
  return {
    font: css(document.body, 'fontFamily'),
    column: css(main, 'maxWidth'),
    button: button && { background: css(button, 'backgroundColor'), color: css(button, 'color') },
  };
})()`;

interface Checked {
  layout: { font: string; column: string; button: { background: string; color: string } | null };
}

describe.skipIf(skipBrowser)('the example apps in a browser, phone and desktop', () => {
  let idp: Idp;
  let browser: Browser;
  let dir: string;
  let rp: { url: string; close(): Promise<void> };
  let sp: { url: string; close(): Promise<void> };
  let spUrl: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pqid-examples-browser-'));
    const [idpPort, rpPort, spPort] = [await freePort(), await freePort(), await freePort()];
    let issuer: string;
    ({ idp, issuer } = await createLocalIdp(dir, idpPort));
    await idp.ctx.accounts.create({
      username: 'alice',
      password: 'correct horse battery staple',
      name: 'Alice',
      email: 'alice@example.com',
    });
    await idp.app.listen({ port: idpPort, host: '127.0.0.1' });
    rp = await startExampleRp(idp, issuer, rpPort);
    sp = await startExampleSp(idp, issuer, spPort);
    spUrl = sp.url;
    browser = await launchChromium();
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await rp?.close();
    await sp?.close();
    await idp?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The page as it stands: fits the width, passes axe, screenshotted; returns its layout. */
  async function check(page: Page, name: string): Promise<Checked['layout']> {
    const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow, `${name}: wider than the viewport`).toBeLessThanOrEqual(0);
    expect(describeViolations(await seriousViolations(page, name)), name).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
    return (await page.evaluate(LAYOUT)) as Checked['layout'];
  }

  /** Signs in at the IdP's login page, unless the IdP's session already covers it (SSO). */
  async function signInAtIdp(page: Page, back: string) {
    const home = `location.origin === ${JSON.stringify(new URL(back).origin)}`;
    await page.waitForFunction(`${home} || !!document.querySelector('input[name="username"]')`);
    if (await page.evaluate(home)) return;
    await page.fill('input[name="username"]', 'alice');
    await page.fill('input[name="password"]', 'correct horse battery staple');
    await Promise.all([page.waitForLoadState('load'), page.click('button[type="submit"]')]);
    // Consent, when the IdP asks for it (OIDC).
    await page.waitForFunction(`${home} || !!document.querySelector('button[name="decision"]')`);
    const allow = page.locator('button[name="decision"][value="allow"]');
    if ((await allow.count()) > 0) await allow.click();
  }

  it.each(Object.keys(VIEWPORTS) as Viewport[])(
    '%s: signed out, signed in and an error, in one layout',
    async (vp) => {
      const context = await browser.newContext(VIEWPORTS[vp]);
      const page = await context.newPage();
      const layouts: Record<string, Checked['layout']> = {};
      try {
        // The RP.
        await page.goto(rp.url);
        layouts['rp signed out'] = await check(page, `examples-rp-signed-out-${vp}`);
        await page.click('#login-session');
        await signInAtIdp(page, rp.url);
        await page.waitForSelector('#signed-in');
        layouts['rp signed in'] = await check(page, `examples-rp-signed-in-${vp}`);
        await page.goto(`${rp.url}/callback?code=x&state=y`); // no login in progress
        expect(await page.textContent('main')).toContain('No login in progress');
        await check(page, `examples-rp-error-${vp}`);

        // The SAML SP.
        await page.goto(spUrl);
        await page.waitForSelector('#signed-out');
        layouts['sp signed out'] = await check(page, `examples-saml-sp-signed-out-${vp}`);
        await page.click('#login');
        await signInAtIdp(page, spUrl);
        await page.waitForSelector('#signed-in', { timeout: 20_000 });
        expect(await page.textContent('#signed-in')).toBe('Signed in as alice');
        expect(await page.textContent('#email')).toBe('alice@example.com');
        layouts['sp signed in'] = await check(page, `examples-saml-sp-signed-in-${vp}`);
        await page.click('a[href="/logout"]');
        await page.waitForSelector('#signed-out', { timeout: 20_000 });
        expect(await page.textContent('#signed-out')).toBe('Signed out.');
        await page.goto(`${spUrl}/login?SAMLResponse=x`); // a SAML message where none belongs
        expect(await page.textContent('#error')).toMatch(/^SAML message refused: /);
        layouts['sp error'] = await check(page, `examples-saml-sp-error-${vp}`);
      } finally {
        await context.close();
      }
      // One look: the SP's pages are laid out and styled exactly like the RP's.
      const reference = layouts['rp signed out'];
      expect(reference?.column).toMatch(/px$/);
      expect(reference?.button).not.toBeNull();
      for (const [name, layout] of Object.entries(layouts)) {
        expect({ font: layout.font, column: layout.column }, name).toEqual({
          font: reference?.font,
          column: reference?.column,
        });
        if (layout.button) expect(layout.button, name).toEqual(reference?.button);
      }
    },
    120_000,
  );
});
