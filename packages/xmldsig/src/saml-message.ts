/**
 * Decoding one `SAMLRequest`/`SAMLResponse` parameter strictly, with its work bounded before any
 * parser sees it: the encoded length, the decoded (and, for HTTP-Redirect, inflated) size, and the
 * shape of the XML (xml/limits.ts). node-saml decodes base64 leniently, inflates without an output
 * limit and searches children with XPath whose cost is quadratic in sibling count, so an SP runs
 * this first.
 */
import { inflateRawSync } from 'node:zlib';
import type { Element } from '@xmldom/xmldom';
import { checkDestination } from './addressing.ts';
import { XmlInvalid } from './errors.ts';
import { SAMLP_NS } from './saml.ts';
import { checkXmlLimits, samlLimits, type XmlLimits } from './xml/limits.ts';
import { parseXml } from './xml/parse.ts';

/**
 * Decoded size cap for one SAML message: 128 KiB. A Response signed twice with ML-DSA-87 (each
 * KeyInfo with its certificate) is about 36 KB (docs/SAML.md, Sizes), so this leaves room and still
 * refuses anything that has no business being a SAML message.
 */
export const DEFAULT_MAX_SAML_MESSAGE_BYTES = 128 * 1024;

export interface DecodeSamlMessageOptions {
  /** `post`: base64. `redirect`: base64 of raw DEFLATE (saml-bindings §3.4.4.1). */
  binding: 'post' | 'redirect';
  /** Cap on the decoded (and, for Redirect, inflated) XML. Default 128 KiB. */
  maxBytes?: number;
  /** Shape limits, over DEFAULT_SAML_LIMITS (elements, depth, children and attributes per element). */
  limits?: Partial<XmlLimits>;
  /**
   * The samlp root elements this endpoint takes, e.g. `['Response']` at the ACS and
   * `['LogoutResponse', 'LogoutRequest']` at the SLO URL. Default: any samlp element.
   */
  accept?: readonly string[];
  /**
   * The URL this endpoint receives messages at. When given, the root element must carry a
   * `Destination` equal to it (saml-bindings §3.5.5.2 requires Destination on every signed
   * message, and the recipient must compare it with where the message arrived).
   */
  destination?: string;
}

export interface DecodedSamlMessage {
  xml: string;
  /** The samlp root element's local name: Response, LogoutRequest, … */
  kind: string;
  /** The parsed root (for structural checks only: nothing here is verified). */
  root: Element;
}

const STRICT_B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Decodes a `SAMLRequest`/`SAMLResponse` parameter the way node-saml does, but strictly and with its
 * work bounded, and returns the XML. Throws `XmlInvalid` (`ERR_XMLDSIG_XML_INVALID`) saying what was
 * wrong (too large before or after decoding, not base64, not DEFLATE, not UTF-8, not XML or a
 * DOCTYPE, not a `samlp:` message, not one of `accept`), `XmlLimitExceeded`
 * (`ERR_XMLDSIG_XML_LIMIT`) for a shape past the limits, and `SamlMisaddressed`
 * (`ERR_XMLDSIG_SAML_MISADDRESSED`) for a Destination other than `destination`.
 */
export function decodeSamlMessage(value: unknown, opts: DecodeSamlMessageOptions): string {
  return decodeSamlMessageDocument(value, opts).xml;
}

/** decodeSamlMessage, returning the parsed root and its kind as well. */
export function decodeSamlMessageDocument(
  value: unknown,
  opts: DecodeSamlMessageOptions,
): DecodedSamlMessage {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_SAML_MESSAGE_BYTES;
  const limits = samlLimits(opts.limits);
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
  // Shape before parsing: the parser, and node-saml's XPath after it, never see an oversized shape.
  checkXmlLimits(xml, limits);
  const root = parseXml(xml, maxBytes).documentElement;
  if (!root || root.namespaceURI !== SAMLP_NS)
    throw new XmlInvalid(`The SAML message is a ${root?.nodeName ?? 'nothing'}, not a SAML protocol message`);
  const kind = root.localName ?? '';
  if (opts.accept && !opts.accept.includes(kind))
    throw new XmlInvalid(
      `The SAML message is a samlp:${kind}; this endpoint takes ${opts.accept.map((a) => `samlp:${a}`).join(' or ')}`,
    );
  if (opts.destination !== undefined) checkDestination(root, opts.destination, true);
  return { xml, kind, root };
}
