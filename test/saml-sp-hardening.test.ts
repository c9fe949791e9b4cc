/**
 * The example SP (examples/saml-sp, unmodified passport-saml behind @pqid/xmldsig's guard) against
 * the findings of an outside attack run on the SAML endpoints, over real HTTP:
 *
 *   1. SAML messages in the query string of any route (passport-saml reads `req.query` first, and
 *      node-saml accepts an unsigned Redirect-binding LogoutRequest) must not end the session.
 *   2. Messages whose shape would make node-saml's XPath work quadratic (20,000 siblings, deep
 *      nesting, attribute floods) are refused by the guard before node-saml or a parser sees them.
 *   3. A validly signed Response addressed to another ACS of the same SP (Destination and/or
 *      Recipient) is refused.
 *
 * The IdP here is a local ML-DSA-65 key with the IdP's own Response builder (idp/src/saml/response.ts):
 * every Response is validly signed, so each refusal is the SP's protocol layer, not the signature.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { SAML } from '@node-saml/node-saml';
import { generateKeyPair, importJWK, type Jwk, type PrivateKey } from '@pqid/jose';
import { createRootCertificate, signXml } from '@pqid/xmldsig';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error the example is plain JavaScript
import { createSp } from '../examples/saml-sp/sp.js';
import type { SamlSigner } from '../idp/src/saml/certificates.ts';
import { signedLoginResponse } from '../idp/src/saml/response.ts';
import { CookieBrowser } from './helpers/cookie-browser.ts';
import { freePort } from './helpers/net.ts';

const IDP = 'https://idp.example.test/saml/metadata';
const ALG = 'ML-DSA-65';
let signer: SamlSigner;
/** The same key as a private JWK, for the synchronous signXml the hand-built responses use. */
let signingJwk: Jwk;
let spBase: string;
let entityId: string;
let acsUrl: string;
let server: Server;
let sp: { close: () => void };

beforeAll(async () => {
  const { privateJwk } = await generateKeyPair(ALG);
  const { pem } = await createRootCertificate({ subject: 'test IdP signing', key: privateJwk });
  signingJwk = privateJwk;
  const key = (await importJWK(privateJwk, { alg: ALG })) as PrivateKey;
  signer = { alg: ALG, kid: key.kid, key, certificate: pem };
  const port = await freePort();
  spBase = `http://127.0.0.1:${port}`;
  entityId = `${spBase}/saml/metadata`;
  acsUrl = `${spBase}/saml/acs`;
  const created = createSp({
    baseUrl: spBase,
    entityId,
    idpSsoUrl: 'https://idp.example.test/saml/sso',
    idpSloUrl: 'https://idp.example.test/saml/slo',
    idpEntityId: IDP,
    idpCert: pem,
  });
  sp = created;
  server = await new Promise<Server>((r) => {
    const s = created.app.listen(port, '127.0.0.1', () => r(s));
  });
}, 60_000);
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  sp?.close();
});

/** Every call node-saml makes to a message-validating entry point, so a test can say "never reached". */
const reached: string[] = [];
const METHODS = ['validateRedirectAsync', 'validatePostResponseAsync', 'validatePostRequestAsync'] as const;
const originals = new Map<string, unknown>();
beforeAll(() => {
  const proto = SAML.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  for (const m of METHODS) {
    const original = proto[m] as (...a: unknown[]) => unknown;
    originals.set(m, original);
    proto[m] = function (this: unknown, ...args: unknown[]) {
      reached.push(m);
      return original.apply(this, args);
    };
  }
});
afterAll(() => {
  const proto = SAML.prototype as unknown as Record<string, unknown>;
  for (const [m, f] of originals) proto[m] = f;
});
afterEach(() => {
  reached.length = 0;
});

const b64 = (s: string) => Buffer.from(s).toString('base64');
const deflated = (s: string) => deflateRawSync(Buffer.from(s)).toString('base64');
const instant = (ms = Date.now()) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The SP sends an AuthnRequest (HTTP-Redirect); its ID, which the SP will accept an answer to once. */
async function authnRequestId(b: CookieBrowser): Promise<string> {
  const to = new URL((await b.get(`${spBase}/login`)).headers.get('location') as string);
  const xml = inflateRawSync(Buffer.from(to.searchParams.get('SAMLRequest') as string, 'base64')).toString();
  return /\bID="([^"]+)"/.exec(xml)?.[1] as string;
}

function idpResponse(o: { inResponseTo: string; acs?: string }) {
  return signedLoginResponse(
    {
      idpEntityId: IDP,
      spEntityId: entityId,
      acsUrl: o.acs ?? acsUrl,
      inResponseTo: o.inResponseTo,
      nameId: { format: 'persistent', value: 'p-alice' },
      account: { sub: 's', uid: 'alice', passwordHash: '', email: 'alice@example.test' },
      authTime: Math.floor(Date.now() / 1000),
      sessionIndex: '_s1',
      authnContext: 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport',
      now: Date.now(),
      lifetime: 300,
    },
    signer,
    { sign: 'both' },
  );
}

/**
 * A Response shaped like the IdP's but with Destination and Recipient chosen separately (or
 * Destination left out), then signed (Assertion, then Response) with the IdP key: never edited after.
 */
function addressedResponse(o: { inResponseTo: string; destination?: string; recipient: string }) {
  const now = Date.now();
  const until = instant(now + 300_000);
  const rid = `_r${randomBytes(8).toString('hex')}`;
  const aid = `_a${randomBytes(8).toString('hex')}`;
  const dest = o.destination === undefined ? '' : ` Destination="${o.destination}"`;
  const xml =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${rid}" Version="2.0" IssueInstant="${instant(now)}"${dest} InResponseTo="${o.inResponseTo}">` +
    `<saml:Issuer>${IDP}</saml:Issuer>` +
    '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>' +
    `<saml:Assertion ID="${aid}" Version="2.0" IssueInstant="${instant(now)}"><saml:Issuer>${IDP}</saml:Issuer>` +
    '<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">p-alice</saml:NameID>' +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${until}" Recipient="${o.recipient}" InResponseTo="${o.inResponseTo}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${instant(now - 60_000)}" NotOnOrAfter="${until}"><saml:AudienceRestriction><saml:Audience>${entityId}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${instant(now)}" SessionIndex="${aid}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    '</saml:Assertion></samlp:Response>';
  const key = { key: signingJwk, certificate: signer.certificate };
  return signXml(signXml(xml, { ...key, id: aid }), key);
}

/** A browser signed in at the SP through a real AuthnRequest → signed Response round trip. */
async function signedInBrowser(): Promise<CookieBrowser> {
  const b = new CookieBrowser();
  const res = await b.postForm(acsUrl, {
    SAMLResponse: b64(await idpResponse({ inResponseTo: await authnRequestId(b) })),
  });
  expect(res.status).toBe(302);
  expect(res.headers.get('location')).toBe('/');
  expect(await isSignedIn(b)).toBe(true);
  reached.length = 0;
  return b;
}

const isSignedIn = async (b: CookieBrowser) =>
  (await (await b.get(`${spBase}/`)).text()).includes('signed-in"');

/** An unsigned LogoutRequest naming the IdP as Issuer, as an attacker can build without any key. */
function forgedLogoutRequest(padding = '') {
  return (
    `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_evil${randomBytes(6).toString('hex')}" Version="2.0" IssueInstant="${instant()}">` +
    `<saml:Issuer>${IDP}</saml:Issuer><saml:NameID>p-alice</saml:NameID>${padding}</samlp:LogoutRequest>`
  );
}

/** An unsigned LogoutResponse naming the IdP. */
function logoutResponse() {
  return (
    `<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_lo${randomBytes(6).toString('hex')}" Version="2.0" IssueInstant="${instant()}" Destination="${spBase}/saml/slo">` +
    `<saml:Issuer>${IDP}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status></samlp:LogoutResponse>`
  );
}

describe('SAML messages in the query string never reach node-saml; unsigned logout is refused', () => {
  it('baseline: a fresh, solicited, validly signed Response signs in', async () => {
    await signedInBrowser();
  });

  /** Bodies the old body-only guard let through, so the query is what passport-saml reads. */
  const acsBody = async () => ({
    SAMLResponse: b64(await idpResponse({ inResponseTo: await authnRequestId(new CookieBrowser()) })),
  });
  const sloBody = async () => ({ SAMLResponse: b64(logoutResponse()) });
  const cases: Array<[string, (b: CookieBrowser, q: string) => Promise<Response>]> = [
    ['GET /login?SAMLRequest=…', (b, q) => b.get(`${spBase}/login?${q}`)],
    [
      'POST /saml/acs?SAMLRequest=… (with a Response in the body)',
      async (b, q) => b.postForm(`${spBase}/saml/acs?${q}`, await acsBody()),
    ],
    [
      'POST /saml/slo?SAMLRequest=… (with a LogoutResponse in the body)',
      async (b, q) => b.postForm(`${spBase}/saml/slo?${q}`, await sloBody()),
    ],
    ['POST /saml/acs?SAMLRequest=… (empty body)', (b, q) => b.postForm(`${spBase}/saml/acs?${q}`, {})],
    ['GET /?SAMLRequest=…', (b, q) => b.get(`${spBase}/?${q}`)],
    ['GET /logout?SAMLRequest=…', (b, q) => b.get(`${spBase}/logout?${q}`)],
  ];
  it.each(cases)(
    '%s with an unsigned Redirect LogoutRequest: 400, the session survives',
    async (_n, send) => {
      const b = await signedInBrowser();
      const res = await send(
        b,
        new URLSearchParams({ SAMLRequest: deflated(forgedLogoutRequest()) }).toString(),
      );
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(/SAML message refused/);
      expect(reached).toEqual([]);
      expect(await isSignedIn(b)).toBe(true);
    },
  );

  it('a signature-less Redirect logout is refused even with SigAlg but no Signature', async () => {
    const b = await signedInBrowser();
    const q = new URLSearchParams({
      SAMLRequest: deflated(forgedLogoutRequest()),
      SigAlg: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    });
    const res = await b.get(`${spBase}/login?${q}`);
    expect(res.status).toBe(400);
    expect(await isSignedIn(b)).toBe(true);
  });

  it('POST /saml/slo with an unsigned LogoutRequest in the body: refused before node-saml, the session survives', async () => {
    const b = await signedInBrowser();
    const res = await b.postForm(`${spBase}/saml/slo`, { SAMLRequest: b64(forgedLogoutRequest()) });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/must be signed/);
    expect(reached).toEqual([]);
    expect(await isSignedIn(b)).toBe(true);
  });
});

describe('message shapes that cost node-saml quadratic work are refused before it runs', () => {
  const siblings = (n: number) => '<a/>'.repeat(n);
  const shapes: Array<[string, string]> = [
    ['20,000 empty siblings (80 KB inflated, 524 bytes deflated)', siblings(20_000)],
    ['2,000 siblings', siblings(2_000)],
    ['nesting 1,000 deep', `${'<a>'.repeat(1000)}${'</a>'.repeat(1000)}`],
    [
      'an element with 1,000 attributes',
      `<a ${Array.from({ length: 1000 }, (_, i) => `a${i}="x"`).join(' ')}/>`,
    ],
    ['10,000 elements in groups of 100', `<g>${siblings(100)}</g>`.repeat(100)],
  ];

  // The login route takes no SAML message at all: refused before it is even decoded.
  it.each(shapes)(
    'GET /login?SAMLRequest= with %s: a quick 400, node-saml never runs',
    async (_n, padding) => {
      const b = await signedInBrowser();
      const q = new URLSearchParams({ SAMLRequest: deflated(forgedLogoutRequest(padding)) });
      const res = await b.get(`${spBase}/login?${q}`);
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(/SAML message refused: This endpoint takes no SAML message/);
      expect(reached).toEqual([]);
      expect(await isSignedIn(b)).toBe(true);
    },
  );

  it.each(shapes)(
    'POST /saml/acs with a Response padded with %s: 400 before node-saml',
    async (_n, padding) => {
      const b = new CookieBrowser();
      const id = await authnRequestId(b);
      const xml = (await idpResponse({ inResponseTo: id })).replace(
        '</samlp:Response>',
        `${padding}</samlp:Response>`,
      );
      const res = await b.postForm(acsUrl, { SAMLResponse: b64(xml) });
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(/SAML message refused: .*\(limit max\w+\)/);
      expect(reached).toEqual([]);
    },
  );
});

describe('Destination and Recipient must be this ACS (saml-profiles §4.1.4.3, saml-bindings §3.5.5.2)', () => {
  const other = () => `${spBase}/saml/other-acs`;

  it('a Response the IdP issued for another ACS of this SP (Destination and Recipient) is refused', async () => {
    const b = new CookieBrowser();
    const xml = await idpResponse({ inResponseTo: await authnRequestId(b), acs: other() });
    const res = await b.postForm(acsUrl, { SAMLResponse: b64(xml) });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/Destination/);
    expect(reached).toEqual([]); // the guard refuses it before node-saml
    expect(await isSignedIn(b)).toBe(false);
  });

  it('Destination right, Recipient another ACS: refused', async () => {
    const b = new CookieBrowser();
    const xml = addressedResponse({
      inResponseTo: await authnRequestId(b),
      destination: acsUrl,
      recipient: other(),
    });
    const res = await b.postForm(acsUrl, { SAMLResponse: b64(xml) });
    // Past the guard (Destination is right), refused on what node-saml verified.
    expect(res.status).toBe(401);
    expect(await res.text()).toMatch(/Recipient .*other-acs is not this ACS/);
    expect(await isSignedIn(b)).toBe(false);
  });

  it('Recipient right, Destination another ACS: refused', async () => {
    const b = new CookieBrowser();
    const xml = addressedResponse({
      inResponseTo: await authnRequestId(b),
      destination: other(),
      recipient: acsUrl,
    });
    const res = await b.postForm(acsUrl, { SAMLResponse: b64(xml) });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/Destination/);
    expect(reached).toEqual([]); // the guard refuses it before node-saml
    expect(await isSignedIn(b)).toBe(false);
  });

  it('a signed Response without Destination: refused', async () => {
    const b = new CookieBrowser();
    const xml = addressedResponse({ inResponseTo: await authnRequestId(b), recipient: acsUrl });
    const res = await b.postForm(acsUrl, { SAMLResponse: b64(xml) });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/Destination/);
    expect(reached).toEqual([]); // the guard refuses it before node-saml
    expect(await isSignedIn(b)).toBe(false);
  });

  it('control: the same hand-built shape addressed to this ACS signs in', async () => {
    const b = new CookieBrowser();
    const xml = addressedResponse({
      inResponseTo: await authnRequestId(b),
      destination: acsUrl,
      recipient: acsUrl,
    });
    const res = await b.postForm(acsUrl, { SAMLResponse: b64(xml) });
    expect(res.status).toBe(302);
    expect(await isSignedIn(b)).toBe(true);
  });
});
