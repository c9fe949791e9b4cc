/**
 * Small XML helpers for the messages we build and read. Building is by string templates with
 * every value escaped (the documents are fixed shapes); reading goes through @pqid/xmldsig's
 * parseXml, which refuses DOCTYPE/entities and size beyond the cap.
 */
import { randomBytes } from 'node:crypto';
import type { parseXml } from '@pqid/xmldsig';

export type XmlDocument = ReturnType<typeof parseXml>;
export type XmlElement = NonNullable<XmlDocument['documentElement']>;

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ESC[c] as string);

/** xs:ID values must not start with a digit; 160 random bits. */
export const samlId = (): string => `_${randomBytes(20).toString('hex')}`;

/** xs:dateTime in UTC without milliseconds, as most SAML stacks emit and accept. */
export const instant = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function children(parent: XmlElement, ns: string, localName: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (
      n.nodeType === 1 &&
      (n as XmlElement).localName === localName &&
      (n as XmlElement).namespaceURI === ns
    )
      out.push(n as XmlElement);
  }
  return out;
}

export const child = (parent: XmlElement, ns: string, localName: string): XmlElement | undefined =>
  children(parent, ns, localName)[0];

export const text = (el: XmlElement | undefined): string | undefined =>
  el ? (el.textContent ?? '').trim() : undefined;

export const attr = (el: XmlElement, name: string): string | undefined =>
  el.hasAttribute(name) ? (el.getAttribute(name) ?? undefined) : undefined;

/** xs:dateTime → epoch ms; NaN-safe. */
export function parseInstant(value: string | undefined): number | undefined {
  if (!value || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value))
    return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}
