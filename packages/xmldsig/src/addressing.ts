/**
 * Is this Response meant for this ACS? A validly signed Response the IdP issued for another
 * endpoint (another ACS of the same SP, say) must not be accepted here. Two attributes say where
 * it was meant to go: the Response's `Destination` (saml-bindings §3.5.5.2: required on a signed
 * message, and compared with the URL it arrived at) and the bearer `SubjectConfirmationData`'s
 * `Recipient` (saml-profiles §4.1.4.2–3: the ACS URL, checked by the SP). node-saml 5.1 checks
 * neither, so an SP calls `checkSamlResponseAddressing` on what node-saml verified.
 */
import type { Element } from '@xmldom/xmldom';
import { SamlMisaddressed } from './errors.ts';
import { XMLDSIG_NS } from './uris.ts';
import { childElements, parseXml } from './xml/parse.ts';

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

/**
 * The verified XML node-saml hands to passport-saml's verify callback (its `Profile`; the methods
 * are optional in node-saml's types, and present on every profile made from a Response).
 */
export interface NodeSamlProfileXml {
  /** The Assertion as verified (signed bytes, decrypted if it was encrypted). */
  getAssertionXml?(): string;
  /** The whole Response as received; its root is what the Response signature covered. */
  getSamlResponseXml?(): string;
}

export interface SamlResponseXml {
  responseXml: string;
  assertionXml: string;
}

/**
 * Throws `SamlMisaddressed` (ERR_XMLDSIG_SAML_MISADDRESSED) unless the Response's Destination and
 * every bearer SubjectConfirmationData Recipient are `acsUrl`. Give it node-saml's profile (in the
 * passport-saml verify callback) or the two XML strings. A signed Response must carry Destination;
 * an unsigned one (only the Assertion signed) may omit it, but a present one must match.
 */
export function checkSamlResponseAddressing(
  response: NodeSamlProfileXml | SamlResponseXml,
  acsUrl: string,
): void {
  const { responseXml, assertionXml } =
    'responseXml' in response
      ? response
      : { responseXml: response.getSamlResponseXml?.(), assertionXml: response.getAssertionXml?.() };
  if (typeof responseXml !== 'string' || typeof assertionXml !== 'string')
    throw new SamlMisaddressed('No Response and Assertion XML to check the Destination and Recipient of');
  const root = parseXml(responseXml).documentElement as Element;
  const assertion = parseXml(assertionXml).documentElement as Element;
  const signed = childElements(root, XMLDSIG_NS, 'Signature').length > 0;
  checkAddressing(root, signed, assertion, acsUrl);
}

/**
 * Destination on the Response root, Recipient on the Assertion's bearer confirmations. `signed`:
 * whether the Response itself was signed (then Destination is required).
 */
export function checkAddressing(
  responseRoot: Element,
  signed: boolean,
  assertion: Element,
  acsUrl: string,
): void {
  checkDestination(responseRoot, acsUrl, signed);
  checkRecipients(assertion, acsUrl);
}

/**
 * Every bearer SubjectConfirmation's data must name this ACS as Recipient, and there must be one.
 * Matched by local name, as node-saml reads them, so no namespace trick hides one from this check.
 */
export function checkRecipients(assertion: Element, acsUrl: string): void {
  const confirmations = assertion.getElementsByTagNameNS('*', 'SubjectConfirmation');
  let bearer = 0;
  for (let i = 0; i < confirmations.length; i++) {
    const sc = confirmations.item(i);
    if (!sc || sc.getAttribute('Method') !== BEARER) continue;
    bearer++;
    const data = sc.getElementsByTagNameNS('*', 'SubjectConfirmationData');
    if (data.length === 0)
      throw new SamlMisaddressed(
        'A bearer SubjectConfirmation has no SubjectConfirmationData with a Recipient',
      );
    for (let j = 0; j < data.length; j++) {
      const recipient = data.item(j)?.getAttribute('Recipient') || undefined;
      if (recipient !== acsUrl)
        throw new SamlMisaddressed(
          recipient === undefined
            ? `A bearer SubjectConfirmationData has no Recipient; expected ${acsUrl}`
            : `The bearer SubjectConfirmationData Recipient ${recipient} is not this ACS (${acsUrl})`,
        );
    }
  }
  if (bearer === 0) throw new SamlMisaddressed('The Assertion has no bearer SubjectConfirmation');
}

/**
 * The root's Destination against the URL the message arrived at. `required`: signed messages must
 * carry one (saml-bindings §3.5.5.2); an unsigned one may omit it, but a present one must match.
 */
export function checkDestination(root: Element, expected: string, required: boolean): void {
  const destination = root.hasAttribute('Destination') ? root.getAttribute('Destination') : null;
  if (destination === null) {
    if (required)
      throw new SamlMisaddressed(`The samlp:${root.localName} has no Destination; expected ${expected}`);
    return;
  }
  if (destination !== expected)
    throw new SamlMisaddressed(
      `The samlp:${root.localName} Destination ${destination} is not this endpoint (${expected})`,
    );
}
