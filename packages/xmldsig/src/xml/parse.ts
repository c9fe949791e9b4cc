/**
 * The only way XML enters the verifier. SAML has no use for a DTD, so any DOCTYPE or ENTITY is
 * refused before parsing (entity expansion, external entities, and DTD-declared ID attributes
 * that would change what `#id` dereferences to). Parse warnings are errors: a document that
 * needed repairs is not one we sign or trust.
 */
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import { XmlInvalid } from '../errors.ts';

/** Generous for ML-DSA-87 responses and metadata with many keys (a few tens of KB). */
export const DEFAULT_MAX_XML_BYTES = 1024 * 1024;

export function parseXml(xml: string, maxBytes = DEFAULT_MAX_XML_BYTES): Document {
  if (typeof xml !== 'string') throw new XmlInvalid('XML must be a string');
  if (Buffer.byteLength(xml, 'utf8') > maxBytes) throw new XmlInvalid(`XML larger than ${maxBytes} bytes`);
  if (/<!DOCTYPE/i.test(xml))
    throw new XmlInvalid('XML with a DOCTYPE is not accepted (no DTDs, no entities)');
  if (/<!ENTITY/i.test(xml)) throw new XmlInvalid('XML entity declarations are not accepted');
  let doc: Document;
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        throw new Error(`${level}: ${message}`);
      },
    }).parseFromString(xml, 'text/xml');
  } catch (cause) {
    throw new XmlInvalid(`XML does not parse: ${(cause as Error).message.split('\n')[0]}`, { cause });
  }
  if (!doc.documentElement) throw new XmlInvalid('XML has no root element');
  if (doc.doctype) throw new XmlInvalid('XML with a DOCTYPE is not accepted');
  return doc;
}

/** Direct element children of `parent` with the given namespace and local name. */
export function childElements(parent: Element, ns: string, localName: string): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).localName === localName && (n as Element).namespaceURI === ns)
      out.push(n as Element);
  }
  return out;
}

/** Every element of the document whose ID, Id or id attribute equals `id` (the attributes xml-crypto dereferences). */
export function elementsWithId(doc: Document, id: string): Element[] {
  const out: Element[] = [];
  const all = doc.getElementsByTagName('*');
  for (let i = 0; i < all.length; i++) {
    const el = all.item(i);
    if (!el) continue;
    for (let a = 0; a < el.attributes.length; a++) {
      const attr = el.attributes.item(a);
      if (
        attr &&
        (attr.localName === 'ID' || attr.localName === 'Id' || attr.localName === 'id') &&
        attr.value === id
      ) {
        out.push(el);
        break;
      }
    }
  }
  return out;
}

export function idOf(el: Element): string | undefined {
  return el.getAttribute('ID') || el.getAttribute('Id') || el.getAttribute('id') || undefined;
}
