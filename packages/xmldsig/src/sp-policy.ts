/**
 * SP-side policy for node-saml / passport-saml SPs that accept a post-quantum IdP.
 *
 * `installNodeSamlIntegration()` covers the signature layer. Everything after the signature is
 * node-saml's job, and several of its defaults are weak: `validateInResponseTo` is `'never'` (so
 * the same Response can be replayed and unsolicited Responses are accepted),
 * `acceptedClockSkewMs` is 0, the AuthnRequest signing algorithm is SHA-1, the request-ID cache
 * keeps IDs for 8 hours, and nothing caps the size of a message before it is base64-decoded or
 * inflated. `recommendedNodeSamlOptions()` returns the options an SP should set, and
 * `decodeSamlMessage()` is a size-capped, strict decoder to run in front of node-saml.
 *
 * The types here are structural so this package does not need node-saml's types at runtime or
 * compile time (node-saml is an optional peer). `validateInResponseTo` is node-saml's string enum,
 * so TypeScript callers may need a cast when they spread the result into `new SAML({...})`.
 */
import { inflateRawSync } from 'node:zlib';
import { XmlInvalid } from './errors.ts';
import { SAMLP_NS } from './saml.ts';
import { parseXml } from './xml/parse.ts';

/**
 * Decoded size cap for one SAML message: 128 KiB. A Response signed twice with ML-DSA-87 (each
 * KeyInfo with its certificate) is about 36 KB (docs/SAML.md, Sizes), so this leaves room and still
 * refuses anything that has no business being a SAML message.
 */
export const DEFAULT_MAX_SAML_MESSAGE_BYTES = 128 * 1024;

/** node-saml's `CacheProvider` (request IDs for `validateInResponseTo`). */
export interface NodeSamlCacheProvider {
  saveAsync(key: string, value: string): Promise<unknown>;
  getAsync(key: string): Promise<string | null>;
  removeAsync(key: string | null): Promise<string | null>;
}

export interface RecommendedNodeSamlOptionsInput {
  /** The IdP signing certificate(s) you pinned (PEM). Give the same list to installNodeSamlIntegration. */
  idpCert: string | string[];
  /** The IdP entityID; node-saml checks the Issuer only when this is set. */
  idpIssuer: string;
  /** This SP's entityID. */
  issuer: string;
  /** This SP's Assertion Consumer Service URL. */
  callbackUrl: string;
  /** The Audience to require; default `issuer`. */
  audience?: string;
  /** Tolerated clock difference for NotBefore/NotOnOrAfter; default 30 s. */
  acceptedClockSkewMs?: number;
  /**
   * How long an AuthnRequest ID stays redeemable; default 15 minutes (node-saml: 8 hours). The pqid
   * IdP refuses requests older than `saml.requestMaxAge` (10 minutes) anyway.
   */
  requestIdExpirationPeriodMs?: number;
  /**
   * Where request IDs are kept. node-saml's default is in memory, in one process: an SP with
   * several instances needs a shared store, or a Response is accepted only by the instance that
   * sent the request.
   */
  cacheProvider?: NodeSamlCacheProvider;
}

export interface RecommendedNodeSamlOptions {
  idpCert: string | string[];
  idpIssuer: string;
  issuer: string;
  callbackUrl: string;
  audience: string;
  wantAuthnResponseSigned: true;
  wantAssertionsSigned: true;
  validateInResponseTo: 'always';
  requestIdExpirationPeriodMs: number;
  acceptedClockSkewMs: number;
  signatureAlgorithm: 'sha256';
  digestAlgorithm: 'sha256';
  cacheProvider?: NodeSamlCacheProvider;
}

/**
 * The node-saml options a hardened SP sets against a pqid IdP. Spread them into the
 * `new SAML({...})` / `new Strategy({...})` options, and add your own (entryPoint, logoutUrl,
 * identifierFormat, privateKey for request signing, …).
 *
 * - `wantAuthnResponseSigned` and `wantAssertionsSigned`: both true (register the SP with `sign: 'both'`).
 * - `validateInResponseTo: 'always'`: a Response must answer a request this SP sent and has not
 *   seen answered, which refuses replays and unsolicited (IdP-initiated) Responses.
 * - `audience`: explicit, this SP's entityID.
 * - `idpIssuer`: required, so the Issuer is checked.
 * - `acceptedClockSkewMs`: 30 s unless you pass another value; node-saml's default is 0.
 * - `signatureAlgorithm` and `digestAlgorithm`: SHA-256 for the SP's own request signatures
 *   (node-saml's default is SHA-1).
 */
export function recommendedNodeSamlOptions(o: RecommendedNodeSamlOptionsInput): RecommendedNodeSamlOptions {
  for (const k of ['idpIssuer', 'issuer', 'callbackUrl'] as const)
    if (typeof o[k] !== 'string' || o[k] === '')
      throw new TypeError(`recommendedNodeSamlOptions: ${k} is required`);
  if (o.idpCert === undefined || (Array.isArray(o.idpCert) && o.idpCert.length === 0))
    throw new TypeError('recommendedNodeSamlOptions: idpCert is required');
  return {
    idpCert: o.idpCert,
    idpIssuer: o.idpIssuer,
    issuer: o.issuer,
    callbackUrl: o.callbackUrl,
    audience: o.audience ?? o.issuer,
    wantAuthnResponseSigned: true,
    wantAssertionsSigned: true,
    validateInResponseTo: 'always',
    requestIdExpirationPeriodMs: o.requestIdExpirationPeriodMs ?? 15 * 60_000,
    acceptedClockSkewMs: o.acceptedClockSkewMs ?? 30_000,
    signatureAlgorithm: 'sha256',
    digestAlgorithm: 'sha256',
    ...(o.cacheProvider ? { cacheProvider: o.cacheProvider } : {}),
  };
}

export interface DecodeSamlMessageOptions {
  /** `post`: base64. `redirect`: base64 of raw DEFLATE (saml-bindings §3.4.4.1). */
  binding: 'post' | 'redirect';
  /** Cap on the decoded (and, for Redirect, inflated) XML. Default 128 KiB. */
  maxBytes?: number;
  /**
   * The samlp root elements this endpoint takes, e.g. `['Response']` at the ACS and
   * `['LogoutResponse', 'LogoutRequest']` at the SLO URL. Default: any samlp element.
   */
  accept?: readonly string[];
}

const STRICT_B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Decodes a `SAMLRequest`/`SAMLResponse` parameter the way node-saml does, but strictly and with a
 * size cap, and returns the XML. Run it before node-saml: node-saml decodes any base64 leniently,
 * and for the Redirect binding inflates without any output limit (a few KB of DEFLATE can expand to
 * hundreds of MB). Throws `XmlInvalid` (`ERR_XMLDSIG_XML_INVALID`) with a message saying what was
 * wrong: too large before or after decoding, not base64, not DEFLATE, not UTF-8, not XML (or a
 * DOCTYPE), a root element outside the SAML protocol namespace, or one not in `accept`.
 */
export function decodeSamlMessage(value: unknown, opts: DecodeSamlMessageOptions): string {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_SAML_MESSAGE_BYTES;
  if (typeof value !== 'string') throw new XmlInvalid('The SAML message is missing or not a single value');
  // Refuse by length before decoding anything: base64 is 4/3 of the bytes it carries.
  if (value.length > Math.ceil((maxBytes * 4) / 3) * 2 + 1024)
    throw new XmlInvalid(`The SAML message is larger than ${maxBytes} bytes`);
  const compact = value.replace(/[\r\n\t ]+/g, '');
  if (compact.length > Math.ceil((maxBytes * 4) / 3) + 4)
    throw new XmlInvalid(`The SAML message is larger than ${maxBytes} bytes`);
  if (compact === '' || !STRICT_B64.test(compact))
    throw new XmlInvalid('The SAML message is not valid base64');
  let bytes = Buffer.from(compact, 'base64');
  if (opts.binding === 'redirect') {
    try {
      bytes = inflateRawSync(bytes, { maxOutputLength: maxBytes });
    } catch (e) {
      const code = (e as { code?: string }).code;
      throw new XmlInvalid(
        code === 'ERR_BUFFER_TOO_LARGE'
          ? `The SAML message is larger than ${maxBytes} bytes once inflated`
          : 'The SAML message is not valid DEFLATE data',
        { cause: e },
      );
    }
  }
  if (bytes.length > maxBytes) throw new XmlInvalid(`The SAML message is larger than ${maxBytes} bytes`);
  let xml: string;
  try {
    xml = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (e) {
    throw new XmlInvalid('The SAML message is not UTF-8 text', { cause: e });
  }
  const root = parseXml(xml, maxBytes).documentElement;
  if (root?.namespaceURI !== SAMLP_NS)
    throw new XmlInvalid(`The SAML message is a ${root?.nodeName ?? 'nothing'}, not a SAML protocol message`);
  const name = root.localName ?? '';
  if (opts.accept && !opts.accept.includes(name))
    throw new XmlInvalid(
      `The SAML message is a samlp:${name}; this endpoint takes ${opts.accept.map((a) => `samlp:${a}`).join(' or ')}`,
    );
  return xml;
}
