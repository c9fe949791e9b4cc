/**
 * DOM surgery on our own signed responses, to build the classic attacks. Every function takes a
 * signed document and returns the tampered XML text.
 */
import { DOMParser, type Document, type Element, XMLSerializer } from '@xmldom/xmldom';

export const DS = 'http://www.w3.org/2000/09/xmldsig#';
export const SAML = 'urn:oasis:names:tc:SAML:2.0:assertion';
export const SAMLP = 'urn:oasis:names:tc:SAML:2.0:protocol';
export const EVIL = 'mallory@evil.test';

export const parse = (xml: string) => new DOMParser().parseFromString(xml, 'text/xml');
export const serialize = (doc: Document | Element) => new XMLSerializer().serializeToString(doc);

export function child(parent: Element, ns: string, name: string): Element {
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).localName === name && (n as Element).namespaceURI === ns)
      return n as Element;
  }
  throw new Error(`no ${name} in ${parent.nodeName}`);
}

export const root = (doc: Document) => doc.documentElement as Element;
export const assertionOf = (doc: Document) => child(root(doc), SAML, 'Assertion');

/** Deep clone with the NameID rewritten to the attacker's, new ID, and (optionally) no Signature. */
export function evilClone(el: Element, opts: { id: string; keepSignature: boolean }): Element {
  const clone = el.cloneNode(true) as Element;
  clone.setAttribute('ID', opts.id);
  if (!opts.keepSignature) removeSignature(clone);
  const nameIds = clone.getElementsByTagNameNS(SAML, 'NameID');
  for (let i = 0; i < nameIds.length; i++) {
    const n = nameIds.item(i);
    if (n) n.textContent = EVIL;
  }
  return clone;
}

export function removeSignature(el: Element): Element {
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).localName === 'Signature' && (n as Element).namespaceURI === DS) {
      el.removeChild(n);
      break;
    }
  }
  return el;
}

export function withoutSignature(el: Element): Element {
  return removeSignature(el.cloneNode(true) as Element);
}

/** ds:Object in the given Signature, holding `content`. */
export function objectWith(doc: Document, signature: Element, content: Element) {
  const obj = doc.createElementNS(DS, 'ds:Object');
  obj.appendChild(content);
  signature.appendChild(obj);
}
