/**
 * The protocol layer of an SP that accepts ML-DSA-65 through an unmodified @node-saml/node-saml with
 * installNodeSamlIntegration: replayed and unsolicited Responses, expired and not-yet-valid
 * Conditions, a wrong Audience, and malformed or oversized base64/DEFLATE input. Every response
 * is validly signed (built with a shifted clock or for another audience, then signed; never edited
 * after signing), and each case also goes through verifySamlResponse to show which layer refuses
 * it: signatures and structure are @pqid/xmldsig's, the protocol checks are node-saml's options,
 * which recommendedNodeSamlOptions() turns on. Responses from the real IdP code (idp/src/saml) go
 * through the same checks in test/saml-e2e.test.ts; this package cannot import the IdP.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { SAML, type SamlConfig } from '@node-saml/node-saml';
import {
  DEFAULT_MAX_SAML_MESSAGE_BYTES,
  decodeSamlMessage,
  installNodeSamlIntegration,
  type NodeSamlIntegration,
  recommendedNodeSamlOptions,
  signXml,
  verifySamlResponse,
} from '@pqid/xmldsig';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACS, IDP, type Signer, SP, signer } from './helpers/fixtures.ts';
import { type IdpResponseOptions, instantOf, signedIdpResponse } from './helpers/responses.ts';

let idp: Signer;
let integration: NodeSamlIntegration;
beforeAll(async () => {
  idp = await signer('ML-DSA-65');
  integration = installNodeSamlIntegration({ trustedCertificates: [idp.certificate] });
});
afterAll(() => integration.uninstall());

const t = instantOf;
let seq = 0;
const idpResponse = (o: Omit<IdpResponseOptions, 'signer'> = {}) => signedIdpResponse({ ...o, signer: idp });

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

/** A hardened SP, as recommended; `overrides` for the control cases. */
function hardenedSp(overrides: Partial<SamlConfig> = {}) {
  return new SAML({
    ...recommendedNodeSamlOptions({ idpCert: idp.certificate, idpIssuer: IDP, issuer: SP, callbackUrl: ACS }),
    entryPoint: `${IDP}/sso`,
    ...overrides,
  } as SamlConfig);
}

/** The SP sends an AuthnRequest (HTTP-Redirect) and remembers its ID; returns that ID. */
async function sendAuthnRequest(saml: SAML): Promise<string> {
  const url = new URL(await saml.getAuthorizeUrlAsync('', undefined, {}));
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString();
  const id = /\bID="([^"]+)"/.exec(xml)?.[1];
  if (!id) throw new Error('no AuthnRequest ID');
  return id;
}

/** The signature layer alone, as an SP using @pqid/xmldsig directly would call it. */
const verifyOurs = (xml: string) =>
  verifySamlResponse(xml, { trustedCertificates: [idp.certificate], allowedAlgorithms: ['ML-DSA-65'] });

describe('recommendedNodeSamlOptions', () => {
  it('turns on the protocol checks node-saml leaves off by default', () => {
    const o = recommendedNodeSamlOptions({
      idpCert: 'PEM',
      idpIssuer: IDP,
      issuer: SP,
      callbackUrl: ACS,
    });
    expect(o).toMatchObject({
      audience: SP,
      idpIssuer: IDP,
      wantAuthnResponseSigned: true,
      wantAssertionsSigned: true,
      validateInResponseTo: 'always',
      signatureAlgorithm: 'sha256',
      digestAlgorithm: 'sha256',
    });
    expect(o.acceptedClockSkewMs).toBeGreaterThan(0);
    expect(o.acceptedClockSkewMs).toBeLessThanOrEqual(60_000);
    expect(o.requestIdExpirationPeriodMs).toBeLessThan(28_800_000); // node-saml's 8 h default
    expect(() => recommendedNodeSamlOptions({ ...o, idpIssuer: '' })).toThrow(/idpIssuer is required/);
    expect(() => recommendedNodeSamlOptions({ ...o, idpCert: [] })).toThrow(/idpCert is required/);
  });

  it('the baseline: a fresh, solicited Response is accepted', async () => {
    const saml = hardenedSp();
    const id = await sendAuthnRequest(saml);
    const { profile } = await saml.validatePostResponseAsync({
      SAMLResponse: b64(idpResponse({ inResponseTo: id })),
    });
    expect(profile?.nameID).toBe('alice-p');
    expect(profile?.inResponseTo).toBe(id);
  });
});

describe('replay and unsolicited Responses (validateInResponseTo: always)', () => {
  it('the same SAMLResponse posted twice: the second is refused', async () => {
    const saml = hardenedSp();
    const id = await sendAuthnRequest(saml);
    const SAMLResponse = b64(idpResponse({ inResponseTo: id }));
    await expect(saml.validatePostResponseAsync({ SAMLResponse })).resolves.toBeTruthy();
    await expect(saml.validatePostResponseAsync({ SAMLResponse })).rejects.toThrow(
      /InResponseTo is not valid/,
    );
  });

  it('a replay to another SP instance sharing the cache provider is refused too', async () => {
    const first = hardenedSp();
    const id = await sendAuthnRequest(first);
    const second = hardenedSp({ cacheProvider: first.cacheProvider });
    const SAMLResponse = b64(idpResponse({ inResponseTo: id }));
    await expect(first.validatePostResponseAsync({ SAMLResponse })).resolves.toBeTruthy();
    await expect(second.validatePostResponseAsync({ SAMLResponse })).rejects.toThrow(
      /InResponseTo is not valid/,
    );
  });

  it('an unsolicited Response (no InResponseTo) is refused', async () => {
    await expect(
      hardenedSp().validatePostResponseAsync({ SAMLResponse: b64(idpResponse()) }),
    ).rejects.toThrow(/InResponseTo is missing/);
  });

  it('a Response to a request this SP never sent is refused', async () => {
    await expect(
      hardenedSp().validatePostResponseAsync({
        SAMLResponse: b64(idpResponse({ inResponseTo: '_never-sent' })),
      }),
    ).rejects.toThrow(/InResponseTo is not valid/);
  });

  it('an answer to an expired request ID is refused (requestIdExpirationPeriodMs)', async () => {
    const saml = hardenedSp({ requestIdExpirationPeriodMs: 1 });
    const id = await sendAuthnRequest(saml);
    await new Promise((r) => setTimeout(r, 20));
    await expect(
      saml.validatePostResponseAsync({ SAMLResponse: b64(idpResponse({ inResponseTo: id })) }),
    ).rejects.toThrow(/InResponseTo is not valid/);
  });

  it('the signature layer has no state: verifySamlResponse accepts the replay; node-saml defaults do too', async () => {
    const xml = idpResponse({ inResponseTo: '_any' });
    expect(verifyOurs(xml).nameId).toBe('alice-p');
    expect(verifyOurs(xml).nameId).toBe('alice-p');
    // Control: with node-saml's default validateInResponseTo ('never') the replay goes through,
    // so the refusal above comes from the option, not from the signature.
    const lax = hardenedSp({ validateInResponseTo: 'never' as SamlConfig['validateInResponseTo'] });
    await expect(lax.validatePostResponseAsync({ SAMLResponse: b64(xml) })).resolves.toBeTruthy();
    await expect(lax.validatePostResponseAsync({ SAMLResponse: b64(xml) })).resolves.toBeTruthy();
  });
});

describe('node-saml 5.1 limitation: HTTP-POST LogoutResponse and validateInResponseTo', () => {
  it("'always' refuses a signed, solicited LogoutResponse (InResponseTo is read only from samlp:Response)", async () => {
    const saml = hardenedSp();
    const url = await saml.getLogoutUrlAsync({ nameID: 'alice-p', issuer: IDP } as never, '', {});
    const request = inflateRawSync(Buffer.from(new URL(url).searchParams.get('SAMLRequest') ?? '', 'base64'));
    const id = /\bID="([^"]+)"/.exec(request.toString())?.[1] as string;
    const xml =
      `<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_lo${seq++}" Version="2.0" IssueInstant="${t(Date.now())}" Destination="https://sp.example.test/slo" InResponseTo="${id}">` +
      `<saml:Issuer>${IDP}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status></samlp:LogoutResponse>`;
    const signed = signXml(xml, { key: idp.privateJwk, certificate: idp.certificate });
    await expect(saml.validatePostResponseAsync({ SAMLResponse: b64(signed) })).rejects.toThrow(
      /InResponseTo is missing/,
    );
    // Hence the SLO endpoint's own instance (examples/saml-sp/sp.js), which accepts it:
    const slo = hardenedSp({ validateInResponseTo: 'never' as SamlConfig['validateInResponseTo'] });
    await expect(slo.validatePostResponseAsync({ SAMLResponse: b64(signed) })).resolves.toMatchObject({
      loggedOut: true,
    });
  });
});

describe('Conditions (validly signed, built with a shifted clock)', () => {
  const MIN = 60_000;
  // The IdP gives the bearer SubjectConfirmationData the same NotOnOrAfter as Conditions, and
  // node-saml checks the SubjectConfirmation first: an expired response fails there.
  const EXPIRED = /No valid subject confirmation|SAML assertion expired/;

  it('expired: NotOnOrAfter 5 minutes ago, beyond acceptedClockSkewMs → refused', async () => {
    const saml = hardenedSp();
    const id = await sendAuthnRequest(saml);
    const xml = idpResponse({ inResponseTo: id, now: Date.now() - 10 * MIN });
    expect(verifyOurs(xml).nameId).toBe('alice-p'); // the signature is fine
    await expect(saml.validatePostResponseAsync({ SAMLResponse: b64(xml) })).rejects.toThrow(EXPIRED);
  });

  it('not yet valid: NotBefore 9 minutes ahead → refused', async () => {
    const saml = hardenedSp();
    const id = await sendAuthnRequest(saml);
    const xml = idpResponse({ inResponseTo: id, now: Date.now() + 10 * MIN });
    expect(verifyOurs(xml).nameId).toBe('alice-p');
    await expect(saml.validatePostResponseAsync({ SAMLResponse: b64(xml) })).rejects.toThrow(
      /SAML assertion not yet valid/,
    );
  });

  it('within the skew: NotOnOrAfter 10 s ago with 30 s skew → accepted; with 0 skew → refused', async () => {
    const now = Date.now() - 5 * MIN - 10_000;
    const tolerant = hardenedSp();
    const strict = hardenedSp({ acceptedClockSkewMs: 0 });
    const a = await sendAuthnRequest(tolerant);
    const b = await sendAuthnRequest(strict);
    await expect(
      tolerant.validatePostResponseAsync({ SAMLResponse: b64(idpResponse({ inResponseTo: a, now })) }),
    ).resolves.toBeTruthy();
    await expect(
      strict.validatePostResponseAsync({ SAMLResponse: b64(idpResponse({ inResponseTo: b, now })) }),
    ).rejects.toThrow(EXPIRED);
  });
});

describe('Audience', () => {
  it('a Response the IdP issued for another SP is refused here', async () => {
    const saml = hardenedSp();
    const id = await sendAuthnRequest(saml);
    const xml = idpResponse({ inResponseTo: id, audience: 'https://other-sp.example.test/metadata' });
    expect(verifyOurs(xml).nameId).toBe('alice-p');
    await expect(saml.validatePostResponseAsync({ SAMLResponse: b64(xml) })).rejects.toThrow(
      /audience mismatch/,
    );
  });

  it('an SP configured with another audience refuses our Response', async () => {
    const saml = hardenedSp({ audience: 'https://other-sp.example.test/metadata' });
    const id = await sendAuthnRequest(saml);
    await expect(
      saml.validatePostResponseAsync({ SAMLResponse: b64(idpResponse({ inResponseTo: id })) }),
    ).rejects.toThrow(/audience mismatch/);
  });
});

/** A LogoutRequest from the IdP, padded with whitespace inside the root to `padding` bytes. */
function logoutRequest(padding = 0) {
  return (
    `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_lr${seq++}" Version="2.0" IssueInstant="${t(Date.now())}" Destination="https://sp.example.test/slo">` +
    `<saml:Issuer>${IDP}</saml:Issuer><saml:NameID>alice-p</saml:NameID>${' '.repeat(padding)}</samlp:LogoutRequest>`
  );
}

describe('malformed and oversized input', () => {
  const CAP = DEFAULT_MAX_SAML_MESSAGE_BYTES;
  const code = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return { code: (e as { code?: string }).code, message: (e as Error).message };
    }
    throw new Error('did not throw');
  };

  const POST_CASES: Array<[string, () => string, RegExp]> = [
    ['not base64', () => '!!!*** not base64 ***', /not valid base64/],
    ['empty', () => '', /not valid base64/],
    [
      'base64 of random bytes',
      () => b64(Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 37) % 256))),
      /not UTF-8|not XML|does not parse/,
    ],
    ['base64 of truncated XML', () => b64(idpResponse().slice(0, 4000)), /does not parse/],
    [
      'base64 of a non-SAML document',
      () => b64('<html><body>hi</body></html>'),
      /not a SAML protocol message/,
    ],
    ['oversized: 2 MB', () => b64(`${idpResponse()}${' '.repeat(2 * 1024 * 1024)}`), /larger than/],
  ];

  describe.each(POST_CASES)('HTTP-POST SAMLResponse: %s', (_name, build, message) => {
    it('decodeSamlMessage refuses it with a clear ERR_XMLDSIG_XML_INVALID', () => {
      const e = code(() => decodeSamlMessage(build(), { binding: 'post' }));
      expect(e.code).toBe('ERR_XMLDSIG_XML_INVALID');
      expect(e.message).toMatch(message);
    });

    it('node-saml refuses it with an error (no crash, no profile)', async () => {
      const saml = hardenedSp();
      await sendAuthnRequest(saml);
      await expect(saml.validatePostResponseAsync({ SAMLResponse: build() })).rejects.toThrow();
    });
  });

  it('accept: an endpoint takes only the message kinds it names', () => {
    const xml = idpResponse();
    expect(decodeSamlMessage(b64(xml), { binding: 'post', accept: ['Response'] })).toBe(xml);
    const e = code(() => decodeSamlMessage(b64(xml), { binding: 'post', accept: ['LogoutResponse'] }));
    expect(e.code).toBe('ERR_XMLDSIG_XML_INVALID');
    expect(e.message).toMatch(/samlp:Response; this endpoint takes samlp:LogoutResponse/);
  });

  it('verifySamlResponse refuses oversized and non-XML input at the XML layer', () => {
    expect(code(() => verifyOurs(`${idpResponse()}${' '.repeat(1024 * 1024)}`)).code).toBe(
      'ERR_XMLDSIG_XML_INVALID',
    );
    expect(code(() => verifyOurs(idpResponse().slice(0, 4000))).code).toBe('ERR_XMLDSIG_XML_INVALID');
  });

  it('a real ML-DSA-65 Response decodes well under the cap', () => {
    const xml = idpResponse();
    expect(decodeSamlMessage(b64(xml), { binding: 'post' })).toBe(xml);
    expect(Buffer.byteLength(xml)).toBeLessThan(CAP / 2);
  });

  const REDIRECT_CASES: Array<[string, string, RegExp]> = [
    ['not base64', '%%% not base64', /not valid base64/],
    ['not DEFLATE', b64('this is not deflate data at all, just text'), /not valid DEFLATE/],
    ['DEFLATE of something that is not XML', deflateRawSync('hello').toString('base64'), /does not parse/],
  ];

  describe.each(['SAMLRequest', 'SAMLResponse'] as const)('HTTP-Redirect %s at the SP', (param) => {
    it.each(REDIRECT_CASES)(
      '%s: decodeSamlMessage and node-saml both refuse it',
      async (_name, value, message) => {
        const e = code(() => decodeSamlMessage(value, { binding: 'redirect' }));
        expect(e.code).toBe('ERR_XMLDSIG_XML_INVALID');
        expect(e.message).toMatch(message);
        await expect(
          hardenedSp().validateRedirectAsync({ [param]: value }, `${param}=${encodeURIComponent(value)}`),
        ).rejects.toThrow();
      },
    );

    it('a DEFLATE bomb (a few KB expanding to 20 MB) is refused before it is inflated past the cap', () => {
      const bomb = deflateRawSync(logoutRequest(20 * 1024 * 1024), { level: 9 }).toString('base64');
      expect(bomb.length).toBeLessThan(64 * 1024);
      const e = code(() => decodeSamlMessage(bomb, { binding: 'redirect' }));
      expect(e.code).toBe('ERR_XMLDSIG_XML_INVALID');
      expect(e.message).toMatch(/larger than \d+ bytes once inflated/);
    });
  });

  it('why the guard matters: node-saml inflates a Redirect message without a cap, and accepts it unsigned', async () => {
    // 2 MB inflated from ~2 KB; node-saml has no maxOutputLength, and a Redirect LogoutRequest
    // without a Signature is not refused (hasValidSignatureForRedirect returns true). SPs must put
    // decodeSamlMessage in front of any Redirect-binding route, and require a Signature there.
    const big = deflateRawSync(logoutRequest(2 * 1024 * 1024), { level: 9 }).toString('base64');
    const result = await hardenedSp().validateRedirectAsync(
      { SAMLRequest: big },
      `SAMLRequest=${encodeURIComponent(big)}`,
    );
    expect(result.loggedOut).toBe(true);
    expect(() => decodeSamlMessage(big, { binding: 'redirect' })).toThrow(/once inflated/);
  });
});
