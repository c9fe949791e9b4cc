/**
 * Responses shaped like the pqid IdP's (idp/src/saml/assertion.ts), validly signed and never
 * edited after signing: a test that wants an expired, misaddressed or foreign-audience Response
 * builds it that way and signs it. InResponseTo is on the Response and on the bearer
 * SubjectConfirmationData; NotBefore is one minute before `now`; Assertion signed, then Response.
 */
import { randomBytes } from 'node:crypto';
import { signXml } from '@pqid/xmldsig';
import { ACS, IDP, type Signer, SP } from './fixtures.ts';

export const instantOf = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export interface IdpResponseOptions {
  signer: Signer;
  now?: number;
  inResponseTo?: string;
  audience?: string;
  lifetimeMs?: number;
  /** The Response's Destination; default ACS; null leaves it out. */
  destination?: string | null;
  /** The bearer SubjectConfirmationData's Recipient; default ACS; null leaves it out. */
  recipient?: string | null;
  /** What to sign; default both. */
  sign?: 'response' | 'assertion' | 'both';
}

export function signedIdpResponse(o: IdpResponseOptions): string {
  const t = instantOf;
  const now = o.now ?? Date.now();
  const until = t(now + (o.lifetimeMs ?? 300_000));
  const rid = `_r${randomBytes(8).toString('hex')}`;
  const aid = `_a${randomBytes(8).toString('hex')}`;
  const irt = o.inResponseTo ? ` InResponseTo="${o.inResponseTo}"` : '';
  const destination = o.destination === undefined ? ACS : o.destination;
  const recipient = o.recipient === undefined ? ACS : o.recipient;
  const xml =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${rid}" Version="2.0" IssueInstant="${t(now)}"${destination === null ? '' : ` Destination="${destination}"`}${irt}>` +
    `<saml:Issuer>${IDP}</saml:Issuer>` +
    '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>' +
    `<saml:Assertion ID="${aid}" Version="2.0" IssueInstant="${t(now)}"><saml:Issuer>${IDP}</saml:Issuer>` +
    '<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">alice-p</saml:NameID>' +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${until}"${recipient === null ? '' : ` Recipient="${recipient}"`}${irt}/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${t(now - 60_000)}" NotOnOrAfter="${until}"><saml:AudienceRestriction><saml:Audience>${o.audience ?? SP}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${t(now)}" SessionIndex="${aid}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    '</saml:Assertion></samlp:Response>';
  const key = { key: o.signer.privateJwk, certificate: o.signer.certificate };
  const sign = o.sign ?? 'both';
  let out = xml;
  if (sign !== 'response') out = signXml(out, { ...key, id: aid });
  if (sign !== 'assertion') out = signXml(out, key);
  return out;
}
