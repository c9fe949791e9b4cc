/**
 * Content encryption (`enc`, RFC 7518 §5) for HPKE Key Encryption: AES-GCM and
 * AES-CBC + HMAC-SHA2. Classical `alg`s leave content encryption to jose.
 */
import {
  type CipherGCMTypes,
  createCipheriv,
  createDecipheriv,
  createHmac,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { UnsupportedAlgorithm } from '../errors.ts';
import { concat } from '../lib/encoding.ts';
import type { ContentEncryptionEntry } from './types.ts';

const ENTRIES: readonly ContentEncryptionEntry[] = Object.freeze([
  { enc: 'A128GCM', keyBytes: 16, ivBytes: 12, tagBytes: 16 },
  { enc: 'A192GCM', keyBytes: 24, ivBytes: 12, tagBytes: 16 },
  { enc: 'A256GCM', keyBytes: 32, ivBytes: 12, tagBytes: 16 },
  { enc: 'A128CBC-HS256', keyBytes: 32, ivBytes: 16, tagBytes: 16 },
  { enc: 'A192CBC-HS384', keyBytes: 48, ivBytes: 16, tagBytes: 24 },
  { enc: 'A256CBC-HS512', keyBytes: 64, ivBytes: 16, tagBytes: 32 },
]);
const BY_ENC = new Map(ENTRIES.map((e) => [e.enc, e]));

export const contentEncryptionRegistry = (): readonly ContentEncryptionEntry[] => ENTRIES;
export const isContentEncryption = (enc: unknown): enc is string =>
  typeof enc === 'string' && BY_ENC.has(enc);

export function lookupContentEncryption(enc: unknown): ContentEncryptionEntry {
  const e = typeof enc === 'string' ? BY_ENC.get(enc) : undefined;
  if (!e) throw new UnsupportedAlgorithm(`unsupported JWE content encryption: ${JSON.stringify(enc)}`);
  return e;
}

export interface Sealed {
  iv: Uint8Array;
  ciphertext: Uint8Array;
  tag: Uint8Array;
}

const isGcm = (e: ContentEncryptionEntry) => e.enc.endsWith('GCM');
const gcmName = (e: ContentEncryptionEntry) => `aes-${e.keyBytes * 8}-gcm` as CipherGCMTypes;
const cbcName = (e: ContentEncryptionEntry) => `aes-${(e.keyBytes / 2) * 8}-cbc`;
const hmacName = (e: ContentEncryptionEntry) => `sha${e.tagBytes * 16}`;

/** RFC 7518 §5.2.2.1: the tag is the first T_LEN bytes of HMAC(MAC_KEY, A || IV || E || AL). */
function cbcTag(
  e: ContentEncryptionEntry,
  macKey: Uint8Array,
  aad: Uint8Array,
  iv: Uint8Array,
  ct: Uint8Array,
) {
  const al = Buffer.alloc(8);
  al.writeBigUInt64BE(BigInt(aad.length) * 8n);
  const mac = createHmac(hmacName(e), macKey).update(aad).update(iv).update(ct).update(al).digest();
  return new Uint8Array(mac.subarray(0, e.tagBytes));
}

export function sealContent(
  e: ContentEncryptionEntry,
  cek: Uint8Array,
  plaintext: Uint8Array,
  aad: Uint8Array,
): Sealed {
  const iv = new Uint8Array(randomBytes(e.ivBytes));
  if (isGcm(e)) {
    const c = createCipheriv(gcmName(e), cek, iv, { authTagLength: 16 });
    c.setAAD(aad);
    const ciphertext = concat(c.update(plaintext), c.final());
    return { iv, ciphertext, tag: new Uint8Array(c.getAuthTag()) };
  }
  const half = e.keyBytes / 2;
  const c = createCipheriv(cbcName(e), cek.subarray(half), iv);
  const ciphertext = concat(c.update(plaintext), c.final());
  return { iv, ciphertext, tag: cbcTag(e, cek.subarray(0, half), aad, iv, ciphertext) };
}

/**
 * Decrypts, or returns undefined when the tag does not verify or the padding is wrong. One
 * outcome for every failure: the caller turns it into the single decryption error.
 */
export function openContent(
  e: ContentEncryptionEntry,
  cek: Uint8Array,
  sealed: Sealed,
  aad: Uint8Array,
): Uint8Array | undefined {
  const { iv, ciphertext, tag } = sealed;
  if (isGcm(e)) {
    try {
      const d = createDecipheriv(gcmName(e), cek, iv, { authTagLength: 16 });
      d.setAAD(aad);
      d.setAuthTag(tag);
      return concat(d.update(ciphertext), d.final());
    } catch {
      return undefined;
    }
  }
  const half = e.keyBytes / 2;
  const expected = cbcTag(e, cek.subarray(0, half), aad, iv, ciphertext);
  // Tag first, in constant time, and only then the padding: no padding oracle.
  if (expected.length !== tag.length || !timingSafeEqual(expected, tag)) return undefined;
  try {
    const d = createDecipheriv(cbcName(e), cek.subarray(half), iv);
    return concat(d.update(ciphertext), d.final());
  } catch {
    return undefined;
  }
}
