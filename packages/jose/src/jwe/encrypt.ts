/**
 * JWE encryption, compact and flattened JSON (RFC 7516 §5.1 as replaced by
 * draft-ietf-jose-hpke-encrypt-20 §7.1).
 *
 * HPKE Integrated Encryption (HPKE-n): HPKE seals the plaintext with aad = the JWE AAD
 * (ASCII(BASE64URL(protected header)) [|| '.' || BASE64URL(aad)]) and empty info; the JWE
 * Encrypted Key is the encapsulated secret; IV and tag are empty; there is no `enc`.
 * HPKE Key Encryption (HPKE-n-KE): HPKE seals a random CEK with empty aad and
 * info = Recipient_structure (§6.1); `ek` carries the encapsulated secret; `enc` encrypts.
 * Classical algorithms: jose.
 */
import { randomBytes } from 'node:crypto';
import * as jose from 'jose';
import { InvalidArgument, KeyMismatch } from '../errors.ts';
import { cipherSuite, type HpkeBackend, resolveHpkeBackend } from '../hpke/suite.ts';
import { b64u, concat, utf8 } from '../lib/encoding.ts';
import { lookupContentEncryption, sealContent } from './content.ts';
import { DecryptionKey, EncryptionKey, hpkePublicKey, joseKey } from './handles.ts';
import type { FlattenedJwe } from './parse.ts';
import type { JweAlgorithmEntry } from './types.ts';

export interface EncryptOptions {
  /**
   * Content encryption (`enc`): required for every `alg` except HPKE Integrated Encryption
   * (HPKE-0 … HPKE-13 without `-KE`), which has none.
   */
  enc?: string;
  /** Extra protected header parameters, e.g. `typ`, `cty` (`alg`, `enc`, `kid`, `ek` are set here). */
  header?: Record<string, unknown>;
  /** Leave `kid` out of the header (default: the key's kid). */
  omitKid?: boolean;
  backend?: HpkeBackend;
}

export interface FlattenedEncryptOptions extends EncryptOptions {
  /** JWE AAD: authenticated, not encrypted, sent as `aad` (JSON serialization only). */
  aad?: Uint8Array | string;
}

/** Header members the caller may not set: they are computed, or refused on decryption. */
const RESERVED = ['alg', 'enc', 'kid', 'ek', 'epk', 'crit', 'zip', 'psk_id', 'iv', 'tag', 'p2s', 'p2c'];

/** "JOSE-HPKE rcpt" || 0xFF || enc || 0xFF || recipient_extra_info (empty): the KE `info`. */
export function recipientStructure(enc: string): Uint8Array {
  return concat(utf8('JOSE-HPKE rcpt'), Uint8Array.of(0xff), utf8(enc), Uint8Array.of(0xff));
}

/** ASCII(Encoded Protected Header) [|| '.' || BASE64URL(JWE AAD)] (RFC 7516 §5.1 step 14). */
export const jweAad = (protectedB64: string, aadB64?: string): Uint8Array =>
  utf8(aadB64 === undefined ? protectedB64 : `${protectedB64}.${aadB64}`);

function recipientOf(key: unknown): EncryptionKey {
  if (key instanceof DecryptionKey) return key.publicKey;
  if (key instanceof EncryptionKey) return key;
  throw new InvalidArgument('encryption needs an EncryptionKey (importEncryptionKey of the recipient JWK)');
}

function headerFor(
  entry: JweAlgorithmEntry,
  key: EncryptionKey,
  opts: EncryptOptions,
): Record<string, unknown> {
  const extra = opts.header ?? {};
  if (typeof extra !== 'object' || extra === null || Array.isArray(extra))
    throw new InvalidArgument('options.header must be an object');
  for (const k of RESERVED) if (k in extra) throw new InvalidArgument(`options.header cannot set "${k}"`);
  if (entry.mode === 'integrated') {
    if (opts.enc !== undefined)
      throw new InvalidArgument(
        `${entry.alg} is HPKE Integrated Encryption and has no "enc"; use ${entry.alg}-KE`,
      );
  } else {
    if (opts.enc === undefined) throw new InvalidArgument(`${entry.alg} needs options.enc, e.g. "A256GCM"`);
    lookupContentEncryption(opts.enc);
  }
  return {
    alg: entry.alg,
    ...(opts.enc !== undefined ? { enc: opts.enc } : {}),
    ...(opts.omitKid ? {} : { kid: key.kid }),
    ...extra,
  };
}

interface Encrypted {
  protectedB64: string;
  encryptedKey: Uint8Array;
  iv: Uint8Array;
  ciphertext: Uint8Array;
  tag: Uint8Array;
  aadB64?: string;
}

async function encryptHpke(
  key: EncryptionKey,
  header: Record<string, unknown>,
  plaintext: Uint8Array,
  aadB64: string | undefined,
  backend: HpkeBackend,
): Promise<Encrypted> {
  const entry = key.entry;
  const suite = cipherSuite(entry.hpke as NonNullable<JweAlgorithmEntry['hpke']>, backend);
  const pk = await hpkePublicKey(key, backend);
  const empty = new Uint8Array(0);
  if (entry.mode === 'integrated') {
    const protectedB64 = b64u(JSON.stringify(header));
    const { encapsulatedSecret, ciphertext } = await suite.Seal(pk, plaintext, {
      aad: jweAad(protectedB64, aadB64),
    });
    return { protectedB64, encryptedKey: encapsulatedSecret, iv: empty, ciphertext, tag: empty, aadB64 };
  }
  const content = lookupContentEncryption(header.enc);
  const cek = new Uint8Array(randomBytes(content.keyBytes));
  try {
    const { encapsulatedSecret, ciphertext: encryptedKey } = await suite.Seal(pk, cek, {
      info: recipientStructure(content.enc),
    });
    const protectedB64 = b64u(JSON.stringify({ ...header, ek: b64u(encapsulatedSecret) }));
    const sealed = sealContent(content, cek, plaintext, jweAad(protectedB64, aadB64));
    return { protectedB64, encryptedKey, ...sealed, aadB64 };
  } finally {
    cek.fill(0);
  }
}

async function encryptClassical(
  key: EncryptionKey,
  header: Record<string, unknown>,
  plaintext: Uint8Array,
  aad: Uint8Array | undefined,
): Promise<Encrypted> {
  const enc = new jose.FlattenedEncrypt(plaintext).setProtectedHeader(header as jose.JWEHeaderParameters);
  if (aad) enc.setAdditionalAuthenticatedData(aad);
  const out = await enc.encrypt(joseKey(key));
  const dec = (s: string | undefined) =>
    s ? new Uint8Array(Buffer.from(s, 'base64url')) : new Uint8Array(0);
  return {
    protectedB64: out.protected as string,
    encryptedKey: dec(out.encrypted_key),
    iv: dec(out.iv),
    ciphertext: dec(out.ciphertext),
    tag: dec(out.tag),
    ...(out.aad !== undefined ? { aadB64: out.aad } : {}),
  };
}

async function encryptParts(
  plaintext: Uint8Array | string,
  key: EncryptionKey | DecryptionKey,
  opts: FlattenedEncryptOptions,
): Promise<Encrypted> {
  const recipient = recipientOf(key);
  const entry = recipient.entry;
  if (opts.header && 'alg' in opts.header && opts.header.alg !== entry.alg)
    throw new KeyMismatch(`the key is for ${entry.alg}, not ${String(opts.header.alg)}`);
  const { alg: _ignored, ...rest } = opts.header ?? {};
  const header = headerFor(entry, recipient, { ...opts, header: rest });
  const pt = typeof plaintext === 'string' ? utf8(plaintext) : plaintext;
  if (!(pt instanceof Uint8Array)) throw new InvalidArgument('plaintext must be a string or a Uint8Array');
  const aad = typeof opts.aad === 'string' ? utf8(opts.aad) : opts.aad;
  if (entry.family === 'classical') return encryptClassical(recipient, header, pt, aad);
  return encryptHpke(recipient, header, pt, aad ? b64u(aad) : undefined, resolveHpkeBackend(opts.backend));
}

/** A compact JWE of `plaintext` to the recipient key (its `alg`; `enc` from the options). */
export async function encryptCompact(
  plaintext: Uint8Array | string,
  key: EncryptionKey | DecryptionKey,
  opts: EncryptOptions = {},
): Promise<string> {
  if ('aad' in opts) throw new InvalidArgument('the compact serialization has no AAD; use encryptFlattened');
  const e = await encryptParts(plaintext, key, opts);
  return [e.protectedB64, b64u(e.encryptedKey), b64u(e.iv), b64u(e.ciphertext), b64u(e.tag)].join('.');
}

/** A flattened JSON JWE; empty members (IV and tag in Integrated Encryption) are left out. */
export async function encryptFlattened(
  plaintext: Uint8Array | string,
  key: EncryptionKey | DecryptionKey,
  opts: FlattenedEncryptOptions = {},
): Promise<FlattenedJwe> {
  const e = await encryptParts(plaintext, key, opts);
  return {
    protected: e.protectedB64,
    ...(e.aadB64 !== undefined ? { aad: e.aadB64 } : {}),
    ...(e.encryptedKey.length ? { encrypted_key: b64u(e.encryptedKey) } : {}),
    ...(e.iv.length ? { iv: b64u(e.iv) } : {}),
    ciphertext: b64u(e.ciphertext),
    ...(e.tag.length ? { tag: b64u(e.tag) } : {}),
  };
}
