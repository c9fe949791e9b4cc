/**
 * Passkeys in a real browser: headless Chromium with a virtual authenticator (the DevTools
 * WebAuthn domain through playwright-core) runs passkey.js on the IdP's pages. A user signs in
 * with a password through the example RP, registers a passkey on the IdP's account page (with the
 * enrolment code an operator issued), then
 * signs in with it and no password; the RP shows acr/amr from its ML-DSA-65 ID token. A client
 * demanding two factors gets password plus passkey. With JavaScript off, the password still works.
 *
 * Without Chromium the test skips locally, but never in CI (CI=1): there it must run.
 */
import { createPrivateKey } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Idp } from '../idp/src/app.ts';
import { enrolmentCode } from '../idp/test/passkey-helpers.ts';
import { ARTIFACTS, CHROMIUM, launchChromium, skipBrowser } from './helpers/browser.ts';
import { startExampleRp } from './helpers/examples.ts';
import { createLocalIdp } from './helpers/idp.ts';
import { freePort } from './helpers/net.ts';
import { checkPage } from './helpers/pages.ts';

if (skipBrowser)
  console.warn(
    `passkey-browser: skipped, no Chromium at ${CHROMIUM} (apt-get install chromium, or set PQID_CHROMIUM); CI never skips it`,
  );

interface Rp {
  url: string;
  close(): Promise<void>;
}

describe.skipIf(skipBrowser)('passkeys in Chromium with a virtual authenticator', () => {
  let idp: Idp;
  let issuer: string;
  let rp: Rp;
  let browser: Browser;
  let dir: string;
  // One context and one authenticator for the story: it keeps the passkey between tests.
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  let authenticatorId: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pqid-passkey-browser-'));
    const [idpPort, rpPort] = [await freePort(), await freePort()];
    ({ idp, issuer } = await createLocalIdp(dir, idpPort));
    await idp.ctx.accounts.create({ username: 'grace', password: 'correct horse battery staple' });
    await idp.ctx.accounts.create({ username: 'heidi', password: 'another long passphrase' });
    await idp.app.listen({ port: idpPort, host: '127.0.0.1' });
    rp = await startExampleRp(idp, issuer, rpPort);
    browser = await launchChromium();
    context = await browser.newContext();
    page = await context.newPage();
    cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable', { enableUI: false });
    ({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        ctap2Version: 'ctap2_1',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    }));
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await rp?.close();
    await idp?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const text = async (p: Page, selector: string) => ((await p.textContent(selector)) ?? '').trim();
  const shot = async (p: Page, name: string) => {
    mkdirSync(ARTIFACTS, { recursive: true });
    await p.screenshot({ path: join(ARTIFACTS, `passkey-${name}.png`), fullPage: true });
  };
  /** Out of the RP and the IdP: a new sign-in starts from nothing (the passkey stays). */
  const signOutEverywhere = () => context.clearCookies();

  async function passwordAtIdp(p: Page, username: string, password: string) {
    await p.waitForSelector('input[name="username"]');
    expect(new URL(p.url()).origin).toBe(issuer);
    await p.fill('input[name="username"]', username);
    await p.fill('input[name="password"]', password);
    await Promise.all([p.waitForNavigation(), p.click('form[action$="/login"] button[type="submit"]')]);
  }

  it('signs in with a password, registers a passkey on the account page', async () => {
    await page.goto(rp.url);
    await page.click('#login-session');
    await passwordAtIdp(page, 'grace', 'correct horse battery staple');
    await page.waitForSelector('#signed-in');
    expect(await text(page, '#acr')).toBe('urn:pqid:acr:1fa');
    expect(await text(page, '#amr')).toBe('pwd');

    // The IdP session is fresh: the account page opens without asking again. A first passkey
    // takes more than the password: the operator's enrolment code (`pqid passkeys enrol grace`).
    await page.goto(`${issuer}/account`);
    expect(await page.isVisible('text=You have no passkeys yet')).toBe(true);
    expect(await page.isVisible('button[data-passkey-start]')).toBe(false);
    await checkPage(page, 'idp-account-enrol');
    const grace = (await idp.ctx.accounts.findByUsername('grace'))?.sub as string;
    await page.fill('#enrolment-code', await enrolmentCode(idp.ctx, grace));
    await Promise.all([
      page.waitForURL(/\/account\?done=enrolled$/),
      page.click('form[action$="/enrol"] button'),
    ]);
    await page.waitForSelector('button[data-passkey-start]', { state: 'visible' });
    await checkPage(page, 'idp-account-add-passkey');
    await page.fill('#passkey-name', 'Chromium virtual authenticator');
    await Promise.all([page.waitForURL(/\/account\?done=added$/), page.click('button[data-passkey-start]')]);
    expect(await text(page, '[role="status"]')).toBe('Your passkey was added.');
    expect(await text(page, 'li.passkey strong')).toBe('Chromium virtual authenticator');
    // More changes now take the passkey itself, not this password session.
    expect(await page.isVisible('text=Confirm with a passkey')).toBe(true);
    await checkPage(page, 'idp-account-passkeys');

    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ rpId: 'localhost', isResidentCredential: true });
    const [stored] = await idp.ctx.storage
      .adapter('WebAuthnCredential')
      .listByUid((await idp.ctx.accounts.findByUsername('grace'))?.sub as string);
    expect(stored?.id).toBe(
      Buffer.from(credentials[0]?.credentialId as string, 'base64').toString('base64url'),
    );
    expect(stored?.payload).toMatchObject({ name: 'Chromium virtual authenticator', backupEligible: false });
    // The key type the IdP recorded is the one the browser made. The IdP offers ML-DSA-44 first;
    // Chromium 156's virtual authenticator takes it (older ones fall back to EdDSA or ES256).
    const made = createPrivateKey({
      key: Buffer.from(credentials[0]?.privateKey as string, 'base64'),
      format: 'der',
      type: 'pkcs8',
    }).asymmetricKeyType as string;
    const COSE: Record<string, number> = {
      'ml-dsa-44': -48,
      'ml-dsa-65': -49,
      'ml-dsa-87': -50,
      ed25519: -8,
      ec: -7,
      rsa: -257,
    };
    expect(stored?.payload.alg).toBe(COSE[made]);
    console.info(`passkey-browser: Chromium made a ${made} passkey`);
  });

  it('signs in with the passkey alone; the RP shows acr/amr from the ML-DSA-65 ID token', async () => {
    await signOutEverywhere();
    await page.goto(rp.url);
    await page.click('#login-session');
    await page.waitForSelector('button[data-passkey-start]', { state: 'visible' });
    await checkPage(page, 'idp-login-passkey');
    // No username, no password: the discoverable credential names the user.
    await Promise.all([page.waitForURL(`${rp.url}/`), page.click('button[data-passkey-start]')]);
    await page.waitForSelector('#signed-in');
    expect(await text(page, '#signed-in')).toBe('Signed in as grace');
    expect(await text(page, '#alg')).toBe('ML-DSA-65');
    expect(await text(page, '#acr')).toBe('urn:pqid:acr:mfa');
    expect(await text(page, '#amr')).toBe('hwk mfa');
    await shot(page, 'signed-in');
    // The counter the IdP stored is the authenticator's.
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    const [stored] = await idp.ctx.storage
      .adapter('WebAuthnCredential')
      .listByUid((await idp.ctx.accounts.findByUsername('grace'))?.sub as string);
    expect(stored?.payload.counter).toBe(credentials[0]?.signCount);
    expect(credentials[0]?.signCount).toBeGreaterThan(0);
  });

  it('a client demanding two factors: the password, then the passkey', async () => {
    await signOutEverywhere();
    await page.goto(rp.url);
    await page.click('#login-mfa');
    await page.waitForSelector('.notice');
    expect(await text(page, '.notice')).toContain('asks for two factors');
    await passwordAtIdp(page, 'grace', 'correct horse battery staple');
    await page.waitForSelector('text=Confirm with your passkey');
    await checkPage(page, 'idp-second-factor');
    await Promise.all([page.waitForURL(`${rp.url}/`), page.click('button[data-passkey-start]')]);
    await page.waitForSelector('#signed-in');
    expect(await text(page, '#acr')).toBe('urn:pqid:acr:mfa');
    expect(await text(page, '#amr')).toBe('pwd hwk mfa');
  });

  it('in a browser without the WebAuthn Level 3 JSON helpers, passkey.js encodes by hand', async () => {
    // What older browsers lack: parse*OptionsFromJSON and PublicKeyCredential#toJSON.
    const strip = `delete PublicKeyCredential.parseCreationOptionsFromJSON;
      delete PublicKeyCredential.parseRequestOptionsFromJSON;
      delete PublicKeyCredential.prototype.toJSON;`;
    await context.addInitScript(strip);
    // A second authenticator (the first would refuse: its passkey is in excludeCredentials).
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
    ({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        ctap2Version: 'ctap2_1',
        transport: 'usb',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    }));
    // The session from the two-factor sign-in may manage passkeys: add a second one.
    await page.goto(`${issuer}/account`);
    expect(await page.evaluate('typeof PublicKeyCredential.prototype.toJSON')).toBe('undefined');
    await page.waitForSelector('button[data-passkey-start]', { state: 'visible' });
    await Promise.all([page.waitForURL(/\/account\?done=added$/), page.click('button[data-passkey-start]')]);
    expect(await page.locator('li.passkey').count()).toBe(2);
    await signOutEverywhere();
    await page.goto(rp.url);
    await page.click('#login-session');
    await page.waitForSelector('button[data-passkey-start]', { state: 'visible' });
    await Promise.all([page.waitForURL(`${rp.url}/`), page.click('button[data-passkey-start]')]);
    expect(await text(page, '#signed-in')).toBe('Signed in as grace');
    expect(await text(page, '#acr')).toBe('urn:pqid:acr:mfa');
    // Signed in with the new passkey: the IdP recorded its use.
    const [, second] = await idp.ctx.storage
      .adapter('WebAuthnCredential')
      .listByUid((await idp.ctx.accounts.findByUsername('grace'))?.sub as string);
    expect(second?.payload.lastUsedAt).toEqual(expect.any(Number));
  });

  it('a refused passkey leaves the user on the login page with a message, signed out', async () => {
    await signOutEverywhere();
    // The authenticator now fails user verification: passwordless sign-in requires it.
    await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: false });
    try {
      await page.goto(rp.url);
      await page.click('#login-session');
      await page.waitForSelector('button[data-passkey-start]', { state: 'visible' });
      await page.click('button[data-passkey-start]');
      await page.waitForSelector('#passkey-status:has-text("cancelled"), #login-error');
      expect(new URL(page.url()).origin).toBe(issuer);
      expect((await context.cookies(issuer)).some((c) => c.name === 'pqid_session')).toBe(false);
    } finally {
      await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: true });
    }
  });

  it('with JavaScript off the password form still signs in; no passkey button is shown', async () => {
    const noJs = await browser.newContext({ javaScriptEnabled: false });
    try {
      const p = await noJs.newPage();
      await p.goto(rp.url);
      await p.click('#login-session');
      await p.waitForSelector('input[name="username"]');
      expect(await p.isVisible('button[data-passkey-start]')).toBe(false);
      await passwordAtIdp(p, 'heidi', 'another long passphrase');
      await p.waitForSelector('#signed-in');
      expect(await text(p, '#signed-in')).toBe('Signed in as heidi');
      expect(await text(p, '#amr')).toBe('pwd');
    } finally {
      await noJs.close();
    }
  });
});
