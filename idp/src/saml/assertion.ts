/**
 * The Assertion (saml-core §2.3.3, saml-profiles §4.1.4.2 for Web SSO): bearer
 * SubjectConfirmation bound to the ACS URL and the request, Conditions with an
 * AudienceRestriction to the SP, an AuthnStatement, and the user's profile as attributes.
 */
import type { Account } from '../accounts/accounts.ts';
import { ATTRNAME_BASIC, BEARER, NAMEID_FORMAT, type NameIdFormatName } from './constants.ts';
import { esc, instant, samlId } from './xml.ts';

export interface AssertionInput {
  idpEntityId: string;
  spEntityId: string;
  acsUrl: string;
  inResponseTo?: string;
  nameId: { format: NameIdFormatName; value: string };
  account: Account;
  authTime: number;
  sessionIndex: string;
  authnContext: string;
  now: number;
  lifetime: number;
}

/** Clock skew an SP may have: NotBefore is set this far in the past. */
const NOT_BEFORE_SKEW_MS = 60_000;

export function profileAttributes(account: Account): Array<[string, string]> {
  const attrs: Array<[string, string]> = [['uid', account.uid]];
  if (account.email !== undefined) attrs.push(['email', account.email]);
  if (account.name !== undefined) attrs.push(['displayName', account.name]);
  return attrs;
}

export function buildAssertion(a: AssertionInput): { id: string; xml: string } {
  const id = samlId();
  const issued = instant(a.now);
  const notOnOrAfter = instant(a.now + a.lifetime * 1000);
  const inResponseTo = a.inResponseTo !== undefined ? ` InResponseTo="${esc(a.inResponseTo)}"` : '';
  const nameQualifiers =
    a.nameId.format === 'persistent' || a.nameId.format === 'transient'
      ? ` NameQualifier="${esc(a.idpEntityId)}" SPNameQualifier="${esc(a.spEntityId)}"`
      : '';
  const attributes = profileAttributes(a.account)
    .map(
      ([name, value]) =>
        `<saml:Attribute Name="${esc(name)}" NameFormat="${ATTRNAME_BASIC}"><saml:AttributeValue>${esc(value)}</saml:AttributeValue></saml:Attribute>`,
    )
    .join('');
  const xml =
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${issued}">` +
    `<saml:Issuer>${esc(a.idpEntityId)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${NAMEID_FORMAT[a.nameId.format]}"${nameQualifiers}>${esc(a.nameId.value)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="${BEARER}"><saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${esc(a.acsUrl)}"${inResponseTo}/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${instant(a.now - NOT_BEFORE_SKEW_MS)}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${esc(a.spEntityId)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${instant(a.authTime * 1000)}" SessionIndex="${esc(a.sessionIndex)}"><saml:AuthnContext><saml:AuthnContextClassRef>${esc(a.authnContext)}</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
    '</saml:Assertion>';
  return { id, xml };
}
