/**
 * SAML bindings (saml-bindings §3.4, §3.5): decoding HTTP-Redirect (base64 + DEFLATE, with the
 * inflated size capped so a small request cannot expand into a large one) and HTTP-POST (base64)
 * messages, checking the query-string signature of the Redirect binding, and delivering our
 * messages as an auto-submitting HTTP-POST form.
 */
import { inflateRawSync } from 'node:zlib';
import { algForUri, algorithmFor, isSignatureUri } from '@pqid/xmldsig';
import type { FastifyReply } from 'fastify';
import { IdpError } from '../errors/index.ts';
import { sendPage } from '../ui/html.ts';
import { AUTO_SUBMIT, formPostPage } from '../ui/pages.ts';

/** A request we refuse with a 400 page (never a redirect: the destination is not trusted yet). */
export class SamlRequestError extends IdpError<string> {
  constructor(message: string, code = 'invalid_request', status = 400) {
    super(code, message, { status, expose: true });
  }
}

const STRICT_B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function base64(value: string, maxBytes: number): Buffer {
  const compact = value.replace(/[\r\n\t ]+/g, '');
  // base64 grows by 4/3; refuse before decoding anything larger than the cap allows.
  if (compact.length > Math.ceil((maxBytes * 4) / 3) + 4)
    throw new SamlRequestError('The SAML message is too large.');
  if (!compact || !STRICT_B64.test(compact))
    throw new SamlRequestError('The SAML message is not valid base64.');
  return Buffer.from(compact, 'base64');
}

/** HTTP-Redirect: base64 of raw DEFLATE. */
export function decodeRedirect(value: string, maxBytes: number): string {
  const raw = base64(value, maxBytes);
  let xml: Buffer;
  try {
    xml = inflateRawSync(raw, { maxOutputLength: maxBytes });
  } catch (e) {
    const tooBig = (e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || /larger than/i.test(String(e));
    throw new SamlRequestError(
      tooBig
        ? 'The SAML message is too large once decompressed.'
        : 'The SAML message is not valid DEFLATE data.',
    );
  }
  return utf8(xml);
}

/** HTTP-POST: plain base64. */
export function decodePost(value: string, maxBytes: number): string {
  const xml = base64(value, maxBytes);
  if (xml.length > maxBytes) throw new SamlRequestError('The SAML message is too large.');
  return utf8(xml);
}

function utf8(b: Buffer): string {
  const s = new TextDecoder('utf-8', { fatal: false }).decode(b);
  if (s.includes('\uFFFD')) throw new SamlRequestError('The SAML message is not UTF-8 text.');
  return s;
}

/**
 * A Redirect-binding query may hold the message, RelayState, SigAlg and Signature, each once and
 * under its plain name (saml-bindings §3.4.4.1), and nothing else. The signature covers the
 * message, RelayState and SigAlg only, so any other parameter — a second SAML message, say a
 * `SAMLResponse` beside the `SAMLRequest`, or a percent-encoded spelling of a name that a query
 * parser would decode — would ride along unsigned on a signed message, and whichever layer read it
 * would act on something the SP never signed. Refused rather than ignored, signed or not: the
 * endpoint URLs in this IdP's metadata carry no query of their own for an SP to keep.
 */
export function checkRedirectQuery(rawQuery: string, message: 'SAMLRequest' | 'SAMLResponse'): void {
  const allowed = new Set([message, 'RelayState', 'SigAlg', 'Signature']);
  const seen = new Set<string>();
  for (const p of rawQuery.split('&')) {
    if (p === '') continue;
    const name = p.split('=', 1)[0] ?? '';
    if (!allowed.has(name))
      throw new SamlRequestError(
        `The query carries a parameter the Redirect binding does not define here: ${JSON.stringify(name.slice(0, 40))}.`,
        'unexpected_parameter',
      );
    if (seen.has(name)) throw new SamlRequestError(`The parameter ${name} occurs more than once.`);
    seen.add(name);
  }
}

/**
 * The octets the Redirect binding signs: `SAMLRequest=…&RelayState=…&SigAlg=…` exactly as they
 * appear, URL-encoded, in the query we received (saml-bindings §3.4.4.1) — re-encoding would
 * break signatures from SPs that encode differently.
 */
export function redirectSignedOctets(rawQuery: string, message: 'SAMLRequest' | 'SAMLResponse'): string {
  const parts = new Map<string, string>();
  for (const p of rawQuery.split('&')) {
    const name = p.split('=', 1)[0] ?? '';
    if (parts.has(name)) throw new SamlRequestError(`The parameter ${name} occurs more than once.`);
    parts.set(name, p);
  }
  return [parts.get(message), parts.get('RelayState'), parts.get('SigAlg')].filter(Boolean).join('&');
}

/** Checks a Redirect-binding signature with the SP's registered certificate. */
export function verifyRedirectSignature(
  rawQuery: string,
  message: 'SAMLRequest' | 'SAMLResponse',
  query: { SigAlg?: string | undefined; Signature?: string | undefined },
  certificate: string,
): void {
  if (!query.SigAlg || !query.Signature)
    throw new SamlRequestError('This service provider must sign its requests.', 'signature_required');
  if (!isSignatureUri(query.SigAlg))
    throw new SamlRequestError('The request signature algorithm is not supported.', 'signature_invalid');
  const Algo = algorithmFor(algForUri(query.SigAlg));
  const ok = new Algo().verifySignature(
    redirectSignedOctets(rawQuery, message),
    certificate as never,
    query.Signature,
  );
  if (!ok) throw new SamlRequestError('The request signature does not verify.', 'signature_invalid');
}

/** The auto-submitting form (script allowed by hash only; a noscript button otherwise). */
export function sendPostForm(
  reply: FastifyReply,
  action: string,
  fields: Record<string, string | undefined>,
) {
  return sendPage(reply, 200, formPostPage(action, fields), [new URL(action).origin], [AUTO_SUBMIT.hash]);
}
