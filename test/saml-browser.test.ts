/**
 * A real browser does SAML once: headless Chromium (playwright-core) starts at the example
 * passport-saml SP, is sent to the IdP with an AuthnRequest, signs in on the same login page
 * OIDC uses, and the auto-submitting form posts the ML-DSA-65-signed Response back to the SP,
 * which verifies it through installNodeSamlIntegration. Then it signs out (SLO).
 * IdP (localhost) and SP (127.0.0.1) are different sites. Skips without Chromium unless CI is set.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Idp } from '../idp/src/app.ts';
import { ARTIFACTS, CHROMIUM, launchChromium, skipBrowser } from './helpers/browser.ts';
import { startExampleSp } from './helpers/examples.ts';
import { createLocalIdp } from './helpers/idp.ts';
import { freePort } from './helpers/net.ts';

if (skipBrowser)
  console.warn(
    `saml-browser: skipped, no Chromium at ${CHROMIUM} (apt-get install chromium); CI never skips it`,
  );

describe.skipIf(skipBrowser)('SAML login in a real browser', () => {
  let idp: Idp;
  let browser: Browser;
  let dir: string;
  let sp: { url: string; close(): Promise<void> };
  let spUrl: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pqid-saml-browser-'));
    const [idpPort, spPort] = [await freePort(), await freePort()];
    let issuer: string;
    ({ idp, issuer } = await createLocalIdp(dir, idpPort));
    await idp.ctx.accounts.create({
      username: 'alice',
      password: 'correct horse battery staple',
      email: 'alice@example.com',
    });
    await idp.app.listen({ port: idpPort, host: '127.0.0.1' });
    sp = await startExampleSp(idp, issuer, spPort);
    spUrl = sp.url;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await sp?.close();
    await idp?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('signs in through the login page and out again', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(spUrl);
      await page.click('#login');
      await page.waitForSelector('input[name="username"]');
      expect(new URL(page.url()).host).toMatch(/^localhost:/);
      expect(await page.textContent('main')).toContain('Example SAML SP');
      await page.fill('input[name="username"]', 'alice');
      await page.fill('input[name="password"]', 'correct horse battery staple');
      await page.click('button[type="submit"]');
      // The auto-submitting form carries the signed Response to the SP's ACS.
      await page.waitForSelector('#signed-in', { timeout: 20_000 });
      expect(new URL(page.url()).origin).toBe(spUrl);
      expect(await page.textContent('#email')).toBe('alice@example.com');
      expect(await page.textContent('#nameid')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'saml-browser-login.png'), fullPage: true });

      await page.click('a[href="/logout"]');
      await page.waitForSelector('#signed-out', { timeout: 20_000 });
      expect(page.url()).toContain('logged_out=1');
    } finally {
      await context.close();
    }
  }, 60_000);
});
