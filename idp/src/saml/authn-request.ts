/**
 * AuthnRequest (saml-core §3.4.1) after acceptSpRequest: which registered ACS URL the response
 * goes to (a URL the SP did not register is refused, never used), the NameID format asked for,
 * ForceAuthn and IsPassive. Responses only use HTTP-POST.
 */
import { SamlRequestError } from './bindings.ts';
import { BINDING, NAMEID_FORMAT, type NameIdFormatName, NS, nameIdFormatName } from './constants.ts';
import type { AcceptedRequest } from './requests.ts';
import { attr, child } from './xml.ts';

export interface AuthnRequestInfo {
  id: string;
  spEntityId: string;
  acsUrl: string;
  relayState?: string;
  forceAuthn: boolean;
  isPassive: boolean;
  /** Undefined: the SP's registered default. */
  nameIdFormat?: NameIdFormatName;
}

export function readAuthnRequest(req: AcceptedRequest): AuthnRequestInfo {
  const { root, sp } = req;
  const binding = attr(root, 'ProtocolBinding');
  if (binding !== undefined && binding !== BINDING.post)
    throw new SamlRequestError(
      'Only the HTTP-POST binding is supported for responses.',
      'unsupported_binding',
    );

  let acsUrl: string | undefined;
  const asked = attr(root, 'AssertionConsumerServiceURL');
  const index = attr(root, 'AssertionConsumerServiceIndex');
  if (asked !== undefined) {
    if (!sp.acsUrls.includes(asked))
      throw new SamlRequestError(
        'The AssertionConsumerServiceURL is not registered for this application.',
        'acs_not_registered',
      );
    acsUrl = asked;
  } else if (index !== undefined) {
    acsUrl = /^\d{1,3}$/.test(index) ? sp.acsUrls[Number(index)] : undefined;
    if (!acsUrl)
      throw new SamlRequestError(
        'The AssertionConsumerServiceIndex is not registered.',
        'acs_not_registered',
      );
  } else {
    acsUrl = sp.acsUrls[0] as string;
  }

  // A format we cannot produce is answered with InvalidNameIDPolicy (see unsupportedNameIdFormat).
  const policy = child(root, NS.samlp, 'NameIDPolicy');
  const format = policy ? attr(policy, 'Format') : undefined;
  const nameIdFormat = format !== undefined ? nameIdFormatName(format) : undefined;
  return {
    id: req.id,
    spEntityId: sp.entityId,
    acsUrl,
    ...(req.relayState !== undefined ? { relayState: req.relayState } : {}),
    forceAuthn: attr(root, 'ForceAuthn') === 'true' || attr(root, 'ForceAuthn') === '1',
    isPassive: attr(root, 'IsPassive') === 'true' || attr(root, 'IsPassive') === '1',
    ...(nameIdFormat ? { nameIdFormat } : {}),
  };
}

/** The NameIDPolicy format the SP asked for, when it is one we cannot produce. */
export function unsupportedNameIdFormat(req: AcceptedRequest): string | undefined {
  const policy = child(req.root, NS.samlp, 'NameIDPolicy');
  const format = policy ? attr(policy, 'Format') : undefined;
  if (format === undefined || format === NAMEID_FORMAT.unspecified) return undefined;
  return nameIdFormatName(format) ? undefined : format;
}
