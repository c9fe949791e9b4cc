/**
 * SAML Response verification on top of verifyXml: which signatures must be there, and the
 * Assertion handed back always comes from signed bytes. If the Response is signed, everything
 * below is read from its verified canonical form; an Assertion that must be signed is verified
 * inside those bytes (or inside the original document when only the Assertion is signed).
 */
import type { Element } from '@xmldom/xmldom';
import { checkAddressing } from './addressing.ts';
import { ReferenceMismatch, SignatureMissing, XmlInvalid } from './errors.ts';
import { XMLDSIG_NS } from './uris.ts';
import { type VerifyXmlOptions, verifyXml } from './verify.ts';
import { checkXmlLimits, samlLimits, type XmlLimits } from './xml/limits.ts';
import { childElements, idOf, parseXml } from './xml/parse.ts';

export const SAMLP_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
export const SAML_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';

export interface VerifySamlResponseOptions extends Omit<VerifyXmlOptions, 'expectedReferenceId'> {
  /** The Response element must carry a valid signature. Default true. */
  wantResponseSigned?: boolean;
  /** The Assertion must carry its own valid signature. Default true. */
  wantAssertionSigned?: boolean;
  /**
   * This SP's ACS URL. When given, the Response's Destination (required if the Response is
   * signed) and every bearer SubjectConfirmationData Recipient must equal it, read from the
   * verified bytes; otherwise `SamlMisaddressed`.
   */
  acsUrl?: string;
  /** Shape limits checked before parsing, over DEFAULT_SAML_LIMITS. */
  limits?: Partial<XmlLimits>;
}

export interface VerifiedSamlResponse {
  /** The Assertion, parsed from signed bytes. */
  assertion: Element;
  assertionXml: string;
  /** Text of Subject/NameID, from the signed bytes (comments already removed by C14N). */
  nameId: string | undefined;
  responseSigned: boolean;
  assertionSigned: boolean;
}

export function verifySamlResponse(xml: string, opts: VerifySamlResponseOptions): VerifiedSamlResponse {
  const wantResponseSigned = opts.wantResponseSigned ?? true;
  const wantAssertionSigned = opts.wantAssertionSigned ?? true;
  if (typeof xml !== 'string') throw new XmlInvalid('XML must be a string');
  checkXmlLimits(xml, samlLimits(opts.limits));
  const root = parseXml(xml, opts.maxBytes).documentElement as Element;
  if (root.localName !== 'Response' || root.namespaceURI !== SAMLP_NS)
    throw new XmlInvalid('not a samlp:Response');

  const responseSigned = childElements(root, XMLDSIG_NS, 'Signature').length > 0;
  if (wantResponseSigned && !responseSigned) throw new SignatureMissing('the Response is not signed');
  const base = responseSigned ? verifyXml(xml, opts).signedXml : xml;
  const baseRoot = responseSigned ? (parseXml(base).documentElement as Element) : root;

  if (childElements(baseRoot, SAML_NS, 'EncryptedAssertion').length > 0)
    throw new XmlInvalid('EncryptedAssertion is not supported by this verifier');
  const assertions = childElements(baseRoot, SAML_NS, 'Assertion');
  if (assertions.length !== 1 || !assertions[0])
    throw new ReferenceMismatch(`a Response must contain exactly one Assertion, found ${assertions.length}`);

  let assertion: Element = assertions[0];
  let assertionXml = assertion.toString();
  const mustVerifyAssertion = wantAssertionSigned || !responseSigned;
  if (mustVerifyAssertion) {
    const id = idOf(assertion);
    if (!id || childElements(assertion, XMLDSIG_NS, 'Signature').length === 0)
      throw new SignatureMissing('the Assertion is not signed');
    const v = verifyXml(base, { ...opts, expectedReferenceId: id });
    assertion = v.element;
    assertionXml = v.signedXml;
  }
  if (opts.acsUrl !== undefined) checkAddressing(baseRoot, responseSigned, assertion, opts.acsUrl);
  const subject = childElements(assertion, SAML_NS, 'Subject')[0];
  const nameIdEl = subject ? childElements(subject, SAML_NS, 'NameID')[0] : undefined;
  return {
    assertion,
    assertionXml,
    nameId: nameIdEl?.textContent ?? undefined,
    responseSigned,
    assertionSigned: mustVerifyAssertion,
  };
}
