/**
 * The SP guard (checkSamlHttpMessage) and the Destination/Recipient check (checkSamlResponseAddressing,
 * verifySamlResponse's acsUrl), each condition violated alone:
 *
 *   - the guard looks at the query and the body, takes only the bindings and kinds a route names,
 *     refuses two messages, a kind in the wrong parameter, and logout messages without a signature
 *     on either binding;
 *   - a validly signed Response meant for another ACS (Destination, Recipient, either alone, or a
 *     signed Response without Destination) is refused, both on node-saml's verified profile and by
 *     verifySamlResponse, and accepted when addressed to this ACS (so the refusals are the check's).
 */
import { deflateRawSync } from 'node:zlib';
import { SAML, type SamlConfig } from '@node-saml/node-saml';
import {
  checkSamlHttpMessage,
  checkSamlResponseAddressing,
  installNodeSamlIntegration,
  type NodeSamlIntegration,
  recommendedNodeSamlOptions,
  type SamlHttpRules,
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

const SLO = 'https://sp.example.test/slo';
const b64 = (s: string) => Buffer.from(s).toString('base64');
const deflated = (s: string) => deflateRawSync(Buffer.from(s)).toString('base64');
const response = (o: Omit<IdpResponseOptions, 'signer'> = {}) => signedIdpResponse({ ...o, signer: idp });

function logout(
  kind: 'LogoutRequest' | 'LogoutResponse',
  o: { signed?: boolean; destination?: string } = {},
) {
  const body =
    kind === 'LogoutRequest'
      ? '<saml:NameID>alice-p</saml:NameID>'
      : '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>';
  const xml =
    `<samlp:${kind} xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_l${Math.random().toString(36).slice(2)}" Version="2.0" IssueInstant="${instantOf(Date.now())}" Destination="${o.destination ?? SLO}">` +
    `<saml:Issuer>${IDP}</saml:Issuer>${body}</samlp:${kind}>`;
  return o.signed ? signXml(xml, { key: idp.privateJwk, certificate: idp.certificate }) : xml;
}

const ACS_RULES: SamlHttpRules = { post: ['Response'], required: true, destination: ACS };
const SLO_RULES: SamlHttpRules = {
  post: ['LogoutResponse', 'LogoutRequest'],
  required: true,
  destination: SLO,
};

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return { code: (e as { code?: string }).code, message: (e as Error).message };
  }
  throw new Error('did not throw');
};

describe('checkSamlHttpMessage', () => {
  it('accepts the one message a route takes, and returns it decoded', () => {
    const xml = response();
    expect(checkSamlHttpMessage({ body: { SAMLResponse: b64(xml) } }, ACS_RULES)).toMatchObject({
      binding: 'post',
      parameter: 'SAMLResponse',
      kind: 'Response',
      xml,
    });
    const signedLogout = logout('LogoutResponse', { signed: true });
    expect(checkSamlHttpMessage({ body: { SAMLResponse: b64(signedLogout) } }, SLO_RULES)?.kind).toBe(
      'LogoutResponse',
    );
  });

  it('a request without a message passes a route that needs none, and fails one that does', () => {
    expect(checkSamlHttpMessage({ query: {}, body: {} }, {})).toBeUndefined();
    expect(checkSamlHttpMessage({}, {})).toBeUndefined();
    expect(refusal(() => checkSamlHttpMessage({ body: {} }, ACS_RULES)).message).toMatch(
      /needs a SAML message/,
    );
  });

  const forged = deflated(logout('LogoutRequest'));
  const cases: Array<[string, () => unknown, RegExp, string]> = [
    [
      'a message in the query of a route that takes none (the login route)',
      () => checkSamlHttpMessage({ query: { SAMLRequest: forged } }, {}),
      /takes no SAML message over HTTP-Redirect/,
      'ERR_XMLDSIG_XML_INVALID',
    ],
    [
      'a message in the query of the ACS, which takes POST only',
      () => checkSamlHttpMessage({ query: { SAMLRequest: forged } }, ACS_RULES),
      /takes no SAML message over HTTP-Redirect/,
      'ERR_XMLDSIG_XML_INVALID',
    ],
    [
      'query and body together (passport-saml would read the query)',
      () =>
        checkSamlHttpMessage(
          { query: { SAMLRequest: forged }, body: { SAMLResponse: b64(response()) } },
          ACS_RULES,
        ),
      /carries 2 SAML messages/,
      'ERR_XMLDSIG_XML_INVALID',
    ],
    [
      'SAMLRequest and SAMLResponse in one body',
      () =>
        checkSamlHttpMessage(
          {
            body: {
              SAMLResponse: b64(response()),
              SAMLRequest: b64(logout('LogoutRequest', { signed: true })),
            },
          },
          SLO_RULES,
        ),
      /carries 2 SAML messages/,
      'ERR_XMLDSIG_XML_INVALID',
    ],
    [
      'a repeated parameter (an array)',
      () => checkSamlHttpMessage({ body: { SAMLResponse: [b64(response()), b64(response())] } }, ACS_RULES),
      /not a single value/,
      'ERR_XMLDSIG_XML_INVALID',
    ],
    [
      'a kind the route does not take',
      () =>
        checkSamlHttpMessage(
          { body: { SAMLResponse: b64(logout('LogoutResponse', { signed: true })) } },
          ACS_RULES,
        ),
      /takes samlp:Response/,
      'ERR_XMLDSIG_XML_INVALID',
    ],
    [
      'a LogoutRequest sent as SAMLResponse',
      () =>
        checkSamlHttpMessage(
          { body: { SAMLResponse: b64(logout('LogoutRequest', { signed: true })) } },
          SLO_RULES,
        ),
      /does not travel as SAMLResponse/,
      'ERR_XMLDSIG_XML_INVALID',
    ],
    [
      'an unsigned LogoutRequest over POST',
      () => checkSamlHttpMessage({ body: { SAMLRequest: b64(logout('LogoutRequest')) } }, SLO_RULES),
      /must be signed \(an enveloped ds:Signature\)/,
      'ERR_XMLDSIG_SAML_UNSIGNED',
    ],
    [
      'an unsigned LogoutResponse over POST',
      () => checkSamlHttpMessage({ body: { SAMLResponse: b64(logout('LogoutResponse')) } }, SLO_RULES),
      /must be signed/,
      'ERR_XMLDSIG_SAML_UNSIGNED',
    ],
    [
      'an unsigned LogoutRequest over Redirect, at a route that takes Redirect',
      () => checkSamlHttpMessage({ query: { SAMLRequest: forged } }, { redirect: ['LogoutRequest'] }),
      /must be signed \(Signature and SigAlg in the query\)/,
      'ERR_XMLDSIG_SAML_UNSIGNED',
    ],
    [
      'a Redirect LogoutRequest with SigAlg but an empty Signature',
      () =>
        checkSamlHttpMessage(
          {
            query: {
              SAMLRequest: forged,
              SigAlg: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
              Signature: '',
            },
          },
          { redirect: ['LogoutRequest'] },
        ),
      /must be signed/,
      'ERR_XMLDSIG_SAML_UNSIGNED',
    ],
    [
      'a signed LogoutResponse for another endpoint (Destination)',
      () =>
        checkSamlHttpMessage(
          { body: { SAMLResponse: b64(logout('LogoutResponse', { signed: true, destination: `${SLO}2` })) } },
          SLO_RULES,
        ),
      /Destination .* is not this endpoint/,
      'ERR_XMLDSIG_SAML_MISADDRESSED',
    ],
    [
      'a Response for another ACS (Destination), before node-saml',
      () =>
        checkSamlHttpMessage(
          { body: { SAMLResponse: b64(response({ destination: `${ACS}2` })) } },
          ACS_RULES,
        ),
      /Destination .* is not this endpoint/,
      'ERR_XMLDSIG_SAML_MISADDRESSED',
    ],
  ];
  it.each(cases)('refuses %s', (_name, f, message, code) => {
    const e = refusal(f);
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
  });

  it('a Redirect LogoutRequest with Signature and SigAlg passes the guard (node-saml then verifies it)', () => {
    const q = {
      SAMLRequest: forged,
      SigAlg: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      Signature: 'c2ln',
    };
    expect(checkSamlHttpMessage({ query: q }, { redirect: ['LogoutRequest'] })?.kind).toBe('LogoutRequest');
  });
});

describe('Destination and Recipient (saml-bindings §3.5.5.2, saml-profiles §4.1.4.3)', () => {
  const OTHER = 'https://sp.example.test/other-acs';

  /** node-saml, hardened, accepting one Response to a request it sent; returns its verified profile. */
  async function nodeSamlProfile(o: Omit<IdpResponseOptions, 'signer' | 'inResponseTo'>) {
    const saml = new SAML({
      ...recommendedNodeSamlOptions({
        idpCert: idp.certificate,
        idpIssuer: IDP,
        issuer: SP,
        callbackUrl: ACS,
      }),
      entryPoint: `${IDP}/sso`,
      validateInResponseTo: 'never',
      ...(o.sign === 'assertion' ? { wantAuthnResponseSigned: false } : {}),
    } as SamlConfig);
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: b64(response(o)) });
    if (!profile) throw new Error('no profile');
    return profile;
  }

  const MISADDRESSED: Array<[string, Omit<IdpResponseOptions, 'signer'>, RegExp]> = [
    ['Destination and Recipient another ACS', { destination: OTHER, recipient: OTHER }, /Destination/],
    ['Destination another ACS', { destination: OTHER }, /Destination .*other-acs is not this endpoint/],
    ['Recipient another ACS', { recipient: OTHER }, /Recipient .*other-acs is not this ACS/],
    ['a signed Response without Destination', { destination: null }, /has no Destination/],
    ['a bearer confirmation without Recipient', { recipient: null }, /has no Recipient/],
    [
      'Recipient another ACS, only the Assertion signed',
      { recipient: OTHER, sign: 'assertion' },
      /Recipient/,
    ],
    [
      'Destination another ACS, only the Assertion signed',
      { destination: OTHER, sign: 'assertion' },
      /Destination/,
    ],
  ];

  it.each(MISADDRESSED)(
    '%s: node-saml accepts it, checkSamlResponseAddressing refuses',
    async (_n, o, message) => {
      const profile = await nodeSamlProfile(o);
      const e = refusal(() => checkSamlResponseAddressing(profile, ACS));
      expect(e.code).toBe('ERR_XMLDSIG_SAML_MISADDRESSED');
      expect(e.message).toMatch(message);
    },
  );

  it.each(MISADDRESSED)(
    '%s: verifySamlResponse with acsUrl refuses, without acsUrl accepts',
    (_n, o, message) => {
      const xml = response(o);
      const opts = {
        trustedCertificates: [idp.certificate],
        allowedAlgorithms: ['ML-DSA-65'] as const,
        wantResponseSigned: o.sign !== 'assertion',
      };
      expect(verifySamlResponse(xml, opts).nameId).toBe('alice-p');
      const e = refusal(() => verifySamlResponse(xml, { ...opts, acsUrl: ACS }));
      expect(e.code).toBe('ERR_XMLDSIG_SAML_MISADDRESSED');
      expect(e.message).toMatch(message);
    },
  );

  it('controls: addressed to this ACS it passes; an unsigned Response may omit Destination', async () => {
    const addressed = await nodeSamlProfile({});
    expect(() => checkSamlResponseAddressing(addressed, ACS)).not.toThrow();
    const assertionOnly = await nodeSamlProfile({ destination: null, sign: 'assertion' });
    expect(() => checkSamlResponseAddressing(assertionOnly, ACS)).not.toThrow();
    expect(
      verifySamlResponse(response(), {
        trustedCertificates: [idp.certificate],
        allowedAlgorithms: ['ML-DSA-65'],
        acsUrl: ACS,
      }).nameId,
    ).toBe('alice-p');
  });
});
