/**
 * How big SAML messages get per algorithm: the HTTP-Redirect URL of a signed AuthnRequest (the
 * signature travels in the query, so it is what hits URL limits) and the HTTP-POST form of a
 * signed Response (Response and Assertion both signed, certificate in each KeyInfo; and the same
 * Response with only the key name in KeyInfo). Responses always use POST; this table is why.
 */
import { deflateRawSync } from 'node:zlib';
import { generateKeyPair, importJWK, type PrivateKey } from '@pqid/jose';
import {
  algorithmFor,
  createRootCertificate,
  issueCertificate,
  SIGNATURE_URIS,
  type XmlSignatureAlg,
} from '@pqid/xmldsig';
import type { SamlSigningAlg } from '../policy/algorithms.ts';
import { formPostPage } from '../ui/pages.ts';
import { signedLoginResponse } from './response.ts';
import type { KeyInfoForm, SignWhat } from './sps.ts';
import { instant, samlId } from './xml.ts';

export interface SamlSizeRow {
  alg: SamlSigningAlg;
  /** Signature value in bytes (raw). */
  signatureBytes: number;
  /** Full GET URL of a signed AuthnRequest over HTTP-Redirect. */
  redirectUrlBytes: number;
  /** Response XML (before base64). */
  responseXmlBytes: number;
  /** The auto-submitting HTML form page that carries the Response. */
  postFormBytes: number;
  /** The same Response XML with only a KeyName in each KeyInfo (an SP registered with `keyName`). */
  responseXmlKeyNameBytes: number;
}

const SSO = 'https://idp.example.com/saml/sso';
const SP = 'https://sp.example.com/saml/metadata';
const ACS = 'https://sp.example.com/saml/acs';

export async function samlSizes(
  algs: readonly SamlSigningAlg[] = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87', 'ES256', 'RS256'],
  sign: SignWhat = 'both',
  rootAlg = 'ML-DSA-87',
): Promise<SamlSizeRow[]> {
  const rows: SamlSizeRow[] = [];
  // As deployed: the leaf certificate in KeyInfo carries the root's signature, so it grows with rootAlg.
  const rootKey = (await generateKeyPair(rootAlg)).privateJwk;
  const root = await createRootCertificate({ subject: 'pqid SAML root', key: rootKey });
  for (const alg of algs) {
    const { privateJwk, publicJwk } = await generateKeyPair(alg);
    const cert = await issueCertificate({
      subject: `pqid SAML signing (${alg})`,
      subjectPublicKey: publicJwk,
      issuerKey: rootKey,
      issuerCertificate: root.pem,
    });

    const request =
      `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${samlId()}" Version="2.0" IssueInstant="${instant(Date.now())}" Destination="${SSO}" ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" AssertionConsumerServiceURL="${ACS}">` +
      `<saml:Issuer>${SP}</saml:Issuer><samlp:NameIDPolicy Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent" AllowCreate="true"/></samlp:AuthnRequest>`;
    const signed = new URLSearchParams({
      SAMLRequest: deflateRawSync(Buffer.from(request)).toString('base64'),
      RelayState: samlId(),
      SigAlg: SIGNATURE_URIS[alg as XmlSignatureAlg],
    }).toString();
    const Algo = algorithmFor(alg as XmlSignatureAlg);
    const signature = new Algo().getSignature(signed, privateJwk as never);
    const url = `${SSO}?${signed}&${new URLSearchParams({ Signature: signature })}`;

    const signer = {
      alg,
      kid: 'k',
      key: (await importJWK(privateJwk, { alg })) as PrivateKey,
      certificate: cert.pem,
    };
    const respond = (keyInfo: KeyInfoForm) =>
      signedLoginResponse(
        {
          idpEntityId: 'https://idp.example.com/saml/metadata',
          spEntityId: SP,
          acsUrl: ACS,
          inResponseTo: samlId(),
          nameId: { format: 'persistent', value: 'x'.repeat(43) },
          account: {
            sub: 's',
            uid: 'alice',
            passwordHash: '',
            name: 'Alice Example',
            email: 'alice@example.com',
          },
          authTime: Math.floor(Date.now() / 1000),
          sessionIndex: samlId(),
          authnContext: 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport',
          now: Date.now(),
          lifetime: 300,
        },
        signer,
        { sign, keyInfo },
      );
    const response = await respond('certificate');
    const named = await respond('keyName');
    const form = formPostPage(ACS, {
      SAMLResponse: Buffer.from(response).toString('base64'),
      RelayState: samlId(),
    });
    rows.push({
      alg,
      signatureBytes: Buffer.from(signature, 'base64').length,
      redirectUrlBytes: Buffer.byteLength(url),
      responseXmlBytes: Buffer.byteLength(response),
      postFormBytes: Buffer.byteLength(form),
      responseXmlKeyNameBytes: Buffer.byteLength(named),
    });
  }
  return rows;
}

export function formatSizeTable(rows: SamlSizeRow[]): string {
  const head =
    '| algorithm | signature (B) | Redirect URL, signed AuthnRequest (B) | Response XML (B) | POST form (B) | Response XML, KeyName only (B) |';
  const sep = '| --- | ---: | ---: | ---: | ---: | ---: |';
  const n = (v: number) => v.toLocaleString('en-US');
  return [
    head,
    sep,
    ...rows.map(
      (r) =>
        `| ${r.alg} | ${n(r.signatureBytes)} | ${n(r.redirectUrlBytes)} | ${n(r.responseXmlBytes)} | ${n(r.postFormBytes)} | ${n(r.responseXmlKeyNameBytes)} |`,
    ),
  ].join('\n');
}
