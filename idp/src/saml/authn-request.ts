/**
 * AuthnRequest (saml-core §3.4.1) after acceptSpRequest: which registered ACS URL the response
 * goes to (a URL the SP did not register is refused, never used), the NameID format asked for,
 * ForceAuthn and IsPassive. Responses only use HTTP-POST.
 */
import type { Comparison, RequestedAuthnContext } from './authn-context.ts';
import { SamlRequestError } from './bindings.ts';
import { BINDING, NAMEID_FORMAT, type NameIdFormatName, NS, nameIdFormatName } from './constants.ts';
import type { AcceptedRequest } from './requests.ts';
import { attr, child, children, text } from './xml.ts';

export interface AuthnRequestInfo {
  id: string;
  spEntityId: string;
  acsUrl: string;
  relayState?: string;
  forceAuthn: boolean;
  isPassive: boolean;
  /** Undefined: the SP's registered default. */
  nameIdFormat?: NameIdFormatName;
  /** What the SP asks of the sign-in (saml-core §3.3.2.2.1); absent: anything will do. */
  requestedAuthnContext?: RequestedAuthnContext;
}

const COMPARISONS: readonly Comparison[] = ['exact', 'minimum', 'maximum', 'better'];

/**
 * RequestedAuthnContext: class references only. Declaration references (AuthnContextDeclRef)
 * name no class this provider knows, so they are kept as unknowns and cannot be met.
 */
function readRequestedAuthnContext(root: Parameters<typeof child>[0]): RequestedAuthnContext | undefined {
  const rac = child(root, NS.samlp, 'RequestedAuthnContext');
  if (!rac) return undefined;
  const comparison = attr(rac, 'Comparison') ?? 'exact';
  if (!(COMPARISONS as readonly string[]).includes(comparison))
    throw new SamlRequestError('RequestedAuthnContext has an unknown Comparison.', 'invalid_request');
  const classRefs = children(rac, NS.saml, 'AuthnContextClassRef').map((e) => text(e) ?? '');
  const declRefs = children(rac, NS.saml, 'AuthnContextDeclRef').map((e) => `decl:${text(e) ?? ''}`);
  if (classRefs.length + declRefs.length === 0)
    throw new SamlRequestError('RequestedAuthnContext names no context.', 'invalid_request');
  return { comparison: comparison as Comparison, classRefs: [...classRefs, ...declRefs] };
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
  const requestedAuthnContext = readRequestedAuthnContext(root);
  return {
    id: req.id,
    spEntityId: sp.entityId,
    acsUrl,
    ...(req.relayState !== undefined ? { relayState: req.relayState } : {}),
    forceAuthn: attr(root, 'ForceAuthn') === 'true' || attr(root, 'ForceAuthn') === '1',
    isPassive: attr(root, 'IsPassive') === 'true' || attr(root, 'IsPassive') === '1',
    ...(nameIdFormat ? { nameIdFormat } : {}),
    ...(requestedAuthnContext ? { requestedAuthnContext } : {}),
  };
}

/** The NameIDPolicy format the SP asked for, when it is one we cannot produce. */
export function unsupportedNameIdFormat(req: AcceptedRequest): string | undefined {
  const policy = child(req.root, NS.samlp, 'NameIDPolicy');
  const format = policy ? attr(policy, 'Format') : undefined;
  if (format === undefined || format === NAMEID_FORMAT.unspecified) return undefined;
  return nameIdFormatName(format) ? undefined : format;
}
