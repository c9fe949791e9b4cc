/**
 * Work limits for untrusted XML, checked by one linear pass over the text before any parser,
 * XPath engine or signature library sees it. A byte cap alone does not bound work: node-saml
 * selects children with XPath whose cost grows with the square of the number of siblings, so
 * 80 KB of `<a/>` siblings (524 bytes deflated) blocked an SP's event loop for 33 s. Counting
 * elements, depth, children per element and attributes per element bounds every such shape.
 *
 * The scanner is strict rather than clever: anything it cannot tokenize as plain XML (an
 * unquoted attribute, `<` inside a value, an unterminated comment, a DOCTYPE) is refused, so it
 * can never count fewer elements than a parser would find.
 */
import { XmlInvalid, XmlLimitExceeded } from '../errors.ts';

export interface XmlLimits {
  /** Elements in the whole document. */
  maxElements: number;
  /** Nesting depth; the root element is depth 1. */
  maxDepth: number;
  /** Child elements of any one element (siblings). */
  maxChildren: number;
  /** Attributes of any one element, namespace declarations included. */
  maxAttributes: number;
  /** Attributes in the whole document, namespace declarations included. */
  maxTotalAttributes: number;
}

export interface XmlShape {
  elements: number;
  depth: number;
  /** The most children any one element has (the root counts as one child of the document). */
  children: number;
  /** The most attributes any one element has. */
  attributes: number;
  totalAttributes: number;
}

/**
 * Limits for one SAML protocol message (Response, LogoutRequest, AuthnRequest, …), several times
 * what real messages need, and low enough that the costliest message they admit — even one
 * validly signed by the trusted IdP, which node-saml then canonicalizes and searches in full —
 * stays within tens of milliseconds of CPU (docs/SAML.md, "Work limits", load/saml-work.mjs).
 * Measured: the pqid IdP's Response signed twice with ML-DSA-87 has 46 elements, depth 7, at most
 * 8 children and 6 attributes on one element; the samples from the node-saml and xml-crypto suites
 * in test/vectors (SimpleSAMLphp and others, with Advice, encrypted and doubly signed assertions)
 * have at most 87 elements, depth 9, 14 children, 7 attributes on one element and 103 in all. A
 * group claim of 150 AttributeValues (Azure AD's SAML cap) fits; raise `maxChildren` and
 * `maxElements` for larger ones.
 */
export const DEFAULT_SAML_LIMITS: Readonly<XmlLimits> = Object.freeze({
  maxElements: 256,
  maxDepth: 24,
  maxChildren: 192,
  maxAttributes: 32,
  maxTotalAttributes: 512,
});

/** Merges partial limits over the defaults and checks each is a positive integer. */
export function samlLimits(limits: Partial<XmlLimits> = {}): XmlLimits {
  const out = { ...DEFAULT_SAML_LIMITS, ...limits };
  for (const [k, v] of Object.entries(out))
    if (!Number.isSafeInteger(v) || v < 1) throw new TypeError(`XML limit ${k} must be a positive integer`);
  return out;
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Counts the document's shape in one pass and throws `XmlLimitExceeded` (ERR_XMLDSIG_XML_LIMIT)
 * as soon as a limit is passed, or `XmlInvalid` for text it cannot tokenize. Linear in the input:
 * every step moves forward, and each construct is found with one `indexOf`.
 */
export function checkXmlLimits(xml: string, limits: XmlLimits = DEFAULT_SAML_LIMITS): XmlShape {
  const shape: XmlShape = { elements: 0, depth: 0, children: 0, attributes: 0, totalAttributes: 0 };
  const childCounts: number[] = [0];
  let i = 0;
  const n = xml.length;
  // The next "<" at or after a position, cached so that checking every attribute value for "<"
  // stays linear however many attributes share a tag.
  let cachedLt = -1;
  const ltAfter = (pos: number): number => {
    if (cachedLt < pos) {
      cachedLt = xml.indexOf('<', pos);
      if (cachedLt < 0) cachedLt = n;
    }
    return cachedLt;
  };
  const skipTo = (end: string, from: number, what: string): number => {
    const at = xml.indexOf(end, from);
    if (at < 0) throw new XmlInvalid(`XML has an unterminated ${what}`);
    return at + end.length;
  };
  while (i < n) {
    const lt = xml.indexOf('<', i);
    if (lt < 0) break;
    const next = xml.charCodeAt(lt + 1);
    if (next === 0x3f /* ? */) {
      i = skipTo('?>', lt + 2, 'processing instruction');
    } else if (xml.startsWith('<!--', lt)) {
      i = skipTo('-->', lt + 4, 'comment');
    } else if (xml.startsWith('<![CDATA[', lt)) {
      i = skipTo(']]>', lt + 9, 'CDATA section');
    } else if (next === 0x21 /* ! */) {
      throw new XmlInvalid('XML with a DOCTYPE or other declarations is not accepted');
    } else if (next === 0x2f /* / */) {
      i = skipTo('>', lt + 2, 'end tag');
      if (childCounts.length <= 1) throw new XmlInvalid('XML has an end tag without a start tag');
      childCounts.pop();
    } else {
      i = startTag(xml, lt + 1, limits, shape, childCounts, ltAfter);
    }
  }
  return shape;
}

/** One start tag from just after its `<`; returns the index after its `>`. */
function startTag(
  xml: string,
  from: number,
  limits: XmlLimits,
  shape: XmlShape,
  childCounts: number[],
  ltAfter: (pos: number) => number,
): number {
  let i = from;
  const n = xml.length;
  while (i < n && !WS.has(xml.charCodeAt(i)) && xml[i] !== '>' && xml[i] !== '/') i++;
  if (i === from) throw new XmlInvalid('XML has a tag without a name');
  if (++shape.elements > limits.maxElements)
    throw new XmlLimitExceeded(`XML has more than ${limits.maxElements} elements (limit maxElements)`);
  const depth = childCounts.length;
  const siblings = (childCounts[depth - 1] ?? 0) + 1;
  childCounts[depth - 1] = siblings;
  if (siblings > shape.children) shape.children = siblings;
  if (siblings > limits.maxChildren)
    throw new XmlLimitExceeded(
      `an XML element has more than ${limits.maxChildren} child elements (limit maxChildren)`,
    );
  let attributes = 0;
  for (;;) {
    while (i < n && WS.has(xml.charCodeAt(i))) i++;
    if (i >= n) throw new XmlInvalid('XML has an unterminated start tag');
    if (xml[i] === '>') {
      i++;
      if (depth > shape.depth) shape.depth = depth;
      if (depth > limits.maxDepth)
        throw new XmlLimitExceeded(`XML is nested more than ${limits.maxDepth} deep (limit maxDepth)`);
      childCounts.push(0);
      break;
    }
    if (xml.startsWith('/>', i)) {
      i += 2;
      if (depth > shape.depth) shape.depth = depth;
      if (depth > limits.maxDepth)
        throw new XmlLimitExceeded(`XML is nested more than ${limits.maxDepth} deep (limit maxDepth)`);
      break;
    }
    // name = "value" | name = 'value'
    const nameStart = i;
    while (i < n && !WS.has(xml.charCodeAt(i)) && xml[i] !== '=' && xml[i] !== '>' && xml[i] !== '/') i++;
    if (i === nameStart) throw new XmlInvalid('XML has a malformed attribute');
    while (i < n && WS.has(xml.charCodeAt(i))) i++;
    if (xml[i] !== '=') throw new XmlInvalid('XML has an attribute without a value');
    i++;
    while (i < n && WS.has(xml.charCodeAt(i))) i++;
    const quote = xml[i];
    if (quote !== '"' && quote !== "'") throw new XmlInvalid('XML has an unquoted attribute value');
    const end = xml.indexOf(quote, i + 1);
    if (end < 0) throw new XmlInvalid('XML has an unterminated attribute value');
    if (ltAfter(i + 1) < end) throw new XmlInvalid('XML has "<" in an attribute value');
    i = end + 1;
    if (++attributes > limits.maxAttributes)
      throw new XmlLimitExceeded(
        `an XML element has more than ${limits.maxAttributes} attributes (limit maxAttributes)`,
      );
    if (++shape.totalAttributes > limits.maxTotalAttributes)
      throw new XmlLimitExceeded(
        `XML has more than ${limits.maxTotalAttributes} attributes in all (limit maxTotalAttributes)`,
      );
    if (attributes > shape.attributes) shape.attributes = attributes;
  }
  return i;
}
