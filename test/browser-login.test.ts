/**
 * A real browser: headless Chromium (Debian `chromium`, driven by playwright-core) signs in
 * through the IdP's login page and reaches the example RP (examples/oidc-rp) holding an
 * ML-DSA-65-signed ID token — once with a server-side session, once with chunked cookies.
 * IdP and RP run on different hosts (localhost vs 127.0.0.1), as separate sites would. Then
 * front-channel logout: a second RP (a bare node:http server) gets a code in the same session,
 * and signing out at the IdP loads its logout URI in an iframe — the request must arrive with
 * the right `iss` and `sid` (so the page's CSP `frame-src` lets it through) before the browser
 * continues to its post-logout URI.
 *
 * A third RP asks for encrypted ID tokens: the IdP fetches its X-Wing key from its jwks_uri and
 * signs (ML-DSA-65), then encrypts (HPKE-9) each ID token; the RP decrypts it with @pqid/jose and
 * openid-client validates the signed token inside.
 *
 * Without Chromium the test skips locally, but never in CI (CI=1): there it must run.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateEncryptionKeyPair } from '@pqid/jose';
import type { Browser, Page } from 'playwright-core';
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

/** At the RP, log in (`store`) as alice through the IdP's form, answering consent if asked. */
async function signIn(page: Page, rpUrl: string, store: 'session' | 'cookie'): Promise<void> {
  await page.goto(rpUrl);
  await page.click(`#login-${store}`);
  // The IdP's login page: the fields a person fills in.
  await page.waitForSelector('input[name="username"]');
  expect(new URL(page.url()).host).toMatch(/^localhost:/);
  await page.fill('input[name="username"]', 'alice');
  await page.fill('input[name="password"]', 'correct horse battery staple');
  await Promise.all([page.waitForLoadState('load'), page.click('button[type="submit"]')]);
  // Consent, when the IdP asks for it. A string expression: it runs in the page, where location
  // and document exist.
  await page.waitForFunction(
    `location.origin === ${JSON.stringify(new URL(rpUrl).origin)} || !!document.querySelector('button[name="decision"]')`,
  );
  const allow = page.locator('button[name="decision"][value="allow"]');
  if ((await allow.count()) > 0) await allow.click();
  await page.waitForSelector('#signed-in');
}

describe.skipIf(skipBrowser)('browser login through the example RP', () => {
  let idp: Idp;
  let rp: Rp;
  let encRp: Rp;
  let browser: Browser;
  let dir: string;
  let alice: { sub: string };
  let issuer: string;
  /** The front-channel RP: every request it got, when it finished answering, in order. */
  let fcRp: Server;
  let fcUrl: string;
  const fcSeen: Array<{ path: string; query: URLSearchParams; answeredAt: number; at: number }> = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pqid-browser-'));
    const [idpPort, rpPort] = [await freePort(), await freePort()];
    const rpUrl = `http://127.0.0.1:${rpPort}`;
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
    const fcPort = await freePort();
    fcUrl = `http://127.0.0.1:${fcPort}`;
    // Answers the logout frame after 200 ms: the IdP page must wait for it before moving on.
    fcRp = createServer((req, res) => {
      const url = new URL(req.url ?? '/', fcUrl);
      const seen = { path: url.pathname, query: url.searchParams, at: Date.now(), answeredAt: 0 };
      fcSeen.push(seen);
      setTimeout(
        () => {
          seen.answeredAt = Date.now();
          res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-cache, no-store' });
          res.end(`<!doctype html><title>fc</title><p id="path">${url.pathname}</p>`);
        },
        url.pathname === '/fc' ? 200 : 0,
      ).unref();
    });
    await new Promise<void>((r) => fcRp.listen(fcPort, '127.0.0.1', r));
    await registerClient(idp.ctx, {
      client_id: 'fc-rp',
      redirect_uris: [`${fcUrl}/cb`],
      token_endpoint_auth_method: 'none',
      post_logout_redirect_uris: [`${fcUrl}/bye`],
      frontchannel_logout_uri: `${fcUrl}/fc?rp=fc`,
      frontchannel_logout_session_required: true,
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
    // The RP that asks for encrypted ID tokens: its key at its own /jwks (the client's jwks_uri).
    const encPort = await freePort();
    const encUrl = `http://127.0.0.1:${encPort}`;
    const enc = await registerClient(idp.ctx, {
      client_id: 'example-rp-enc',
      redirect_uris: [`${encUrl}/callback`],
      id_token_signed_response_alg: 'ML-DSA-65',
      jwks_uri: `${encUrl}/jwks`,
      id_token_encrypted_response_alg: 'HPKE-9',
    });
    encRp = await createRp({
      issuer,
      clientId: 'example-rp-enc',
      clientSecret: enc.clientSecret,
      alg: 'ML-DSA-65',
      port: encPort,
      baseUrl: encUrl,
      idTokenEncryption: {
        alg: 'HPKE-9',
        privateJwk: (await generateEncryptionKeyPair('HPKE-9')).privateJwk,
      },
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await rp?.close();
    await encRp?.close();
    await idp?.close();
    await new Promise((r) => (fcRp ? fcRp.close(r) : r(undefined)));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['session', /server-side session/],
    ['cookie', /chunked cookies/],
  ] as const)('signs in with the login form and holds an ML-DSA-65 ID token (%s)', async (store, heldIn) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await signIn(page, rp.url, store);
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

  it('receives an ML-DSA-65-signed ID token encrypted to its X-Wing key (HPKE-9) and decrypts it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await signIn(page, encRp.url, 'session');
      expect(await page.textContent('#sub')).toBe(alice.sub);
      expect(await page.textContent('#alg')).toBe('ML-DSA-65');
      // As received: a JWE of an X-Wing ciphertext (1,120 bytes) around the ~4.7 KB signed token.
      const enc = (await page.textContent('#enc')) as string;
      expect(enc).toMatch(/^HPKE-9 \((\d+) bytes as received/);
      expect(Number(/\((\d+) bytes/.exec(enc)?.[1])).toBeGreaterThan(7000);
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'browser-login-encrypted.png'), fullPage: true });
    } finally {
      await context.close();
    }
  }, 60_000);

  it('signs out at the IdP: the front-channel RP is framed with iss and sid, then the browser continues', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await signIn(page, rp.url, 'session');
      const sid = JSON.parse((await page.textContent('#claims')) as string).sid as string;
      expect(sid).toMatch(/^[A-Za-z0-9_-]{22}$/);
      // The second RP gets a code in the same IdP session, silently.
      const authorize = new URL(`${issuer}/authorize`);
      authorize.search = new URLSearchParams({
        client_id: 'fc-rp',
        redirect_uri: `${fcUrl}/cb`,
        response_type: 'code',
        scope: 'openid',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      }).toString();
      await page.goto(authorize.href);
      expect(new URL(page.url()).pathname).toBe('/cb');
      expect(new URL(page.url()).searchParams.get('code')).toBeTruthy();

      const end = new URL(`${issuer}/end_session`);
      end.search = new URLSearchParams({
        client_id: 'fc-rp',
        post_logout_redirect_uri: `${fcUrl}/bye`,
        state: 'fc-state',
      }).toString();
      await page.goto(end.href);
      await page.click('button[name="logout"][value="yes"]');
      await page.waitForURL(`${fcUrl}/bye?state=fc-state`, { timeout: 20_000 });

      const frame = fcSeen.find((s) => s.path === '/fc');
      expect(frame?.query.get('rp')).toBe('fc');
      expect(frame?.query.get('iss')).toBe(issuer);
      expect(frame?.query.get('sid')).toBe(sid);
      // The browser moved on only once the frame had its answer (not on the 3 s timeout either).
      const bye = fcSeen.find((s) => s.path === '/bye');
      expect(bye?.at).toBeGreaterThanOrEqual(frame?.answeredAt as number);
      expect((bye?.at as number) - (frame?.answeredAt as number)).toBeLessThan(2500);
    } finally {
      await context.close();
    }
  }, 60_000);
});
