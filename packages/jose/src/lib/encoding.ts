/** Byte helpers. base64url decoding is strict: Buffer's decoder silently skips junk, we must not. */
const B64URL = /^[A-Za-z0-9_-]*$/;

export const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

const decoder = new TextDecoder('utf-8', { fatal: true });
/** Strict UTF-8 decoding: invalid sequences throw instead of becoming U+FFFD. */
export const fromUtf8 = (b: Uint8Array): string => decoder.decode(b);

export function b64u(bytes: Uint8Array | string): string {
  return Buffer.from(typeof bytes === 'string' ? utf8(bytes) : bytes).toString('base64url');
}

/** Returns undefined for anything that is not canonical unpadded base64url. */
export function b64uDecode(s: string): Uint8Array | undefined {
  if (typeof s !== 'string' || !B64URL.test(s) || s.length % 4 === 1) return undefined;
  const out = new Uint8Array(Buffer.from(s, 'base64url'));
  // Reject non-canonical trailing bits (two strings must not decode to the same bytes).
  return Buffer.from(out).toString('base64url') === s ? out : undefined;
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

export const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
export const fromHex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= (a[i] as number) ^ (b[i] as number);
  return d === 0;
}

export const isBytes = (x: unknown): x is Uint8Array => x instanceof Uint8Array;
