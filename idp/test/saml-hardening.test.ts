/**
 * The IdP side of the findings of an outside attack run on the SAML endpoints, over fastify inject:
 *
 *   2. Work limits: AuthnRequests and LogoutRequests whose shape would cost quadratic work
 *      (20,000 siblings, deep nesting, attribute floods) are refused on both bindings with an error
 *      page before any parser or signature check runs; real requests pass.
 *   4. Front-channel logout must be authenticated (saml-profiles §4.4.3.1): an unsigned
 *      LogoutRequest that does not carry this session's SessionIndex for that SP (a forged one
 *      naming any registered SP and any transient NameID) never ends the session; the user is
 *      asked on a page whose POST is CSRF-protected. A signed request, or one with the SessionIndex
 *      and NameID the SP received, still logs out at once.
 *   5. A signed AuthnRequest (either binding) must carry Destination (saml-bindings §3.4.5.2).
 */
import { generateKeyPair, type Jwk } from '@pqid/jose';
import { algorithmFor, createRootCertificate, SIGNATURE_URIS, signXml, verifyXml } from '@pqid/xmldsig';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAMEID_FORMAT, STATUS } from '../src/saml/constants.ts';
import { registerSamlSp } from '../src/saml/sps.ts';
import { startTestIdp } from './helpers.ts';
import {
  authnRequestXml,
  formFields,
  logoutRequestXml,
  redirectParam,
  reqId,
  SP_ACS,
  SP_ENTITY,
  SP_SLO,
  samlLogin,
} from './saml-helpers.ts';

type Started = Awaited<ReturnType<typeof startTestIdp>>;
let t: Started;
let spKey: Jwk;
let spCert: string;
const SIGNED_SP = 'https://signed-sp.example.test/metadata';
const SIGNED_ACS = 'https://signed-sp.example.test/acs';
const SIGNED_SLO = 'https://signed-sp.example.test/slo';
const OTHER_SP = 'https://other-sp.example.test/metadata';

beforeAll(async () => {
  t = await startTestIdp();
  const ctx = t.idp.ctx;
  await registerSamlSp(ctx, {
    entityId: SP_ENTITY,
    acsUrls: [SP_ACS],
    sloUrl: SP_SLO,
    nameIdFormat: 'transient',
  });
  await registerSamlSp(ctx, {
    entityId: OTHER_SP,
    acsUrls: ['https://other-sp.example.test/acs'],
    sloUrl: 'https://other-sp.example.test/slo',
  });
  spKey = (await generateKeyPair('ML-DSA-65')).privateJwk;
  spCert = (await createRootCertificate({ subject: 'signed SP', key: spKey })).pem;
  await registerSamlSp(ctx, {
    entityId: SIGNED_SP,
    acsUrls: [SIGNED_ACS],
    sloUrl: SIGNED_SLO,
    certificate: spCert,
  });
}, 120_000);
afterAll(() => t?.close());

const inject = (url: string, cookie?: string) =>
  t.idp.app.inject({ method: 'GET', url, ...(cookie ? { headers: { cookie } } : {}) });
const post = (url: string, fields: Record<string, string>, cookie?: string) =>
  t.idp.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    payload: new URLSearchParams(fields).toString(),
  });
const ssoUrl = (xml: string, extra: Record<string, string> = {}) =>
  `/saml/sso?${new URLSearchParams({ SAMLRequest: redirectParam(xml), ...extra })}`;
const sloUrl = (xml: string) => `/saml/slo?${new URLSearchParams({ SAMLRequest: redirectParam(xml) })}`;
const responseOf = (html: string) =>
  Buffer.from(formFields(html).fields.SAMLResponse as string, 'base64').toString();

/** The SP's key signs the query string of a Redirect-binding request (saml-bindings §3.4.4.1). */
function redirectSigned(path: string, xml: string): string {
  const q = new URLSearchParams({
    SAMLRequest: redirectParam(xml),
    SigAlg: SIGNATURE_URIS['ML-DSA-65'],
  }).toString();
  const Signature = new (algorithmFor('ML-DSA-65'))().getSignature(q, spKey as never);
  return `${path}?${q}&${new URLSearchParams({ Signature })}`;
}

/** Signed in at the IdP through an SP; what that SP received (NameID, SessionIndex). */
async function signedIn(issuer = SP_ENTITY, acs = SP_ACS) {
  const request = authnRequestXml({ issuer, acs });
  const r = await samlLogin(
    t.idp.app,
    issuer === SIGNED_SP ? redirectSigned('/saml/sso', request) : ssoUrl(request),
  );
  const xml = responseOf(r.body);
  return {
    session: r.session,
    nameId: /<saml:NameID[^>]*>([^<]+)</.exec(xml)?.[1] as string,
    format: /<saml:NameID Format="([^"]+)"/.exec(xml)?.[1] as string,
    sessionIndex: /SessionIndex="([^"]+)"/.exec(xml)?.[1] as string,
  };
}

/** Still signed in: a new AuthnRequest is answered with a Response, not the login page. */
const stillSignedIn = async (session: string) =>
  (await inject(ssoUrl(authnRequestXml()), session)).statusCode === 200;

function expectErrorPage(
  r: { statusCode: number; headers: Record<string, unknown>; body: string },
  code: string,
) {
  expect(r.statusCode).toBe(400);
  expect(r.headers.location).toBeUndefined();
  // No Response is posted anywhere (the message may name the parameter it refused).
  expect(r.body).not.toContain('name="SAMLResponse"');
  expect(r.body).toContain(code);
}

/** The confirmation page: a CSRF-protected form back to the IdP, and no LogoutResponse (yet). */
function expectConfirmPage(r: { statusCode: number; body: string }) {
  expect(r.statusCode).toBe(200);
  expect(r.body).toContain('Sign out?');
  expect(r.body).not.toContain('SAMLResponse');
  const action = /<form method="post" action="([^"]+)"/.exec(r.body)?.[1] as string;
  expect(action).toMatch(/^\/saml\/slo\/confirm\/[A-Za-z0-9_-]{16,}$/);
  const csrf = /name="csrf" value="([^"]+)"/.exec(r.body)?.[1] as string;
  expect(csrf.length).toBeGreaterThan(20);
  return { action, csrf };
}

describe('front-channel LogoutRequests must be authenticated', () => {
  it('a forged unsigned LogoutRequest (any transient NameID, no SessionIndex) over GET does not end the session', async () => {
    const { session } = await signedIn();
    const forged = logoutRequestXml({ nameId: '_anything', format: NAMEID_FORMAT.transient });
    expectConfirmPage(await inject(sloUrl(forged), session));
    expect(await stillSignedIn(session)).toBe(true);
  });

  it('the same over POST', async () => {
    const { session } = await signedIn();
    const forged = logoutRequestXml({ nameId: '_anything', format: NAMEID_FORMAT.transient });
    expectConfirmPage(
      await post('/saml/slo', { SAMLRequest: Buffer.from(forged).toString('base64') }, session),
    );
    expect(await stillSignedIn(session)).toBe(true);
  });

  it('the real NameID but a wrong SessionIndex: not authenticated', async () => {
    const { session, nameId, format } = await signedIn();
    const xml = logoutRequestXml({ nameId, format, sessionIndex: '_guessed' });
    expectConfirmPage(await inject(sloUrl(xml), session));
    expect(await stillSignedIn(session)).toBe(true);
  });

  it('the SessionIndex one SP received, replayed by another registered SP: not authenticated', async () => {
    const { session, nameId, format, sessionIndex } = await signedIn();
    const xml = logoutRequestXml({ nameId, format, sessionIndex, issuer: OTHER_SP });
    expectConfirmPage(await inject(sloUrl(xml), session));
    expect(await stillSignedIn(session)).toBe(true);
  });

  it('the SessionIndex and NameID the SP received: logs out at once, Success to the registered SLO URL', async () => {
    const { session, nameId, format, sessionIndex } = await signedIn();
    const id = reqId();
    const r = await inject(sloUrl(logoutRequestXml({ id, nameId, format, sessionIndex })), session);
    expect(r.statusCode).toBe(200);
    const { action } = formFields(r.body);
    expect(action).toBe(SP_SLO);
    const xml = responseOf(r.body);
    expect(xml).toContain(`InResponseTo="${id}"`);
    expect(xml).toContain(STATUS.success);
    expect(await stillSignedIn(session)).toBe(false);
  });

  it('a signed LogoutRequest (the SP registered a certificate) naming the user logs out at once', async () => {
    const { session, nameId, format } = await signedIn(SIGNED_SP, SIGNED_ACS);
    const r = await inject(
      redirectSigned('/saml/slo', logoutRequestXml({ nameId, format, issuer: SIGNED_SP })),
      session,
    );
    expect(r.statusCode).toBe(200);
    expect(formFields(r.body).action).toBe(SIGNED_SLO);
    expect(responseOf(r.body)).toContain(STATUS.success);
    expect(await stillSignedIn(session)).toBe(false);
  });

  it('a signed LogoutRequest naming another user: the question, the session survives', async () => {
    const { session } = await signedIn(SIGNED_SP, SIGNED_ACS);
    const xml = logoutRequestXml({
      nameId: 'someone-else',
      format: NAMEID_FORMAT.persistent,
      issuer: SIGNED_SP,
    });
    expectConfirmPage(await inject(redirectSigned('/saml/slo', xml), session));
    expect(await stillSignedIn(session)).toBe(true);
  });

  it('confirming on the page (POST, CSRF token) signs out and answers the SP with Success', async () => {
    const { session } = await signedIn();
    const id = reqId();
    const page = expectConfirmPage(
      await inject(sloUrl(logoutRequestXml({ id, nameId: '_x', format: NAMEID_FORMAT.transient })), session),
    );
    const r = await post(page.action, { csrf: page.csrf, logout: 'yes' }, session);
    expect(r.statusCode).toBe(200);
    expect(formFields(r.body).action).toBe(SP_SLO);
    const xml = responseOf(r.body);
    verifyXml(xml, { trustedCertificates: [await certOf()], allowedAlgorithms: ['ML-DSA-65'] });
    expect(xml).toContain(`InResponseTo="${id}"`);
    expect(xml).toContain(STATUS.success);
    expect(await stillSignedIn(session)).toBe(false);
  });

  it('declining keeps the session and answers the SP with Requester/RequestDenied', async () => {
    const { session } = await signedIn();
    const page = expectConfirmPage(
      await inject(sloUrl(logoutRequestXml({ nameId: '_x', format: NAMEID_FORMAT.transient })), session),
    );
    const r = await post(page.action, { csrf: page.csrf, logout: 'no' }, session);
    expect(r.statusCode).toBe(200);
    const xml = responseOf(r.body);
    expect(xml).toContain(STATUS.requester);
    expect(xml).toContain(STATUS.requestDenied);
    expect(await stillSignedIn(session)).toBe(true);
  });

  it('the confirmation refuses a wrong CSRF token, another browser, and a second use', async () => {
    const { session } = await signedIn();
    const other = await signedIn();
    const page = expectConfirmPage(
      await inject(sloUrl(logoutRequestXml({ nameId: '_x', format: NAMEID_FORMAT.transient })), session),
    );
    expect((await post(page.action, { csrf: `${page.csrf}x`, logout: 'yes' }, session)).statusCode).toBe(403);
    expect((await post(page.action, { csrf: page.csrf, logout: 'yes' }, other.session)).statusCode).toBe(403);
    expect((await post(page.action, { csrf: page.csrf, logout: 'yes' })).statusCode).toBe(403);
    expect(await stillSignedIn(session)).toBe(true);
    expect(await stillSignedIn(other.session)).toBe(true);
    expect((await post(page.action, { csrf: page.csrf, logout: 'yes' }, session)).statusCode).toBe(200);
    expect((await post(page.action, { csrf: page.csrf, logout: 'yes' }, session)).statusCode).toBe(403);
  });

  it('without a session there is nothing to end: Success, no page', async () => {
    const r = await inject(sloUrl(logoutRequestXml({ nameId: '_x', format: NAMEID_FORMAT.transient })));
    expect(r.statusCode).toBe(200);
    expect(responseOf(r.body)).toContain(STATUS.success);
  });

  async function certOf(): Promise<string> {
    const xml = (await inject('/saml/metadata')).body;
    const sig = /<ds:Signature[\s\S]*?<\/ds:Signature>/.exec(xml)?.[0] as string;
    const leaves = [...xml.replace(sig, '').matchAll(/<ds:X509Certificate>([^<]+)</g)].map(
      (m) => m[1] as string,
    );
    return leaves[0] as string;
  }
});

describe('a signed AuthnRequest must carry Destination', () => {
  const signedXml = (destination?: null) =>
    authnRequestXml({ issuer: SIGNED_SP, acs: SIGNED_ACS, ...(destination === null ? { destination } : {}) });

  const postSigned = (xml: string) =>
    post('/saml/sso', {
      SAMLRequest: Buffer.from(signXml(xml, { key: spKey, certificate: spCert })).toString('base64'),
    });

  it('HTTP-Redirect, query-signed, without Destination: refused', async () => {
    expectErrorPage(await inject(redirectSigned('/saml/sso', signedXml(null))), 'destination_required');
    expect((await inject(redirectSigned('/saml/sso', signedXml()))).statusCode).toBe(303); // control
  });

  it('HTTP-POST, enveloped signature, without Destination: refused', async () => {
    expectErrorPage(await postSigned(signedXml(null)), 'destination_required');
    expect((await postSigned(signedXml())).statusCode).toBe(303); // control
  });

  it('a signed request from an SP without a registered certificate must carry Destination too', async () => {
    const xml = authnRequestXml({ destination: null });
    const r = await post('/saml/sso', {
      SAMLRequest: Buffer.from(signXml(xml, { key: spKey, certificate: spCert })).toString('base64'),
    });
    expectErrorPage(r, 'destination_required');
  });

  it('an unsigned request may omit it (saml-bindings leaves it optional there); a wrong one is refused', async () => {
    expect((await inject(ssoUrl(authnRequestXml({ destination: null })))).statusCode).toBe(303);
    expectErrorPage(
      await inject(ssoUrl(authnRequestXml({ destination: 'https://elsewhere.example/sso' }))),
      'invalid_request',
    );
  });
});

describe('requests whose shape would cost quadratic work are refused before parsing', () => {
  // Within saml.maxRequestBytes and the 64 KiB body limit (base64), so the shape is what refuses them.
  const SHAPES: Array<[string, string]> = [
    ['10,000 empty siblings', '<a/>'.repeat(10_000)],
    ['1,000 deep', `${'<a>'.repeat(1000)}${'</a>'.repeat(1000)}`],
    [
      '1,000 attributes on one element',
      `<a ${Array.from({ length: 1000 }, (_, i) => `a${i}="x"`).join(' ')}/>`,
    ],
    ['5,000 elements in groups of 50', `<g>${'<a/>'.repeat(50)}</g>`.repeat(100)],
  ];

  it.each(SHAPES)('AuthnRequest with %s: error page on both bindings', async (_n, padding) => {
    const xml = authnRequestXml({ padding });
    expectErrorPage(await inject(ssoUrl(xml)), 'request_too_complex');
    expectErrorPage(
      await post('/saml/sso', { SAMLRequest: Buffer.from(xml).toString('base64') }),
      'request_too_complex',
    );
  });

  it.each(SHAPES)('LogoutRequest with %s: error page, the session survives', async (_n, padding) => {
    const { session, nameId, format, sessionIndex } = await signedIn();
    const xml = logoutRequestXml({ nameId, format, sessionIndex, padding });
    expectErrorPage(await inject(sloUrl(xml), session), 'request_too_complex');
    expectErrorPage(
      await post('/saml/slo', { SAMLRequest: Buffer.from(xml).toString('base64') }, session),
      'request_too_complex',
    );
    expect(await stillSignedIn(session)).toBe(true);
  });

  it('the limits come from saml.requestLimits: tightened, an ordinary request is refused', async () => {
    const limits = t.idp.ctx.config.saml.requestLimits;
    const saved = { ...limits };
    try {
      limits.maxElements = 2; // an AuthnRequest with an Issuer is two elements; add a NameIDPolicy
      expectErrorPage(
        await inject(ssoUrl(authnRequestXml({ format: NAMEID_FORMAT.persistent }))),
        'request_too_complex',
      );
    } finally {
      Object.assign(limits, saved);
    }
    expect((await inject(ssoUrl(authnRequestXml({ format: NAMEID_FORMAT.persistent })))).statusCode).toBe(
      303,
    );
  });

  it('a signed AuthnRequest POST as large as the body limit allows, of many siblings: refused before its signature is checked', async () => {
    const xml = authnRequestXml({ issuer: SIGNED_SP, acs: SIGNED_ACS, padding: '<a/>'.repeat(7_700) });
    const body = new URLSearchParams({
      SAMLRequest: Buffer.from(signXml(xml, { key: spKey, certificate: spCert })).toString('base64'),
    }).toString();
    expect(body.length).toBeGreaterThan(60 * 1024);
    expect(body.length).toBeLessThan(64 * 1024);
    const r = await t.idp.app.inject({
      method: 'POST',
      url: '/saml/sso',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: body,
    });
    expectErrorPage(r, 'request_too_complex');
  });
});

describe('a signed LogoutRequest must be bound to this session', () => {
  it('from an SP that took no part in the session, with any transient NameID: the question, nothing ends', async () => {
    const { session } = await signedIn();
    const xml = logoutRequestXml({ nameId: '_anyone', format: NAMEID_FORMAT.transient, issuer: SIGNED_SP });
    expectConfirmPage(await inject(redirectSigned('/saml/slo', xml), session));
    expect(await stillSignedIn(session)).toBe(true);
  });

  it("naming the user's persistent NameID, from an SP that took part only in an earlier session: the question", async () => {
    // The SP learnt the user's identifier in an earlier session…
    const earlier = await signedIn(SIGNED_SP, SIGNED_ACS);
    expect(earlier.format).toBe(NAMEID_FORMAT.persistent);
    // …and this session went through another SP only.
    const { session } = await signedIn();
    const xml = logoutRequestXml({ nameId: earlier.nameId, format: earlier.format, issuer: SIGNED_SP });
    expectConfirmPage(await inject(redirectSigned('/saml/slo', xml), session));
    expect(await stillSignedIn(session)).toBe(true);
    expect(await stillSignedIn(earlier.session)).toBe(true);
  });

  it('a transient NameID from an SP that took part: its SessionIndex ends the session, without it the question', async () => {
    const transient = async () => {
      const request = authnRequestXml({
        issuer: SIGNED_SP,
        acs: SIGNED_ACS,
        format: NAMEID_FORMAT.transient,
      });
      const r = await samlLogin(t.idp.app, redirectSigned('/saml/sso', request));
      const xml = responseOf(r.body);
      return {
        session: r.session,
        nameId: /<saml:NameID[^>]*>([^<]+)</.exec(xml)?.[1] as string,
        sessionIndex: /SessionIndex="([^"]+)"/.exec(xml)?.[1] as string,
      };
    };
    const a = await transient();
    const without = logoutRequestXml({
      nameId: a.nameId,
      format: NAMEID_FORMAT.transient,
      issuer: SIGNED_SP,
    });
    expectConfirmPage(await inject(redirectSigned('/saml/slo', without), a.session));
    expect(await stillSignedIn(a.session)).toBe(true);
    const b = await transient();
    const withIndex = logoutRequestXml({
      nameId: b.nameId,
      format: NAMEID_FORMAT.transient,
      issuer: SIGNED_SP,
      sessionIndex: b.sessionIndex,
    });
    const r = await inject(redirectSigned('/saml/slo', withIndex), b.session);
    expect(responseOf(r.body)).toContain(STATUS.success);
    expect(await stillSignedIn(b.session)).toBe(false);
  });

  it('the SessionIndex another session was given does not end this one', async () => {
    const a = await signedIn(SIGNED_SP, SIGNED_ACS);
    const b = await signedIn(SIGNED_SP, SIGNED_ACS);
    expect(a.sessionIndex).not.toBe(b.sessionIndex);
    const xml = logoutRequestXml({
      nameId: '_x',
      format: NAMEID_FORMAT.transient,
      issuer: SIGNED_SP,
      sessionIndex: a.sessionIndex,
    });
    expectConfirmPage(await inject(redirectSigned('/saml/slo', xml), b.session));
    expect(await stillSignedIn(b.session)).toBe(true);
  });
});

describe('a Redirect-binding query holds only the binding parameters', () => {
  const extra = (url: string, param: string) => `${url}&${param}`;
  const aResponse = `SAMLResponse=${encodeURIComponent(Buffer.from('<samlp:Response/>').toString('base64'))}`;

  it.each([
    ['a SAMLResponse beside the signed SAMLRequest', aResponse, 'unexpected_parameter'],
    ['an unknown parameter', 'foo=bar', 'unexpected_parameter'],
    ['a percent-encoded parameter name', 'SAML%52esponse=x', 'unexpected_parameter'],
    ['a second Signature', 'Signature=AAAA', 'invalid_request'],
  ])('a signed AuthnRequest with %s: refused with an error page', async (_what, param, code) => {
    const url = extra(
      redirectSigned('/saml/sso', authnRequestXml({ issuer: SIGNED_SP, acs: SIGNED_ACS })),
      param,
    );
    expectErrorPage(await inject(url), code);
  });

  it('the same request without it is accepted; an unsigned one with it is refused too', async () => {
    const ok = await inject(
      redirectSigned('/saml/sso', authnRequestXml({ issuer: SIGNED_SP, acs: SIGNED_ACS })),
    );
    expect(ok.statusCode).toBe(303);
    expectErrorPage(await inject(extra(ssoUrl(authnRequestXml()), aResponse)), 'unexpected_parameter');
  });

  it('a signed LogoutRequest with a SAMLResponse beside it: refused, the session survives', async () => {
    const { session, nameId, format } = await signedIn(SIGNED_SP, SIGNED_ACS);
    const url = extra(
      redirectSigned('/saml/slo', logoutRequestXml({ nameId, format, issuer: SIGNED_SP })),
      aResponse,
    );
    expectErrorPage(await inject(url, session), 'unexpected_parameter');
    expect(await stillSignedIn(session)).toBe(true);
  });
});
