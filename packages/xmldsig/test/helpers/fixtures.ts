/**
 * Shared fixtures: keys for every algorithm, a root CA (ML-DSA-87, the conservative long-lived
 * signer available today), leaf certificates for the hot keys, and SAML documents to sign.
 * Keys are generated once per test file; ML-DSA key generation is fast enough for that.
 */
import { generateKeyPairSync } from 'node:crypto';
import { generateKeyPair, type Jwk } from '@pqid/jose';
import { createRootCertificate, issueCertificate, type XmlSignatureAlg } from '@pqid/xmldsig';

export const ML_DSA_ALGS = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'] as const;
export const ALL_ALGS: XmlSignatureAlg[] = [...ML_DSA_ALGS, 'ES256', 'RS256'];

export interface Signer {
  alg: XmlSignatureAlg;
  privateJwk: Jwk;
  publicJwk: Jwk;
  certificate: string;
}

export async function keyPair(alg: XmlSignatureAlg): Promise<{ privateJwk: Jwk; publicJwk: Jwk }> {
  if (alg === 'ES256' || alg === 'RS256') {
    const { privateKey, publicKey } =
      alg === 'ES256'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : generateKeyPairSync('rsa', { modulusLength: 2048 });
    return {
      privateJwk: { ...(privateKey.export({ format: 'jwk' }) as Jwk), alg },
      publicJwk: { ...(publicKey.export({ format: 'jwk' }) as Jwk), alg },
    };
  }
  return generateKeyPair(alg);
}

let rootPromise: Promise<{ key: Jwk; certificate: string }> | undefined;

/** The long-lived root: ML-DSA-87, self-signed. */
export function root() {
  rootPromise ??= (async () => {
    const { privateJwk } = await generateKeyPair('ML-DSA-87');
    const { pem } = await createRootCertificate({
      subject: { commonName: 'pqid test root', organization: 'pqid' },
      key: privateJwk,
    });
    return { key: privateJwk, certificate: pem };
  })();
  return rootPromise;
}

/** A hot signing key with a leaf certificate issued by the root. */
export async function signer(alg: XmlSignatureAlg, commonName = `pqid IdP ${alg}`): Promise<Signer> {
  const r = await root();
  const { privateJwk, publicJwk } = await keyPair(alg);
  const { pem } = await issueCertificate({
    subject: { commonName, organization: 'pqid' },
    subjectPublicKey: publicJwk,
    issuerKey: r.key,
    issuerCertificate: r.certificate,
    validity: { days: 30 },
  });
  return { alg, privateJwk, publicJwk, certificate: pem };
}

export const IDP = 'https://idp.example.test/saml';
export const SP = 'https://sp.example.test/metadata';
export const ACS = 'https://sp.example.test/acs';

export interface ResponseOptions {
  nameId?: string;
  responseId?: string;
  assertionId?: string;
  now?: Date;
}

/** A SAML 2.0 Response with one Assertion, valid for five minutes from `now`. */
export function samlResponse(opts: ResponseOptions = {}): string {
  const now = opts.now ?? new Date();
  const later = new Date(now.getTime() + 5 * 60_000);
  const t = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const rid = opts.responseId ?? '_r0123456789abcdef';
  const aid = opts.assertionId ?? '_a0123456789abcdef';
  const nameId = opts.nameId ?? 'alice@example.test';
  return (
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${rid}" Version="2.0" IssueInstant="${t(now)}" Destination="${ACS}">` +
    `<saml:Issuer>${IDP}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    `<saml:Assertion ID="${aid}" Version="2.0" IssueInstant="${t(now)}">` +
    `<saml:Issuer>${IDP}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${nameId}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${t(later)}" Recipient="${ACS}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${t(now)}" NotOnOrAfter="${t(later)}"><saml:AudienceRestriction><saml:Audience>${SP}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${t(now)}" SessionIndex="${aid}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${nameId}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>` +
    `</saml:Assertion></samlp:Response>`
  );
}

/** IdP metadata with one signing KeyDescriptor. */
export function idpMetadata(certBase64: string, id = '_m0123456789abcdef'): string {
  return (
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" ID="${id}" entityID="${IDP}">` +
    `<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
    `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certBase64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
    `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${IDP}/sso"/>` +
    `</md:IDPSSODescriptor></md:EntityDescriptor>`
  );
}
