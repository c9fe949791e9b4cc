/**
 * The SAML IdP over fastify inject: signed metadata on every algorithm, SSO over HTTP-Redirect
 * and HTTP-POST with responses verified by @pqid/xmldsig and ML-DSA values cross-checked with
 * @noble/post-quantum and node:crypto, request signatures, the OIDC session shared with SAML,
 * NameID formats, SLO, and every refusal answered with an error page — never a redirect.
 */
import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { ml_dsa44, ml_dsa65, ml_dsa87 } from '@noble/post-quantum/ml-dsa.js';
import { generateKeyPair, type Jwk } from '@pqid/jose';
import {
  algorithmFor,
  createRootCertificate,
  parseCertificate,
  SIGNATURE_URIS,
  signXml,
  verifyCertificateSignature,
  verifySamlResponse,
  verifyXml,
} from '@pqid/xmldsig';
import { DOMParser } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExclusiveCanonicalization } from 'xml-crypto';
import { NAMEID_FORMAT, STATUS } from '../src/saml/constants.ts';
import { formatSizeTable, samlSizes } from '../src/saml/sizes.ts';
import { registerSamlSp, type SamlSpInput } from '../src/saml/sps.ts';
import { browserLogin, DEMO_REDIRECT, pkce, startTestIdp } from './helpers.ts';
import {
  authnRequestXml,
  formFields,
  isoNow,
  logoutRequestXml,
  redirectParam,
  reqId,
  SP_ACS,
  SP_ENTITY,
  samlLogin,
} from './saml-helpers.ts';

const DS = 'http://www.w3.org/2000/09/xmldsig#';
const NOBLE = { 'ML-DSA-44': ml_dsa44, 'ML-DSA-65': ml_dsa65, 'ML-DSA-87': ml_dsa87 };
const ALGS = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87', 'ES256', 'RS256'] as const;

type Started = Awaited<ReturnType<typeof startTestIdp>>;
let t: Started;
let spKey: Jwk;
let spCert: string;
const SIGNED_SP = 'https://signed-sp.example.test/metadata';
const SIGNED_ACS = 'https://signed-sp.example.test/acs';

const spFor = (alg: string) => `https://sp-${alg.toLowerCase()}.example.test/metadata`;
const acsFor = (alg: string) => `https://sp-${alg.toLowerCase()}.example.test/acs`;

async function register(input: Partial<SamlSpInput> & { entityId: string }) {
  return registerSamlSp(t.idp.ctx, { acsUrls: [SP_ACS], ...input } as SamlSpInput);
}

beforeAll(async () => {
  t = await startTestIdp();
  await register({
    entityId: SP_ENTITY,
    sloUrl: 'https://sp.example.test/slo',
    signatureAlgorithm: 'ML-DSA-65',
  });
  for (const alg of ALGS)
    for (const sign of ['response', 'assertion', 'both'] as const)
      await register({
        entityId: `${spFor(alg)}/${sign}`,
        acsUrls: [acsFor(alg)],
        signatureAlgorithm: alg,
        sign,
      });
  spKey = (await generateKeyPair('ML-DSA-65')).privateJwk;
  spCert = (await createRootCertificate({ subject: 'signed SP', key: spKey })).pem;
  await register({
    entityId: SIGNED_SP,
    acsUrls: [SIGNED_ACS],
    sloUrl: 'https://signed-sp.example.test/slo',
    certificate: spCert,
    signatureAlgorithm: 'ML-DSA-65',
  });
}, 120_000);
afterAll(() => t?.close());

const inject = (url: string, cookie?: string) =>
  t.idp.app.inject({ method: 'GET', url, ...(cookie ? { headers: { cookie } } : {}) });
const ssoUrl = (xml: string, extra: Record<string, string> = {}) =>
  `/saml/sso?${new URLSearchParams({ SAMLRequest: redirectParam(xml), ...extra })}`;
const responseOf = (html: string) =>
  Buffer.from(formFields(html).fields.SAMLResponse as string, 'base64').toString();
/** POST a LogoutRequest (HTTP-POST binding) with the session cookie `cookie`. */
const postLogout = (cookie: string, xml: string, relayState?: string) =>
  t.idp.app.inject({
    method: 'POST',
    url: '/saml/slo',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      SAMLRequest: Buffer.from(xml).toString('base64'),
      ...(relayState !== undefined ? { RelayState: relayState } : {}),
    }).toString(),
  });

async function metadataCerts(): Promise<{ xml: string; leaf: string[]; root: string }> {
  const xml = (await inject('/saml/metadata')).body;
  const sig = /<ds:Signature[\s\S]*?<\/ds:Signature>/.exec(xml)?.[0] as string;
  const root = /<ds:X509Certificate>([^<]+)</.exec(sig)?.[1] as string;
  const leaf = [...xml.replace(sig, '').matchAll(/<ds:X509Certificate>([^<]+)</g)].map((m) => m[1] as string);
  return { xml, leaf, root };
}

function signedInfoAndValue(xml: string, n: number) {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const sig = doc.getElementsByTagNameNS(DS, 'Signature').item(n);
  const si = sig?.getElementsByTagNameNS(DS, 'SignedInfo').item(0);
  const sv = sig?.getElementsByTagNameNS(DS, 'SignatureValue').item(0);
  const cert = sig?.getElementsByTagNameNS(DS, 'X509Certificate').item(0)?.textContent ?? '';
  if (!si || !sv) throw new Error('no signature');
  const c14n = new ExclusiveCanonicalization().process(si as never, {}).toString();
  return { c14n: Buffer.from(c14n), value: Buffer.from(sv.textContent ?? '', 'base64'), cert };
}

/** An error page, and certainly no redirect or form towards anything the request named. */
function expectErrorPage(
  r: { statusCode: number; headers: Record<string, unknown>; body: string },
  code: string,
) {
  expect(r.statusCode).toBe(400);
  expect(r.headers.location).toBeUndefined();
  expect(r.headers['content-type']).toContain('text/html');
  expect(r.body).not.toContain('<form');
  expect(r.body).toContain(code);
}

describe('metadata', () => {
  it('is signed by the ML-DSA-87 root and lists a key per SAML algorithm in use', async () => {
    const { xml, leaf, root } = await metadataCerts();
    expect(parseCertificate(root).publicKey.alg).toBe('ML-DSA-87');
    const v = verifyXml(xml, { trustedCertificates: [root], allowedAlgorithms: ['ML-DSA-87'] });
    expect(v.element.getAttribute('entityID')).toBe('http://localhost:3000/saml/metadata');
    const algs = leaf.map((c) => parseCertificate(c).publicKey.alg).sort();
    expect(algs).toEqual([...ALGS].sort());
    for (const c of leaf) expect(await verifyCertificateSignature(c, root)).toBe(true);
    for (const b of ['HTTP-Redirect', 'HTTP-POST'])
      for (const s of ['SingleSignOnService', 'SingleLogoutService'])
        expect(xml).toContain(`<md:${s} Binding="urn:oasis:names:tc:SAML:2.0:bindings:${b}"`);
    for (const f of Object.values(NAMEID_FORMAT).slice(0, 3)) expect(xml).toContain(`<md:NameIDFormat>${f}<`);
  });

  it('is cached until the keys change', async () => {
    const a = (await inject('/saml/metadata')).body;
    expect((await inject('/saml/metadata')).body).toBe(a);
    await t.idp.ctx.keys.rotate('ML-DSA-65');
    const b = (await inject('/saml/metadata')).body;
    expect(b).not.toBe(a);
    // The rotated-in key is published (next) before it signs.
    expect(b.match(/<md:KeyDescriptor/g)?.length).toBe(ALGS.length + 1);
  });

  it('verifies with @pqid/xmldsig when the root is any algorithm', async () => {
    for (const rootAlg of ['ML-DSA-44', 'ML-DSA-65', 'ES256', 'RS256']) {
      const s = await startTestIdp({ saml: { rootAlg } });
      try {
        const xml = (await s.idp.app.inject({ method: 'GET', url: '/saml/metadata' })).body;
        const root = /<ds:Signature[\s\S]*?<ds:X509Certificate>([^<]+)</.exec(xml)?.[1] as string;
        expect(parseCertificate(root).publicKey.alg).toBe(rootAlg);
        expect(() =>
          verifyXml(xml, { trustedCertificates: [root], allowedAlgorithms: [rootAlg as never] }),
        ).not.toThrow();
      } finally {
        await s.close();
      }
    }
  }, 60_000);
});

describe.each(ALGS)('SSO with %s', (alg) => {
  for (const sign of ['response', 'assertion', 'both'] as const) {
    it(`signs the ${sign} and the result verifies`, async () => {
      const entityId = `${spFor(alg)}/${sign}`;
      const id = reqId();
      const r = await samlLogin(
        t.idp.app,
        ssoUrl(authnRequestXml({ id, issuer: entityId, acs: acsFor(alg) }), { RelayState: 'state-1' }),
      );
      expect(r.status).toBe(200);
      const { action, fields } = formFields(r.body);
      expect(action).toBe(acsFor(alg));
      expect(fields.RelayState).toBe('state-1');
      expect(r.body).toContain('<noscript>');
      const xml = responseOf(r.body);
      const { leaf } = await metadataCerts();
      const v = verifySamlResponse(xml, {
        trustedCertificates: leaf,
        allowedAlgorithms: [alg],
        wantResponseSigned: sign !== 'assertion',
        wantAssertionSigned: sign !== 'response',
      });
      const a = v.assertionXml;
      expect(a).toContain(`InResponseTo="${id}"`);
      expect(a).toContain(`Recipient="${acsFor(alg)}"`);
      expect(a).toContain(`<saml:Audience>${entityId}</saml:Audience>`);
      expect(a).toMatch(/<saml:Conditions NotBefore="[^"]+" NotOnOrAfter="[^"]+">/);
      expect(a).toContain('<saml:AuthnStatement AuthnInstant=');
      expect(a).toContain('<saml:AttributeValue>demo@example.com</saml:AttributeValue>');
      expect(v.nameId).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const sigCount = (xml.match(/<ds:SignatureValue>/g) ?? []).length;
      expect(sigCount).toBe(sign === 'both' ? 2 : 1);
      if (alg.startsWith('ML-DSA')) {
        for (let n = 0; n < sigCount; n++) {
          const { c14n, value, cert } = signedInfoAndValue(xml, n);
          const pub = parseCertificate(cert).publicKey.raw as Uint8Array;
          expect(NOBLE[alg as keyof typeof NOBLE].verify(value, c14n, pub)).toBe(true);
          expect(nodeVerify(null, c14n, createPublicKey(parseCertificate(cert).pem), value)).toBe(true);
        }
      }
    });
  }
});

describe('SSO behaviour', () => {
  it('shares the OIDC session: no login page when signed in through OIDC', async () => {
    const { challenge } = pkce();
    const { sessionCookie } = await browserLogin(t.idp.app, {
      client_id: 'demo-client',
      redirect_uri: DEMO_REDIRECT,
      response_type: 'code',
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const r = await inject(ssoUrl(authnRequestXml()), sessionCookie);
    expect(r.statusCode).toBe(200);
    expect(formFields(r.body).action).toBe(SP_ACS);
  });

  it('persistent NameIDs are stable per SP and differ between SPs', async () => {
    const first = await samlLogin(t.idp.app, ssoUrl(authnRequestXml()));
    const again = await inject(ssoUrl(authnRequestXml()), first.session);
    const other = await inject(
      ssoUrl(authnRequestXml({ issuer: `${spFor('ML-DSA-65')}/both`, acs: acsFor('ML-DSA-65') })),
      first.session,
    );
    const nameId = (html: string) => /<saml:NameID[^>]*>([^<]+)</.exec(responseOf(html))?.[1];
    expect(nameId(again.body)).toBe(nameId(first.body));
    expect(nameId(other.body)).not.toBe(nameId(first.body));
  });

  it('transient and emailAddress NameIDs on request; an unsupported format gets InvalidNameIDPolicy', async () => {
    const { session } = await samlLogin(t.idp.app, ssoUrl(authnRequestXml()));
    const get = async (format: string) =>
      responseOf((await inject(ssoUrl(authnRequestXml({ format })), session)).body);
    const t1 = await get(NAMEID_FORMAT.transient);
    const t2 = await get(NAMEID_FORMAT.transient);
    const value = (x: string) => /<saml:NameID[^>]*>([^<]+)</.exec(x)?.[1];
    expect(value(t1)).not.toBe(value(t2));
    expect(value(await get(NAMEID_FORMAT.emailAddress))).toBe('demo@example.com');
    const bad = await get('urn:oasis:names:tc:SAML:2.0:nameid-format:kerberos');
    expect(bad).toContain(STATUS.invalidNameIdPolicy);
    expect(bad).not.toContain('<saml:Assertion');
  });

  it('IsPassive without a session answers NoPassive; ForceAuthn asks for the password again', async () => {
    expect(responseOf((await inject(ssoUrl(authnRequestXml({ isPassive: true })))).body)).toContain(
      STATUS.noPassive,
    );
    const { session } = await samlLogin(t.idp.app, ssoUrl(authnRequestXml()));
    const forced = await inject(ssoUrl(authnRequestXml({ forceAuthn: true })), session);
    expect(forced.statusCode).toBe(303);
    expect(forced.headers.location).toMatch(/^\/interaction\//);
  });

  it('accepts HTTP-POST AuthnRequests', async () => {
    const r = await t.idp.app.inject({
      method: 'POST',
      url: '/saml/sso',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        SAMLRequest: Buffer.from(authnRequestXml()).toString('base64'),
        RelayState: 'p',
      }).toString(),
    });
    expect(r.statusCode).toBe(303);
    expect(r.headers.location).toMatch(/^\/interaction\//);
  });
});

describe('request signatures (SP registered a certificate)', () => {
  const xml = (id = reqId()) => authnRequestXml({ id, issuer: SIGNED_SP, acs: SIGNED_ACS });

  function redirectSigned(requestXml: string, key: Jwk): string {
    const q = new URLSearchParams({
      SAMLRequest: redirectParam(requestXml),
      RelayState: 'r',
      SigAlg: SIGNATURE_URIS['ML-DSA-65'],
    }).toString();
    const Algo = algorithmFor('ML-DSA-65');
    return `/saml/sso?${q}&${new URLSearchParams({ Signature: new Algo().getSignature(q, key as never) })}`;
  }

  it('HTTP-Redirect: a valid query signature is accepted, a missing or foreign one refused', async () => {
    expect((await inject(redirectSigned(xml(), spKey))).statusCode).toBe(303);
    expectErrorPage(await inject(ssoUrl(xml())), 'signature_required');
    const other = (await generateKeyPair('ML-DSA-65')).privateJwk;
    expectErrorPage(await inject(redirectSigned(xml(), other)), 'signature_invalid');
    // The signature covers RelayState.
    const tampered = (await Promise.resolve(redirectSigned(xml(), spKey))).replace(
      'RelayState=r',
      'RelayState=x',
    );
    expectErrorPage(await inject(tampered), 'signature_invalid');
  });

  it('HTTP-POST: an enveloped signature verifies through verifyXml', async () => {
    const post = (body: string) =>
      t.idp.app.inject({
        method: 'POST',
        url: '/saml/sso',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ SAMLRequest: Buffer.from(body).toString('base64') }).toString(),
      });
    expect((await post(signXml(xml(), { key: spKey, certificate: spCert }))).statusCode).toBe(303);
    expectErrorPage(await post(xml()), 'signature_invalid');
    const signed = signXml(xml(), { key: spKey, certificate: spCert });
    expectErrorPage(await post(signed.replace(SIGNED_ACS, `${SIGNED_ACS}x`)), 'signature_invalid');
  });
});

describe('refusals: error page, never a redirect', () => {
  it('unknown SP', async () => {
    expectErrorPage(
      await inject(ssoUrl(authnRequestXml({ issuer: 'https://evil.example/sp' }))),
      'unknown_sp',
    );
  });
  it('unregistered AssertionConsumerServiceURL', async () => {
    expectErrorPage(
      await inject(ssoUrl(authnRequestXml({ acs: 'https://evil.example/acs' }))),
      'acs_not_registered',
    );
  });
  it('replayed AuthnRequest ID', async () => {
    const xml = authnRequestXml({ id: reqId() });
    expect((await inject(ssoUrl(xml))).statusCode).toBe(303);
    expectErrorPage(await inject(ssoUrl(xml)), 'replay');
  });
  it('expired IssueInstant', async () => {
    expectErrorPage(await inject(ssoUrl(authnRequestXml({ instant: isoNow(-3600_000) }))), 'expired');
  });
  it('DOCTYPE / entity expansion', async () => {
    const bomb = `<!DOCTYPE x [<!ENTITY a "aaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>${authnRequestXml()}`;
    expectErrorPage(await inject(ssoUrl(bomb)), 'invalid_request');
  });
  it('oversized deflate (decompression bomb), malformed deflate, malformed base64', async () => {
    const bomb = deflateRawSync(Buffer.alloc(2 * 1024 * 1024, 0x20)).toString('base64');
    expectErrorPage(
      await inject(`/saml/sso?${new URLSearchParams({ SAMLRequest: bomb })}`),
      'invalid_request',
    );
    const junk = Buffer.from('this is not deflate data at all').toString('base64');
    expectErrorPage(
      await inject(`/saml/sso?${new URLSearchParams({ SAMLRequest: junk })}`),
      'invalid_request',
    );
    expectErrorPage(await inject('/saml/sso?SAMLRequest=%%%not-base64'), 'invalid_request');
    expectErrorPage(await inject('/saml/sso?SAMLRequest=abc*def'), 'invalid_request');
    const r = await t.idp.app.inject({
      method: 'POST',
      url: '/saml/sso',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'SAMLRequest=not*base64',
    });
    expectErrorPage(r, 'invalid_request');
  });
  it('a missing SAMLRequest', async () => {
    const r = await inject('/saml/sso');
    expect(r.statusCode).toBe(400);
    expect(r.headers.location).toBeUndefined();
  });
});

describe('KeyInfo with the key name only (an SP registered with keyInfo: keyName)', () => {
  const NAMED = 'https://named-sp.example.test/metadata';
  beforeAll(async () => {
    await register({
      entityId: NAMED,
      sloUrl: 'https://named-sp.example.test/slo',
      signatureAlgorithm: 'ML-DSA-65',
      keyInfo: 'keyName',
    });
  });

  it('names the key the metadata lists instead of sending its certificate, in the Response, the Assertion and a LogoutResponse', async () => {
    const login = await samlLogin(t.idp.app, ssoUrl(authnRequestXml({ issuer: NAMED })));
    const xml = responseOf(login.body);
    expect(xml).not.toContain('X509Certificate');
    const names = [...xml.matchAll(/<ds:KeyInfo><ds:KeyName>([^<]+)<\/ds:KeyName><\/ds:KeyInfo>/g)].map(
      (m) => m[1],
    );
    expect(names).toHaveLength(2);
    // The name is the metadata's KeyName for the certificate the SP pins.
    const { xml: metadata } = await metadataCerts();
    const descriptor = new RegExp(
      `<ds:KeyName>${names[0]}</ds:KeyName><ds:X509Data><ds:X509Certificate>([^<]+)<`,
    ).exec(metadata);
    const cert = descriptor?.[1];
    if (!cert) throw new Error('no KeyDescriptor in the metadata names the key');
    const v = verifySamlResponse(xml, {
      trustedCertificates: [cert],
      allowedAlgorithms: ['ML-DSA-65'],
      wantResponseSigned: true,
      wantAssertionSigned: true,
    });
    expect(v.nameId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The same Response for an SP registered with the certificate is larger by both copies of it
    // (less a few bytes: the two SPs' entity IDs and the KeyName differ in length).
    const full = responseOf((await samlLogin(t.idp.app, ssoUrl(authnRequestXml()))).body);
    expect(full.length - xml.length).toBeGreaterThan(2 * cert.length - 100);

    const sessionIndex = /SessionIndex="([^"]+)"/.exec(xml)?.[1] as string;
    const out = await postLogout(
      login.session,
      logoutRequestXml({
        issuer: NAMED,
        nameId: v.nameId as string,
        format: NAMEID_FORMAT.persistent,
        sessionIndex,
      }),
    );
    const logout = Buffer.from(formFields(out.body).fields.SAMLResponse as string, 'base64').toString();
    expect(logout).toContain(`<ds:KeyName>${names[0]}</ds:KeyName>`);
    expect(logout).not.toContain('X509Certificate');
    verifyXml(logout, { trustedCertificates: [cert], allowedAlgorithms: ['ML-DSA-65'] });
  });

  it('an unknown KeyInfo form is refused at registration', async () => {
    await expect(
      register({ entityId: 'https://odd.example.test/metadata', keyInfo: 'thumbprint' as never }),
    ).rejects.toThrow(/keyInfo must be one of certificate, keyName/);
  });
});

describe('SLO', () => {
  it('ends the session and posts a signed LogoutResponse to the registered SLO URL', async () => {
    const login = await samlLogin(t.idp.app, ssoUrl(authnRequestXml()));
    const nameId = /<saml:NameID[^>]*>([^<]+)</.exec(responseOf(login.body))?.[1] as string;
    // The SessionIndex the SP received authenticates its unsigned request (saml-hardening.test.ts).
    const sessionIndex = /SessionIndex="([^"]+)"/.exec(responseOf(login.body))?.[1] as string;
    const id = reqId();
    const r = await postLogout(
      login.session,
      logoutRequestXml({ id, nameId, format: NAMEID_FORMAT.persistent, sessionIndex }),
      'bye',
    );
    expect(r.statusCode).toBe(200);
    const { action, fields } = formFields(r.body);
    expect(action).toBe('https://sp.example.test/slo');
    expect(fields.RelayState).toBe('bye');
    const xml = Buffer.from(fields.SAMLResponse as string, 'base64').toString();
    const { leaf } = await metadataCerts();
    verifyXml(xml, { trustedCertificates: leaf, allowedAlgorithms: ['ML-DSA-65'] });
    expect(xml).toContain(`InResponseTo="${id}"`);
    expect(xml).toContain(STATUS.success);
    expect(r.cookies.find((c) => c.name === 'pqid_session')?.value).toBe('');
    // The old cookie no longer signs anyone in.
    expect((await inject(ssoUrl(authnRequestXml()), login.session)).statusCode).toBe(303);
  });

  it('over HTTP-Redirect; another user’s NameID does not end this session', async () => {
    const login = await samlLogin(t.idp.app, ssoUrl(authnRequestXml()));
    const sessionIndex = /SessionIndex="([^"]+)"/.exec(responseOf(login.body))?.[1] as string;
    const xml = logoutRequestXml({ nameId: 'someone-else', format: NAMEID_FORMAT.persistent, sessionIndex });
    const r = await inject(
      `/saml/slo?${new URLSearchParams({ SAMLRequest: redirectParam(xml) })}`,
      login.session,
    );
    // Not for this user, so not authenticated for this session: the user is asked, nothing ends.
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('Sign out?');
    expect(r.body).not.toContain('SAMLResponse');
    expect((await inject(ssoUrl(authnRequestXml()), login.session)).statusCode).toBe(200);
  });

  it('refuses an SP without an SLO URL with an error page', async () => {
    const xml = logoutRequestXml({
      nameId: 'x',
      format: NAMEID_FORMAT.transient,
      issuer: `${spFor('RS256')}/both`,
    });
    expectErrorPage(
      await inject(`/saml/slo?${new URLSearchParams({ SAMLRequest: redirectParam(xml) })}`),
      'slo_not_registered',
    );
  });
});

describe('sizes', () => {
  it('reports the Redirect URL and POST form size per algorithm', async () => {
    const rows = await samlSizes();
    console.log(
      `\nSAML message sizes (Response and Assertion signed, certificate in KeyInfo):\n${formatSizeTable(rows)}\n`,
    );
    const by = Object.fromEntries(rows.map((r) => [r.alg, r]));
    expect(by['ML-DSA-87']?.postFormBytes).toBeGreaterThan(by.RS256?.postFormBytes ?? Infinity);
    expect(by['ML-DSA-44']?.signatureBytes).toBe(2420);
    expect(by.ES256?.signatureBytes).toBe(64);
    // Without the two certificates (an ML-DSA-87 root's signature in each) the Response shrinks.
    for (const r of rows) expect(r.responseXmlKeyNameBytes).toBeLessThan(r.responseXmlBytes - 2000);
  });
});
