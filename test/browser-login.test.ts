/**
 * A real browser: headless Chromium (Debian `chromium`, driven by playwright-core) signs in
 * through the IdP's login page and reaches the example RP (examples/oidc-rp) holding an
 * ML-DSA-65-signed ID token — once with a server-side session, once with chunked cookies.
 * IdP and RP run on different hosts (localhost vs 127.0.0.1), as separate sites would.
 *
 * Without Chromium the test skips locally, but never in CI (CI=1): there it must run.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: the example is plain JavaScript with JSDoc types, outside the TS projects.
import { createRp } from '../examples/oidc-rp/rp.js';
import { type Idp, registerClient } from '../idp/src/app.ts';
import { ARTIFACTS, CHROMIUM, launchChromium, skipBrowser } from './helpers/browser.ts';
import { createLocalIdp } from './helpers/idp.ts';
import { freePort } from './helpers/net.ts';

if (skipBrowser)
  console.warn(
    `browser-login: skipped, no Chromium at ${CHROMIUM} (apt-get install chromium, or set PQID_CHROMIUM); CI never skips it`,
  );

interface Rp {
  url: string;
  close(): Promise<void>;
}

describe.skipIf(skipBrowser)('browser login through the example RP', () => {
  let idp: Idp;
  let rp: Rp;
  let browser: Browser;
  let dir: string;
  let alice: { sub: string };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pqid-browser-'));
    const [idpPort, rpPort] = [await freePort(), await freePort()];
    const rpUrl = `http://127.0.0.1:${rpPort}`;
    let issuer: string;
    ({ idp, issuer } = await createLocalIdp(dir, idpPort));
    alice = await idp.ctx.accounts.create({
      username: 'alice',
      password: 'correct horse battery staple',
      name: 'Alice',
    });
    const { clientSecret } = await registerClient(idp.ctx, {
      client_id: 'example-rp',
      client_name: 'Example RP',
      redirect_uris: [`${rpUrl}/callback`],
      id_token_signed_response_alg: 'ML-DSA-65',
    });
    await idp.app.listen({ port: idpPort, host: '127.0.0.1' });
    rp = await createRp({
      issuer,
      clientId: 'example-rp',
      clientSecret,
      alg: 'ML-DSA-65',
      port: rpPort,
      baseUrl: rpUrl,
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await rp?.close();
    await idp?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['session', /server-side session/],
    ['cookie', /chunked cookies/],
  ] as const)('signs in with the login form and holds an ML-DSA-65 ID token (%s)', async (store, heldIn) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(rp.url);
      await page.click(`#login-${store}`);
      // The IdP's login page: the fields a person fills in.
      await page.waitForSelector('input[name="username"]');
      expect(new URL(page.url()).host).toMatch(/^localhost:/);
      await page.fill('input[name="username"]', 'alice');
      await page.fill('input[name="password"]', 'correct horse battery staple');
      await Promise.all([page.waitForLoadState('load'), page.click('button[type="submit"]')]);
      // Consent, when the IdP asks for it.
      const allow = page.locator('button[name="decision"][value="allow"]');
      // A string expression: it runs in the page, where location and document exist.
      await page.waitForFunction(
        `location.origin === ${JSON.stringify(new URL(rp.url).origin)} || !!document.querySelector('button[name="decision"]')`,
      );
      if ((await allow.count()) > 0) await allow.click();

      await page.waitForSelector('#signed-in');
      expect(await page.textContent('#sub')).toBe(alice.sub);
      if (store === 'session') expect(await page.textContent('#signed-in')).toBe('Signed in as alice');
      expect(await page.textContent('#alg')).toBe('ML-DSA-65');
      expect(await page.textContent('#held-in')).toMatch(heldIn);
      const cookies = await context.cookies(rp.url);
      if (store === 'session') {
        expect(cookies.map((c) => c.name)).toContain('rp_sid');
        expect(cookies.every((c) => c.value.length < 100)).toBe(true);
      } else {
        const chunks = cookies.filter((c) => c.name.startsWith('rp_id_token.'));
        expect(chunks.length).toBeGreaterThan(1);
        expect(chunks.every((c) => c.name.length + c.value.length < 4096)).toBe(true);
      }
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, `browser-login-${store}.png`), fullPage: true });
    } finally {
      await context.close();
    }
  });
});
