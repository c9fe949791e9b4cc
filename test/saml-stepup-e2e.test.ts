/**
 * SAML step-up end to end over real HTTP: the example SP (unmodified @node-saml/passport-saml)
 * sends a RequestedAuthnContext for REFEDS MFA, as node-saml encodes it; the IdP asks the
 * password and then the passkey (the test-only ML-DSA authenticator), and the SP accepts an
 * ML-DSA-65-signed assertion whose AuthnContextClassRef says REFEDS MFA. A user without a
 * passkey ends at the SP with a refused login (Responder/NoAuthnContext), never an assertion.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error the example is plain JavaScript
import { createSp, idpCertificateFromMetadata } from '../examples/saml-sp/sp.js';
import type { Idp } from '../idp/src/app.ts';
import { registerSamlSp } from '../idp/src/saml/sps.ts';
import { enrolmentCode } from '../idp/test/passkey-helpers.ts';
import {
  type CreationOptions,
  type RequestOptions,
  SoftAuthenticator,
} from '../idp/test/webauthn-authenticator.ts';
import { csrfIn, HttpClient } from './helpers/http-client.ts';
import { createLocalIdp } from './helpers/idp.ts';
import { freePort } from './helpers/net.ts';

const REFEDS_MFA = 'https://refeds.org/profile/mfa';

let idp: Idp;
let issuer: string;
let dir: string;
let spBase: string;
let server: Server;
let sp: { close(): void };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pqid-saml-stepup-'));
  const [idpPort, spPort] = [await freePort(), await freePort()];
  ({ idp, issuer } = await createLocalIdp(dir, idpPort));
  await idp.app.listen({ port: idpPort, host: '127.0.0.1' });
  spBase = `http://127.0.0.1:${spPort}`;
  const entityId = `${spBase}/saml/metadata`;
  await registerSamlSp(idp.ctx, {
    entityId,
    acsUrls: [`${spBase}/saml/acs`],
    signatureAlgorithm: 'ML-DSA-65',
    sign: 'both',
    nameIdFormat: 'persistent',
  });
  const metadata = await (await fetch(`${issuer}/saml/metadata`)).text();
  const created = createSp({
    baseUrl: spBase,
    entityId,
    idpSsoUrl: `${issuer}/saml/sso`,
    idpSloUrl: `${issuer}/saml/slo`,
    idpEntityId: `${issuer}/saml/metadata`,
    idpCert: await idpCertificateFromMetadata(metadata, 'ML-DSA-65'),
    authnContext: { classRefs: [REFEDS_MFA], comparison: 'minimum' },
  });
  sp = created;
  server = await new Promise((r) => {
    const s = created.app.listen(spPort, '127.0.0.1', () => r(s));
  });
});

afterAll(async () => {
  await new Promise((r) => server?.close(r));
  sp?.close();
  await idp?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** From the SP's login link to the IdP, then the password. */
async function passwordAtIdp(b: HttpClient, username: string) {
  const { url, res } = await b.follow(`${spBase}/login`);
  expect(new URL(url).origin).toBe(issuer);
  const html = await res.text();
  const posted = await b.postForm(`${url}/login`, {
    csrf: csrfIn(html),
    username,
    password: `pw ${username}`,
  });
  return b.follow(url, posted);
}

/** The auto-submitting form the IdP answers with, posted to the SP's ACS as a browser would. */
async function postToSp(b: HttpClient, html: string) {
  const fields = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1] as string,
      (m[2] as string)
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&'),
    ]),
  );
  const xml = Buffer.from(fields.SAMLResponse as string, 'base64').toString('utf8');
  const acs = await b.postForm(`${spBase}/saml/acs`, fields);
  return { xml, acs };
}

describe('node-saml SP asking for REFEDS MFA', () => {
  it('the password, then the ML-DSA passkey; the SP accepts an assertion saying REFEDS MFA', async () => {
    const judy = await idp.ctx.accounts.create({
      username: 'judy',
      password: 'pw judy',
      email: 'judy@example.com',
    });
    // Register the passkey on the account page (password sign-in and the operator's enrolment
    // code: the account had none).
    const reg = new HttpClient();
    const { url: loginUrl, res: loginPage } = await reg.follow(`${issuer}/account`);
    const login = await reg.postForm(`${loginUrl}/login`, {
      csrf: csrfIn(await loginPage.text()),
      username: 'judy',
      password: 'pw judy',
    });
    const enrolled = await reg.postForm(`${issuer}/account/enrol`, {
      csrf: csrfIn(await (await reg.follow(loginUrl, login)).res.text()),
      code: await enrolmentCode(idp.ctx, judy.sub),
    });
    expect(enrolled.headers.get('location')).toBe('/account?done=enrolled');
    const csrf = csrfIn(await (await reg.follow(`${issuer}/account`)).res.text());
    const options = (await (
      await reg.postJson(`${issuer}/account/passkeys/options`, { csrf })
    ).json()) as CreationOptions;
    const authenticator = new SoftAuthenticator({ origin: issuer, backupEligible: false });
    const credential = JSON.stringify(await authenticator.create(options, 'ML-DSA-65'));
    expect((await reg.postForm(`${issuer}/account/passkeys`, { csrf, credential })).status).toBe(303);

    const b = new HttpClient();
    const { url: secondUrl, res: second } = await passwordAtIdp(b, 'judy');
    const secondHtml = await second.text();
    expect(secondHtml).toContain('Confirm with your passkey');
    const c2 = csrfIn(secondHtml);
    const opts = (await (
      await b.postJson(`${secondUrl}/passkey/options`, { csrf: c2 })
    ).json()) as RequestOptions;
    const posted = await b.postForm(`${secondUrl}/passkey`, {
      csrf: c2,
      credential: JSON.stringify(await authenticator.get(opts)),
    });
    const { res: form } = await b.follow(secondUrl, posted);
    const { xml, acs } = await postToSp(b, await form.text());
    expect(xml).toContain(`<saml:AuthnContextClassRef>${REFEDS_MFA}</saml:AuthnContextClassRef>`);
    expect(acs.status).toBe(302);
    const home = await (await b.get(`${spBase}/`)).text();
    expect(home).toContain('id="signed-in"');
    expect(home).toContain(`<code id="authn-context">${REFEDS_MFA}</code>`);
  });

  it('a user without a passkey: Responder/NoAuthnContext, and the SP refuses the login', async () => {
    await idp.ctx.accounts.create({ username: 'kim', password: 'pw kim' });
    const b = new HttpClient();
    const { url: unmetUrl, res: unmet } = await passwordAtIdp(b, 'kim');
    const unmetHtml = await unmet.text();
    expect(unmetHtml).toContain('A passkey is required');
    const cancelled = await b.postForm(`${unmetUrl}/cancel`, { csrf: csrfIn(unmetHtml) });
    const { res: form } = await b.follow(unmetUrl, cancelled);
    const { xml, acs } = await postToSp(b, await form.text());
    expect(xml).toContain('urn:oasis:names:tc:SAML:2.0:status:NoAuthnContext');
    expect(xml).not.toContain('<saml:Assertion');
    expect(acs.status).not.toBe(302);
    expect(await (await b.get(`${spBase}/`)).text()).toContain('id="signed-out"');
  });
});
