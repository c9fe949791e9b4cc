/**
 * ML-DSA passkeys end to end over real HTTP, which no browser can create yet: the test-only
 * software authenticator (idp/test/webauthn-authenticator.ts, keys and signatures from
 * @pqid/jose) registers ML-DSA-44/65/87 passkeys on the IdP's account page, then signs in with
 * them through the example RP (examples/oidc-rp, openid-client), which verifies the ML-DSA-65
 * ID token and shows its acr and amr; a client demanding two factors gets them as password and
 * passkey, and a user without a passkey gets unmet_authentication_requirements at the RP.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Idp } from '../idp/src/app.ts';
import { enrolmentCode } from '../idp/test/passkey-helpers.ts';
import {
  type CreationOptions,
  type RequestOptions,
  type SoftAlg,
  SoftAuthenticator,
} from '../idp/test/webauthn-authenticator.ts';
import { startExampleRp } from './helpers/examples.ts';
import { csrfIn, HttpClient } from './helpers/http-client.ts';
import { createLocalIdp } from './helpers/idp.ts';
import { freePort } from './helpers/net.ts';

interface Rp {
  url: string;
  close(): Promise<void>;
}

let idp: Idp;
let issuer: string;
let rp: Rp;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pqid-passkey-e2e-'));
  const [idpPort, rpPort] = [await freePort(), await freePort()];
  ({ idp, issuer } = await createLocalIdp(dir, idpPort));
  await idp.app.listen({ port: idpPort, host: '127.0.0.1' });
  rp = await startExampleRp(idp, issuer, rpPort);
});

afterAll(async () => {
  await rp?.close();
  await idp?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cell = (html: string, id: string) => new RegExp(`id="${id}">([^<]*)<`).exec(html)?.[1];

/** Sign in with the password on the IdP's account page, redeem an enrolment code, register a passkey. */
async function register(username: string, alg: SoftAlg): Promise<SoftAuthenticator> {
  const account = await idp.ctx.accounts.create({ username, password: `pw ${username}` });
  const b = new HttpClient();
  const { url: loginUrl, res: loginPage } = await b.follow(`${issuer}/account`);
  const login = await b.postForm(`${loginUrl}/login`, {
    csrf: csrfIn(await loginPage.text()),
    username,
    password: `pw ${username}`,
  });
  const { res: page } = await b.follow(loginUrl, login);
  // A first passkey takes the operator's enrolment code as well (`pqid passkeys enrol`).
  const enrolled = await b.postForm(`${issuer}/account/enrol`, {
    csrf: csrfIn(await page.text()),
    code: await enrolmentCode(idp.ctx, account.sub),
  });
  expect(enrolled.headers.get('location')).toBe('/account?done=enrolled');
  const csrf = csrfIn(await (await b.follow(`${issuer}/account`)).res.text());
  const options = (await (
    await b.postJson(`${issuer}/account/passkeys/options`, { csrf })
  ).json()) as CreationOptions;
  const authenticator = new SoftAuthenticator({ origin: issuer });
  const credential = JSON.stringify(await authenticator.create(options, alg));
  const added = await b.postForm(`${issuer}/account/passkeys`, { csrf, credential });
  expect(added.headers.get('location')).toBe('/account?done=added');
  return authenticator;
}

/** From the RP's login link to the IdP's login page. */
async function toIdp(b: HttpClient, path: string) {
  const { url, res } = await b.follow(`${rp.url}${path}`);
  expect(new URL(url).origin).toBe(issuer);
  return { url, html: await res.text() };
}

/** passkey.js, by hand: options, the authenticator, the form post; then on to the RP's page. */
async function usePasskey(
  b: HttpClient,
  page: { url: string; html: string },
  authenticator: SoftAuthenticator,
) {
  const csrf = csrfIn(page.html);
  const options = (await (
    await b.postJson(`${page.url}/passkey/options`, { csrf })
  ).json()) as RequestOptions;
  const credential = JSON.stringify(await authenticator.get(options));
  const posted = await b.postForm(`${page.url}/passkey`, { csrf, credential });
  return b.follow(page.url, posted);
}

describe('ML-DSA passkeys through the example RP', () => {
  it.each(['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'] as const)(
    '%s passkey: passwordless sign-in; the RP shows acr and amr from its ML-DSA-65 ID token',
    async (alg) => {
      const authenticator = await register(`pq-${alg}`, alg);
      const b = new HttpClient();
      const page = await toIdp(b, '/login?store=session');
      const { url, res } = await usePasskey(b, page, authenticator);
      expect(url).toBe(`${rp.url}/`);
      const html = await res.text();
      expect(cell(html, 'signed-in')).toBe(`Signed in as pq-${alg}`);
      expect(cell(html, 'alg')).toBe('ML-DSA-65');
      expect(cell(html, 'acr')).toBe('urn:pqid:acr:mfa');
      expect(cell(html, 'amr')).toBe('swk mfa');
      expect(Date.parse(cell(html, 'auth-time') as string)).toBeGreaterThan(Date.now() - 60_000);
    },
  );

  it('the RP demands two factors: password, then the ML-DSA passkey; amr says both', async () => {
    const authenticator = await register('pq-stepup', 'ML-DSA-65');
    const b = new HttpClient();
    const page = await toIdp(b, '/login?store=session&acr=mfa');
    expect(page.html).toContain('asks for two factors');
    const posted = await b.postForm(`${page.url}/login`, {
      csrf: csrfIn(page.html),
      username: 'pq-stepup',
      password: 'pw pq-stepup',
    });
    const { url: secondUrl, res: second } = await b.follow(page.url, posted);
    const secondHtml = await second.text();
    expect(secondHtml).toContain('Confirm with your passkey');
    const { res } = await usePasskey(b, { url: secondUrl, html: secondHtml }, authenticator);
    const html = await res.text();
    expect(cell(html, 'acr')).toBe('urn:pqid:acr:mfa');
    expect(cell(html, 'amr')).toBe('pwd swk mfa');
  });

  it('a user without a passkey cannot meet it: the RP gets unmet_authentication_requirements', async () => {
    await idp.ctx.accounts.create({ username: 'pq-nokey', password: 'pw pq-nokey' });
    const b = new HttpClient();
    const page = await toIdp(b, '/login?store=session&acr=mfa');
    const posted = await b.postForm(`${page.url}/login`, {
      csrf: csrfIn(page.html),
      username: 'pq-nokey',
      password: 'pw pq-nokey',
    });
    const { url: unmetUrl, res: unmet } = await b.follow(page.url, posted);
    const unmetHtml = await unmet.text();
    expect(unmetHtml).toContain('A passkey is required');
    const cancelled = await b.postForm(`${unmetUrl}/cancel`, { csrf: csrfIn(unmetHtml) });
    const { url, res } = await b.follow(unmetUrl, cancelled);
    expect(new URL(url).origin).toBe(rp.url);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('<code>unmet_authentication_requirements</code>');
  });
});
