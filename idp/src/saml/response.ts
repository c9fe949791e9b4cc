/**
 * The samlp:Response and the LogoutResponse, signed as the SP registered: the algorithm
 * (ML-DSA-44/65/87, RSA-SHA256, ECDSA-SHA256) and the element (Response, Assertion or both; the
 * Assertion first, so the Response signature covers the signed Assertion), with the certificate
 * or only its key name in KeyInfo. Signing uses signXmlAsync, so ML-DSA runs off the event loop on
 * the native backend.
 */
import { signXmlAsync } from '@pqid/xmldsig';
import { type AssertionInput, buildAssertion } from './assertion.ts';
import type { SamlSigner } from './certificates.ts';
import { STATUS } from './constants.ts';
import type { SamlSp } from './sps.ts';
import { esc, instant, samlId } from './xml.ts';

const PROTOCOL_NS =
  'xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"';

function status(code: string, sub?: string, message?: string): string {
  const inner = sub ? `<samlp:StatusCode Value="${sub}"/>` : '';
  const msg = message ? `<samlp:StatusMessage>${esc(message)}</samlp:StatusMessage>` : '';
  return `<samlp:Status><samlp:StatusCode Value="${code}">${inner}</samlp:StatusCode>${msg}</samlp:Status>`;
}

function envelope(
  element: 'Response' | 'LogoutResponse',
  o: { idpEntityId: string; destination: string; inResponseTo?: string | undefined; now: number },
  body: string,
): { id: string; xml: string } {
  const id = samlId();
  const irt = o.inResponseTo !== undefined ? ` InResponseTo="${esc(o.inResponseTo)}"` : '';
  const xml =
    `<samlp:${element} ${PROTOCOL_NS} ID="${id}" Version="2.0" IssueInstant="${instant(o.now)}" Destination="${esc(o.destination)}"${irt}>` +
    `<saml:Issuer>${esc(o.idpEntityId)}</saml:Issuer>${body}</samlp:${element}>`;
  return { id, xml };
}

/** How the SP's registration wants our signatures; absent `keyInfo` is the certificate. */
type Signing = Pick<SamlSp, 'keyInfo'>;

/** signXml's options for `signer`, with the KeyInfo form the SP registered. */
const signingOptions = (signer: SamlSigner, { keyInfo }: Signing) => ({
  key: signer.key,
  certificate: signer.certificate,
  ...(keyInfo === 'keyName' ? { keyName: signer.kid } : {}),
});

/** A successful Response carrying one Assertion, signed per the SP's registration. */
export async function signedLoginResponse(
  input: AssertionInput,
  signer: SamlSigner,
  sp: Pick<SamlSp, 'sign' | 'keyInfo'>,
): Promise<string> {
  const assertion = buildAssertion(input);
  // The inner xmlns:saml is redundant under the envelope; exclusive C14N makes it irrelevant.
  const { xml } = envelope(
    'Response',
    {
      idpEntityId: input.idpEntityId,
      destination: input.acsUrl,
      inResponseTo: input.inResponseTo,
      now: input.now,
    },
    status(STATUS.success) + assertion.xml,
  );
  let out = xml;
  const opts = signingOptions(signer, sp);
  if (sp.sign === 'assertion' || sp.sign === 'both')
    out = await signXmlAsync(out, { ...opts, id: assertion.id });
  if (sp.sign === 'response' || sp.sign === 'both') out = await signXmlAsync(out, opts);
  return out;
}

/** An error Response (NoPassive, InvalidNameIDPolicy, …) to a verified ACS URL; always signed. */
export function signedStatusResponse(
  o: { idpEntityId: string; destination: string; inResponseTo?: string; now: number },
  signer: SamlSigner,
  sp: Signing,
  code: string,
  sub?: string,
  message?: string,
): Promise<string> {
  const { xml } = envelope('Response', o, status(code, sub, message));
  return signXmlAsync(xml, signingOptions(signer, sp));
}

export function signedLogoutResponse(
  o: { idpEntityId: string; destination: string; inResponseTo?: string; now: number },
  signer: SamlSigner,
  sp: Signing,
  code: string = STATUS.success,
  sub?: string,
): Promise<string> {
  const { xml } = envelope('LogoutResponse', o, status(code, sub));
  return signXmlAsync(xml, signingOptions(signer, sp));
}
