/**
 * Every page the IdP shows a person, in headless Chromium at a phone's and a desktop's width,
 * screenshotted into test/artifacts/screenshots/ and checked with axe-core (serious or critical
 * violations fail): the landing page at the issuer URL, a browser's 404, an error page, an
 * expired sign-in, the login page (and its error), consent, the account page (its sign-out and
 * its way back), the sign-out question and the signed-out page (plain, and with an
 * application's front-channel logout frame), the "passkey required" page, and the SAML POST page
 * (with JavaScript off, where the person sees it). The passkey pages (sign-in, second factor,
 * account with passkeys) are checked the same way in passkey-browser.test.ts.
 * Skips without Chromium unless CI is set.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Idp, registerClient } from '../idp/src/app.ts';
import { CHROMIUM, launchChromium, skipBrowser } from './helpers/browser.ts';
import { startExampleSp } from './helpers/examples.ts';
import { createLocalIdp } from './helpers/idp.ts';
import { freePort } from './helpers/net.ts';
import { checkPage } from './helpers/pages.ts';

if (skipBrowser)
  console.warn(
    `idp-pages-browser: skipped, no Chromium at ${CHROMIUM} (apt-get install chromium); CI never skips it`,
  );

describe.skipIf(skipBrowser)("the IdP's pages in a browser, phone and desktop", () => {
  let idp: Idp;
  let issuer: string;
  let browser: Browser;
  let dir: string;
  let app: Server;
  let appUrl: string;
  let sp: { url: string; close(): Promise<void> };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pqid-pages-browser-'));
    const [idpPort, appPort, spPort] = [await freePort(), await freePort(), await freePort()];
    ({ idp, issuer } = await createLocalIdp(dir, idpPort));
    await idp.ctx.accounts.create({
      username: 'alice',
      password: 'correct horse battery staple',
      name: 'Alice',
    });
    appUrl = `http://127.0.0.1:${appPort}`;
    // The application the browser returns to: a page that says where it is.
    app = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>app</title><p id="app">${new URL(req.url ?? '/', appUrl).pathname}</p>`);
    });
    await new Promise<void>((r) => app.listen(appPort, '127.0.0.1', r));
    await registerClient(idp.ctx, {
      client_id: 'pages-rp',
      client_name: 'Example Notes',
      redirect_uris: [`${appUrl}/cb`],
      token_endpoint_auth_method: 'none',
      // Signing out then shows the front-channel page: the application's logout URI in a frame.
      frontchannel_logout_uri: `${appUrl}/fc`,
    });
    await idp.app.listen({ port: idpPort, host: '127.0.0.1' });
    sp = await startExampleSp(idp, issuer, spPort);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await sp?.close();
    await idp?.close();
    await new Promise((r) => (app ? app.close(r) : r(undefined)));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const authorize = (clientId: string, extra: Record<string, string> = {}) => {
    const url = new URL(`${issuer}/authorize`);
    url.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: `${appUrl}/cb`,
      response_type: 'code',
      scope: 'openid profile offline_access',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      ...extra,
    }).toString();
    return url.href;
  };
  const heading = async (page: Page) => ((await page.textContent('h1')) ?? '').trim();
  /** Alice's password form on the login page, submitted. */
  async function signIn(page: Page, password: string) {
    await page.fill('input[name="username"]', 'alice');
    await page.fill('input[name="password"]', password);
    await Promise.all([
      page.waitForLoadState('load'),
      page.click('form[action$="/login"] button[type="submit"]'),
    ]);
  }

  it('the landing page, a 404, an error page and an expired sign-in', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${issuer}/`);
      expect(await heading(page)).toBe('Sign-in service');
      expect(await page.getAttribute('a[href$="/.well-known/openid-configuration"]', 'href')).toBe(
        `${issuer}/.well-known/openid-configuration`,
      );
      await checkPage(page, 'idp-landing');

      expect((await page.goto(`${issuer}/no-such-page`))?.status()).toBe(404);
      expect(await heading(page)).toBe('Page not found');
      await checkPage(page, 'idp-not-found');

      expect((await page.goto(authorize('no-such-client')))?.status()).toBe(400);
      await checkPage(page, 'idp-error');

      await page.goto(`${issuer}/interaction/AAAAAAAAAAAAAAAAAAAAAA`);
      expect(await heading(page)).toBe('Sign-in expired');
      await checkPage(page, 'idp-sign-in-expired');

      // A sign-out with no application to tell: the plain signed-out page.
      await page.goto(`${issuer}/end_session`);
      await checkPage(page, 'idp-sign-out-question');
      await Promise.all([page.waitForLoadState('load'), page.click('button[name="logout"][value="yes"]')]);
      expect(await heading(page)).toBe('Signed out');
      await checkPage(page, 'idp-signed-out');
    } finally {
      await context.close();
    }
  });

  it('login, its error, consent, the account page, and signing out from it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(authorize('pages-rp'));
      await page.waitForSelector('input[name="username"]');
      expect(await page.textContent('main')).toContain('Example Notes');
      await checkPage(page, 'idp-login');

      await signIn(page, 'wrong password');
      await page.waitForSelector('#login-error');
      await checkPage(page, 'idp-login-error');

      await signIn(page, 'correct horse battery staple');
      await page.waitForSelector('button[name="decision"][value="allow"]');
      expect(await page.textContent('main')).toContain('Signing out does not end the access');
      await checkPage(page, 'idp-consent');
      await Promise.all([
        page.waitForURL(`${appUrl}/cb?**`),
        page.click('button[name="decision"][value="allow"]'),
      ]);

      await page.goto(`${issuer}/account`);
      expect(await heading(page)).toBe('Your account');
      await checkPage(page, 'idp-account');
      // The way back, then out.
      await Promise.all([page.waitForURL(`${issuer}/`), page.click('text=Back to the sign-in service')]);
      await page.goto(`${issuer}/account`);
      await Promise.all([page.waitForLoadState('load'), page.click('nav a:has-text("Sign out")')]);
      expect(await heading(page)).toBe('Sign out?');
      await checkPage(page, 'idp-sign-out');
      await Promise.all([page.waitForLoadState('load'), page.click('button[name="logout"][value="yes"]')]);
      expect(await heading(page)).toBe('Signed out');
      expect(await page.textContent('main')).toContain('Signing you out of these applications too');
      await checkPage(page, 'idp-signed-out-frontchannel');
      // Signed out for real: the account page asks for a sign-in again.
      await page.goto(`${issuer}/account`);
      await page.waitForSelector('input[name="username"]');

      // Two factors asked of an account without a passkey: the page that says so.
      await page.goto(authorize('pages-rp', { acr_values: 'urn:pqid:acr:mfa' }));
      await signIn(page, 'correct horse battery staple');
      expect(await heading(page)).toBe('A passkey is required');
      await checkPage(page, 'idp-passkey-required');
    } finally {
      await context.close();
    }
  });

  it('the SAML POST page, as a browser without JavaScript shows it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // Scripts off while the page loads (its auto-submit does not run, its <noscript> button
    // shows), back on for axe, which runs in the page.
    const cdp = await context.newCDPSession(page);
    try {
      await page.goto(sp.url);
      await Promise.all([page.waitForLoadState('load'), page.click('#login')]);
      await page.waitForSelector('input[name="username"]');
      await cdp.send('Emulation.setScriptExecutionDisabled', { value: true });
      await signIn(page, 'correct horse battery staple');
      await page.waitForSelector('input[name="SAMLResponse"]', { state: 'attached' });
      await cdp.send('Emulation.setScriptExecutionDisabled', { value: false });
      expect(await heading(page)).toBe('Returning to the application…');
      await checkPage(page, 'idp-saml-post');
      await Promise.all([page.waitForLoadState('load'), page.click('button[type="submit"]')]);
      await page.waitForSelector('#signed-in', { timeout: 20_000 });
    } finally {
      await context.close();
    }
  });
});
