/**
 * What every SP → IdP request (AuthnRequest, LogoutRequest) goes through before we act on it:
 * a Redirect query holding nothing but the binding's parameters, decoding for its binding, work
 * limits on the XML's shape (before it is parsed), XML without DTDs, the issuer must be a
 * registered SP, the SP's signature when it registered a certificate (Redirect: the query
 * string; POST: the enveloped signature, after which only the signed bytes are read),
 * Destination (required on a signed request), freshness, and a replay check on (issuer, ID).
 */
import { createHash } from 'node:crypto';
import { checkXmlLimits, parseXml, SIGNATURE_URIS, verifyXml, XmlLimitExceeded } from '@pqid/xmldsig';
import type { SamlConfig } from '../config/types.ts';
import type { IdpContext } from '../context.ts';
import { model } from '../storage/model.ts';
import {
  checkRedirectQuery,
  decodePost,
  decodeRedirect,
  SamlRequestError,
  verifyRedirectSignature,
} from './bindings.ts';
import { NS } from './constants.ts';
import type { SamlSp, SamlSps } from './sps.ts';
import { attr, child, children, parseInstant, text, type XmlElement } from './xml.ts';

export interface IncomingMessage {
  binding: 'redirect' | 'post';
  /** The SAMLRequest parameter as received. */
  message: string;
  relayState?: string | undefined;
  sigAlg?: string | undefined;
  signature?: string | undefined;
  /** Raw (still URL-encoded) query string, for the Redirect signature. */
  rawQuery?: string;
}

export interface AcceptedRequest {
  root: XmlElement;
  sp: SamlSp;
  id: string;
  issueInstant: number;
  relayState?: string;
  /**
   * The request's signature was verified with the SP's registered certificate, so it comes from
   * the SP. Otherwise anyone could have built it (an SP without a certificate needs no signature).
   */
  signatureVerified: boolean;
}

/** The one-time marker of an accepted request's (issuer, ID), in the shared `Interaction` model. */
interface SeenRequest {
  kind: 'saml-request-id';
}

/** Future IssueInstants tolerated (clock skew between SP and IdP). */
const SKEW_MS = 60_000;

export async function acceptSpRequest(
  ctx: IdpContext,
  sps: SamlSps,
  msg: IncomingMessage,
  kind: 'AuthnRequest' | 'LogoutRequest',
  destination: string,
): Promise<AcceptedRequest> {
  const cfg = ctx.config.saml;
  if (msg.relayState !== undefined && Buffer.byteLength(msg.relayState) > 80 * 10)
    throw new SamlRequestError('RelayState is too long.');
  if (msg.binding === 'redirect') checkRedirectQuery(msg.rawQuery ?? '', 'SAMLRequest');
  const xml =
    msg.binding === 'redirect'
      ? decodeRedirect(msg.message, cfg.maxRequestBytes)
      : decodePost(msg.message, cfg.maxRequestBytes);
  const parsed = parseRequest(xml, kind, cfg);
  const { issuer, sp } = await registeredIssuer(parsed, sps);
  const root = sp.certificate ? checkSignature(msg, xml, parsed, sp.certificate, cfg) : parsed;
  const { id, issueInstant } = checkEnvelope(root, msg, sp, destination, cfg);
  await firstUse(ctx, issuer, id, cfg);
  return {
    root,
    sp,
    id,
    issueInstant,
    ...(msg.relayState !== undefined ? { relayState: msg.relayState } : {}),
    signatureVerified: sp.certificate !== undefined,
  };
}

/** The request's XML, within the work limits, as the samlp element `kind`. */
function parseRequest(xml: string, kind: string, cfg: SamlConfig): XmlElement {
  let root: XmlElement;
  try {
    // Shape first: a few hundred deflated bytes can be 20,000 siblings, and the parser and the
    // signature check after it would do work that grows faster than the size.
    checkXmlLimits(xml, cfg.requestLimits);
    root = parseXml(xml, cfg.maxRequestBytes).documentElement as XmlElement;
  } catch (e) {
    if (e instanceof XmlLimitExceeded)
      throw new SamlRequestError(`The SAML message is too complex: ${e.message}.`, 'request_too_complex');
    throw new SamlRequestError(`The SAML message is not acceptable XML: ${(e as Error).message}`);
  }
  if (root.namespaceURI !== NS.samlp || root.localName !== kind)
    throw new SamlRequestError(`Expected a samlp:${kind}.`);
  return root;
}

/** The Issuer, which must be a registered SP. */
async function registeredIssuer(root: XmlElement, sps: SamlSps): Promise<{ issuer: string; sp: SamlSp }> {
  const issuer = text(child(root, NS.saml, 'Issuer'));
  if (!issuer) throw new SamlRequestError('The request names no Issuer.');
  const sp = await sps.find(issuer);
  if (!sp)
    throw new SamlRequestError(
      'The application is not registered with this identity provider.',
      'unknown_sp',
    );
  return { issuer, sp };
}

/**
 * The SP's signature with its registered `certificate` (Redirect: the query string; POST: the
 * enveloped signature). Returns what may be read from now on: with POST, only the signed element
 * (signature-wrapping defence).
 */
function checkSignature(
  msg: IncomingMessage,
  xml: string,
  root: XmlElement,
  certificate: string,
  cfg: SamlConfig,
): XmlElement {
  if (msg.binding === 'redirect') {
    verifyRedirectSignature(
      msg.rawQuery ?? '',
      'SAMLRequest',
      { SigAlg: msg.sigAlg, Signature: msg.signature },
      certificate,
    );
    return root;
  }
  try {
    const v = verifyXml(xml, {
      trustedCertificates: [certificate],
      allowedAlgorithms: Object.values(SIGNATURE_URIS),
      maxBytes: cfg.maxRequestBytes,
    });
    return v.element as unknown as XmlElement;
  } catch (e) {
    throw new SamlRequestError(
      `The request signature is not valid: ${(e as Error).message}`,
      'signature_invalid',
    );
  }
}

/** Version, ID, Destination and a fresh IssueInstant. */
function checkEnvelope(
  root: XmlElement,
  msg: IncomingMessage,
  sp: SamlSp,
  destination: string,
  cfg: SamlConfig,
): { id: string; issueInstant: number } {
  if (attr(root, 'Version') !== '2.0') throw new SamlRequestError('Only SAML 2.0 requests are supported.');
  const id = attr(root, 'ID');
  if (!id || id.length > 256) throw new SamlRequestError('The request has no usable ID.');
  // saml-bindings §3.4.5.2 / §3.5.5.2: a signed message must say where it was sent, so that a
  // signature made for another endpoint cannot be replayed here. "Signed" is whatever the request
  // carries, checked or not (an SP without a registered certificate may still sign).
  const signed =
    sp.certificate !== undefined ||
    (msg.binding === 'redirect' ? Boolean(msg.signature) : children(root, NS.ds, 'Signature').length > 0);
  const dest = attr(root, 'Destination');
  if (dest === undefined && signed)
    throw new SamlRequestError('A signed request must name its Destination.', 'destination_required');
  if (dest !== undefined && dest !== destination)
    throw new SamlRequestError('The request was meant for another endpoint (Destination).');
  const issueInstant = parseInstant(attr(root, 'IssueInstant'));
  const now = Date.now();
  if (issueInstant === undefined) throw new SamlRequestError('The request has no valid IssueInstant.');
  if (issueInstant > now + SKEW_MS || now - issueInstant > cfg.requestMaxAge * 1000)
    throw new SamlRequestError(
      'The request has expired. Go back to the application and start again.',
      'expired',
    );
  return { id, issueInstant };
}

/** Replay: each (issuer, ID) once within the freshness window (plus skew). */
async function firstUse(ctx: IdpContext, issuer: string, id: string, cfg: SamlConfig): Promise<void> {
  const replayKey = `saml-req:${createHash('sha256').update(issuer).update('\0').update(id).digest('base64url')}`;
  // One atomic insert in the shared store: exactly one of concurrent uses, on any instance, wins.
  const fresh = await model<SeenRequest>(ctx.storage, 'Interaction').insertIfAbsent(
    replayKey,
    { kind: 'saml-request-id' },
    cfg.requestMaxAge + 120,
  );
  if (!fresh)
    throw new SamlRequestError(
      'This request was already used. Go back to the application and start again.',
      'replay',
    );
}
