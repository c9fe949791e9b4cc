/**
 * Parsing a received JWE (compact or flattened JSON, RFC 7516 §7) and the header checks every
 * decryption makes before any key is touched: the `alg`/`enc` allow-lists, the rules of the
 * key management mode (draft-ietf-jose-hpke-encrypt-20 §5–6), and a closed set of header members.
 */

import { AlgorithmNotAllowed, InvalidArgument, JweInvalid, TokenTooLarge } from '../errors.ts';
import { DEFAULT_MAX_TOKEN_BYTES } from '../jws/parse.ts';
import { b64uDecode, fromUtf8 } from '../lib/encoding.ts';
import { isJweAlgorithm, lookupJweAlgorithm } from './algorithms.ts';
import { isContentEncryption, lookupContentEncryption } from './content.ts';
import type { ContentEncryptionEntry, JweAlgorithmEntry } from './types.ts';

export type JweHeader = { alg: string; enc?: string; kid?: string; ek?: string; [k: string]: unknown };

/** A JWE in the flattened JSON serialization (RFC 7516 §7.2.2). */
export interface FlattenedJwe {
  protected: string;
  encrypted_key?: string;
  iv?: string;
  ciphertext: string;
  tag?: string;
  aad?: string;
  unprotected?: Record<string, unknown>;
  header?: Record<string, unknown>;
}

/** The decoded parts of a received JWE; `protectedB64` is kept as received for the AAD. */
export interface JweParts {
  serialization: 'compact' | 'flattened';
  protectedB64: string;
  protectedHeader: Record<string, unknown>;
  /** The JOSE Header: protected ∪ shared unprotected ∪ per-recipient (no duplicates). */
  header: JweHeader;
  encryptedKey: Uint8Array;
  iv: Uint8Array;
  ciphertext: Uint8Array;
  tag: Uint8Array;
  aadB64?: string;
}

/**
 * Header members a JWE may carry here. Anything else is refused: `jwk`/`jku`/`x5u`/`x5c` would
 * let a message name its own key, `crit` extensions we do not implement, `zip` compresses
 * secrets before encryption (RFC 8725 §3.6), `psk_id` asks for HPKE PSK mode, which this
 * package does not implement.
 */
const ALLOWED = new Set(['alg', 'enc', 'kid', 'typ', 'cty', 'ek', 'epk', 'apu', 'apv', 'x5t', 'x5t#S256']);
/** Members that change how a JWE is processed: only trusted inside the integrity-protected header. */
const PROTECTED_ONLY = ['alg', 'enc'];

function decode(s: unknown, what: string): Uint8Array {
  const out = typeof s === 'string' ? b64uDecode(s) : undefined;
  if (!out) throw new JweInvalid(`${what} is not base64url`);
  return out;
}

function jsonObject(text: string, what: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new JweInvalid(`${what} is not JSON`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new JweInvalid(`${what} is not a JSON object`);
  return v as Record<string, unknown>;
}

function protectedHeaderOf(b64: string): Record<string, unknown> {
  const bytes = decode(b64, 'protected header');
  let text: string;
  try {
    text = fromUtf8(bytes);
  } catch {
    throw new JweInvalid('protected header is not UTF-8');
  }
  return jsonObject(text, 'protected header');
}

function checkSize(bytes: number, max = DEFAULT_MAX_TOKEN_BYTES): void {
  if (bytes > max) throw new TokenTooLarge(`JWE larger than ${max} bytes`);
}

export function parseCompact(jwe: unknown, maxBytes?: number): JweParts {
  if (typeof jwe !== 'string') throw new JweInvalid('a compact JWE must be a string');
  checkSize(Buffer.byteLength(jwe), maxBytes);
  if (jwe.startsWith('{')) throw new JweInvalid('this is a JWE JSON serialization; use decryptFlattened');
  const parts = jwe.split('.');
  if (parts.length !== 5)
    throw new JweInvalid(
      `a compact JWE has exactly five segments, got ${parts.length}${parts.length === 3 ? ' (a JWS?)' : ''}`,
    );
  const [h, k, iv, ct, tag] = parts as [string, string, string, string, string];
  const protectedHeader = protectedHeaderOf(h);
  return {
    serialization: 'compact',
    protectedB64: h,
    protectedHeader,
    header: protectedHeader as JweHeader,
    encryptedKey: decode(k, 'encrypted key'),
    iv: decode(iv, 'initialization vector'),
    ciphertext: decode(ct, 'ciphertext'),
    tag: decode(tag, 'authentication tag'),
  };
}

function optionalObject(v: unknown, what: string): Record<string, unknown> | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new JweInvalid(`"${what}" must be an object`);
  return v as Record<string, unknown>;
}

/** A flattened JWE, or a general one with exactly one recipient, as an object or JSON text. */
export function parseFlattened(input: unknown, maxBytes?: number): JweParts {
  let jwe: Record<string, unknown>;
  if (typeof input === 'string') {
    checkSize(Buffer.byteLength(input), maxBytes);
    if (!input.trimStart().startsWith('{'))
      throw new JweInvalid('this is not a JWE JSON serialization (a compact JWE? use decryptCompact)');
    jwe = jsonObject(input, 'JWE');
  } else if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    jwe = input as Record<string, unknown>;
    checkSize(Buffer.byteLength(JSON.stringify(jwe)), maxBytes);
  } else {
    throw new JweInvalid('a JWE JSON serialization must be an object or JSON text');
  }
  let recipient: Record<string, unknown> = jwe;
  if ('recipients' in jwe) {
    const r = jwe.recipients;
    if (!Array.isArray(r) || r.length === 0) throw new JweInvalid('"recipients" must be a non-empty array');
    if (r.length > 1) throw new JweInvalid('JWEs with more than one recipient are not supported');
    if ('encrypted_key' in jwe || 'header' in jwe)
      throw new JweInvalid('a general JWE carries "encrypted_key" and "header" inside "recipients"');
    recipient = optionalObject(r[0], 'recipients[0]') as Record<string, unknown>;
  }
  if (typeof jwe.protected !== 'string' || jwe.protected === '')
    throw new JweInvalid('a JWE here must have a "protected" header');
  const protectedHeader = protectedHeaderOf(jwe.protected);
  const shared = optionalObject(jwe.unprotected, 'unprotected');
  const perRecipient = optionalObject(recipient.header, 'header');
  const header: Record<string, unknown> = { ...protectedHeader };
  for (const part of [shared, perRecipient]) {
    for (const [k, v] of Object.entries(part ?? {})) {
      if (k in header) throw new JweInvalid(`header parameter "${k}" occurs more than once`);
      if (PROTECTED_ONLY.includes(k)) throw new JweInvalid(`"${k}" must be in the protected header`);
      header[k] = v;
    }
  }
  const optional = (v: unknown, what: string) => (v === undefined ? new Uint8Array(0) : decode(v, what));
  if (jwe.aad !== undefined) decode(jwe.aad, 'aad');
  return {
    serialization: 'flattened',
    protectedB64: jwe.protected,
    protectedHeader,
    header: header as JweHeader,
    encryptedKey: optional(recipient.encrypted_key, 'encrypted_key'),
    iv: optional(jwe.iv, 'iv'),
    ciphertext: decode(jwe.ciphertext, 'ciphertext'),
    tag: optional(jwe.tag, 'tag'),
    ...(jwe.aad !== undefined ? { aadB64: jwe.aad as string } : {}),
  };
}

/** The allow-lists a decryption runs under; both are mandatory where they apply. */
export interface JweAllowList {
  keyManagementAlgorithms: readonly string[];
  contentEncryptionAlgorithms: readonly string[];
}

export function checkAllowList(opts: {
  keyManagementAlgorithms?: unknown;
  contentEncryptionAlgorithms?: unknown;
}): JweAllowList {
  const algs = opts?.keyManagementAlgorithms;
  if (!Array.isArray(algs) || algs.length === 0)
    throw new InvalidArgument(
      'options.keyManagementAlgorithms must be a non-empty array of allowed "alg" values',
    );
  for (const a of algs)
    if (!isJweAlgorithm(a)) throw new InvalidArgument(`cannot allow JWE alg ${JSON.stringify(a)}`);
  const encs = opts.contentEncryptionAlgorithms ?? [];
  if (!Array.isArray(encs)) throw new InvalidArgument('options.contentEncryptionAlgorithms must be an array');
  for (const e of encs)
    if (!isContentEncryption(e)) throw new InvalidArgument(`cannot allow JWE enc ${JSON.stringify(e)}`);
  if (encs.length === 0 && algs.some((a) => lookupJweAlgorithm(a).mode !== 'integrated'))
    throw new InvalidArgument(
      'options.contentEncryptionAlgorithms is required with algorithms that use "enc"',
    );
  return { keyManagementAlgorithms: algs, contentEncryptionAlgorithms: encs };
}

const str = (h: JweHeader, k: string) => {
  if (k in h && typeof h[k] !== 'string') throw new JweInvalid(`"${k}" must be a string`);
};

/**
 * Every check that needs no key: the allow-lists, then the mode's rules. Returns the registry
 * entries the header selects. A JWE never chooses its own algorithm: both must be allowed.
 */
export function checkHeader(
  parts: JweParts,
  allow: JweAllowList,
): { entry: JweAlgorithmEntry; content?: ContentEncryptionEntry } {
  const h = parts.header;
  if (typeof h.alg !== 'string') throw new JweInvalid('the JWE header has no "alg"');
  if (!allow.keyManagementAlgorithms.includes(h.alg))
    throw new AlgorithmNotAllowed(`JWE alg ${JSON.stringify(h.alg)} is not allowed`);
  if ('crit' in h) throw new JweInvalid('"crit" header parameters are not supported');
  if ('zip' in h) throw new JweInvalid('"zip" (compression before encryption) is not supported');
  if ('psk_id' in h) throw new JweInvalid('HPKE PSK mode ("psk_id") is not supported');
  for (const k of Object.keys(h))
    if (!ALLOWED.has(k)) throw new JweInvalid(`unexpected JWE header parameter "${k}"`);
  for (const k of ['enc', 'kid', 'typ', 'cty', 'ek', 'apu', 'apv']) str(h, k);
  const entry = lookupJweAlgorithm(h.alg);
  const ecdh = entry.alg.startsWith('ECDH-ES');
  if ('epk' in h && !ecdh) throw new JweInvalid(`"epk" does not belong in a ${entry.alg} JWE`);
  if (('apu' in h || 'apv' in h) && !ecdh)
    throw new JweInvalid(`"apu"/"apv" do not belong in a ${entry.alg} JWE`);
  const hpkeKe = entry.family === 'hpke' && entry.mode === 'key-encryption';
  if ('ek' in h && !hpkeKe) throw new JweInvalid(`"ek" does not belong in a ${entry.alg} JWE`);
  if (entry.mode === 'integrated') {
    if ('enc' in h)
      throw new JweInvalid(`${entry.alg} is Integrated Encryption: the header must not have "enc"`);
    if (parts.iv.length !== 0 || parts.tag.length !== 0)
      throw new JweInvalid(`${entry.alg} is Integrated Encryption: the IV and tag must be empty`);
    return { entry };
  }
  if (typeof h.enc !== 'string') throw new JweInvalid(`a ${entry.alg} JWE needs "enc"`);
  if (!allow.contentEncryptionAlgorithms.includes(h.enc))
    throw new AlgorithmNotAllowed(`JWE enc ${JSON.stringify(h.enc)} is not allowed`);
  const content = lookupContentEncryption(h.enc);
  if (hpkeKe) {
    if (typeof h.ek !== 'string') throw new JweInvalid(`a ${entry.alg} JWE needs "ek"`);
    if (parts.iv.length !== content.ivBytes)
      throw new JweInvalid(`${content.enc} needs a ${content.ivBytes}-byte IV`);
    if (parts.tag.length !== content.tagBytes)
      throw new JweInvalid(`${content.enc} needs a ${content.tagBytes}-byte tag`);
  }
  return { entry, content };
}

/** HPKE `ek` (Key Encryption) or JWE Encrypted Key (Integrated): exactly the KEM's Nenc bytes. */
export function encapsulatedSecret(parts: JweParts, entry: JweAlgorithmEntry): Uint8Array {
  const nenc = entry.sizes.encapsulatedSecret;
  const enc = entry.mode === 'integrated' ? parts.encryptedKey : decode(parts.header.ek, '"ek"');
  if (enc.length !== nenc)
    throw new JweInvalid(`the encapsulated secret of ${entry.alg} is ${nenc} bytes, got ${enc.length}`);
  return enc;
}
