/** PEM ↔ DER for certificates, strict enough that a KeyInfo value cannot smuggle anything else. */
import { CertificateInvalid } from '../errors.ts';

const STRICT_B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Decodes standard base64 (RFC 4648 §4, exact padding); undefined when it is anything else.
 * XML whitespace (space, tab, CR, LF: XML 1.0 §2.3 S) may appear anywhere, because XML-DSig
 * values and certificates are base64Binary and real signers wrap them in MIME-style lines. Only
 * that whitespace: JavaScript's \s would also drop NBSP, U+2028, the BOM, vertical tab and form
 * feed, none of which a base64Binary value can contain.
 */
export function strictBase64(text: string): Uint8Array | undefined {
  const compact = text.replace(/[ \t\r\n]+/g, '');
  if (!compact || !STRICT_B64.test(compact)) return undefined;
  return new Uint8Array(Buffer.from(compact, 'base64'));
}

/** DER bytes of a certificate given as PEM, bare base64 (KeyInfo/metadata form), or DER. */
export function certificateDer(input: string | Uint8Array): Uint8Array {
  if (typeof input !== 'string') return new Uint8Array(input);
  const m = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/.exec(input);
  const der = strictBase64(m ? (m[1] ?? '') : input);
  if (!der) throw new CertificateInvalid('certificate is not PEM or base64 DER');
  return der;
}

export function derToPem(der: Uint8Array, label = 'CERTIFICATE'): string {
  const b64 = Buffer.from(der).toString('base64');
  return `-----BEGIN ${label}-----\n${b64.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END ${label}-----\n`;
}

/** The single-line base64 that goes into ds:X509Certificate and md:KeyDescriptor. */
export function certificateBase64(input: string | Uint8Array): string {
  return Buffer.from(certificateDer(input)).toString('base64');
}
