/** Shared JWS plumbing: header encoding, strict parsing of protected headers, the size gate. */

import { isRegistered } from '../algorithms/registry.ts';
import type { SigningInput } from '../algorithms/types.ts';
import { AlgorithmNotAllowed, InvalidArgument, JwsInvalid, TokenTooLarge } from '../errors.ts';
import { b64u, b64uDecode, fromUtf8, utf8 } from '../lib/encoding.ts';

/** Tokens above this are rejected before any parsing (overridable per call). */
export const DEFAULT_MAX_TOKEN_BYTES = 64 * 1024;

export type JoseHeader = { alg: string; kid?: string; typ?: string; [k: string]: unknown };

export function checkSize(token: string, max = DEFAULT_MAX_TOKEN_BYTES): void {
  if (Buffer.byteLength(token, 'utf8') > max) throw new TokenTooLarge(`token larger than ${max} bytes`);
}

export function signingInput(header: Record<string, unknown>, payload: Uint8Array): SigningInput {
  const protectedB64 = b64u(JSON.stringify(header));
  const payloadB64 = b64u(payload);
  return { header, protectedB64, payload, payloadB64, bytes: utf8(`${protectedB64}.${payloadB64}`) };
}

/** Reuses an already-encoded input when verifying, so the bytes checked are the bytes received. */
export function receivedInput(protectedB64: string, header: JoseHeader, payloadB64: string): SigningInput {
  const payload = b64uDecode(payloadB64);
  if (!payload) throw new JwsInvalid('payload is not base64url');
  return { header, protectedB64, payload, payloadB64, bytes: utf8(`${protectedB64}.${payloadB64}`) };
}

export function parseJson(b64: string, what: string): Record<string, unknown> {
  const bytes = b64uDecode(b64);
  if (!bytes) throw new JwsInvalid(`${what} is not base64url`);
  let v: unknown;
  try {
    v = JSON.parse(fromUtf8(bytes));
  } catch {
    throw new JwsInvalid(`${what} is not UTF-8 JSON`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new JwsInvalid(`${what} is not a JSON object`);
  return v as Record<string, unknown>;
}

/** Parses a protected header and applies the checks every verifier must make before any crypto. */
export function parseProtectedHeader(b64: string, algorithms: readonly string[]): JoseHeader {
  const h = parseJson(b64, 'protected header');
  if (typeof h.alg !== 'string') throw new JwsInvalid('protected header has no "alg"');
  if (!algorithms.includes(h.alg))
    throw new AlgorithmNotAllowed(`algorithm ${JSON.stringify(h.alg)} is not allowed`);
  // We understand no critical extensions (and so no RFC 7797 unencoded payloads): refuse them.
  if ('crit' in h) throw new JwsInvalid('"crit" header parameters are not supported');
  if ('b64' in h) throw new JwsInvalid('"b64" (RFC 7797) is not supported');
  if ('kid' in h && typeof h.kid !== 'string') throw new JwsInvalid('"kid" must be a string');
  return h as JoseHeader;
}

/** `algorithms` is mandatory: a verifier that accepts whatever the token says is the classic JWT bug. */
export function checkAlgorithms(algorithms: unknown): readonly string[] {
  if (!Array.isArray(algorithms) || algorithms.length === 0) {
    throw new InvalidArgument('options.algorithms must be a non-empty array of allowed algorithms');
  }
  for (const a of algorithms) {
    if (a === 'none' || !isRegistered(a))
      throw new InvalidArgument(`cannot allow algorithm ${JSON.stringify(a)}`);
  }
  return algorithms as string[];
}
