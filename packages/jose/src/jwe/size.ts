/**
 * The size of a JWE and where it fits, as `inspectToken` does for a JWS: an encrypted ID token
 * carries the whole signed token plus the key management overhead (the 1 088–1 665-byte
 * encapsulated secret of the post-quantum KEMs), all base64url-encoded once more.
 */
import { type InspectOptions, type TokenInspection, transportFits } from '../size.ts';
import { parseCompact } from './parse.ts';

export interface JweInspection {
  /** The protected header (decoded, not verified). */
  header: Record<string, unknown>;
  /** Bytes on the wire, per base64url segment, and the decoded encapsulated secret. */
  bytes: {
    token: number;
    header: number;
    encryptedKey: number;
    iv: number;
    ciphertext: number;
    tag: number;
    /** Decoded HPKE encapsulated secret: `ek` (Key Encryption) or the encrypted key (Integrated). */
    encapsulatedSecret: number;
    /** Decoded ciphertext. */
    ciphertextRaw: number;
  };
  fits: TokenInspection['fits'];
}

/** Sizes of a compact JWE against the cookie, header and URL limits (nothing is decrypted). */
export function inspectJwe(jwe: string, opts: InspectOptions = {}): JweInspection {
  const parts = parseCompact(jwe);
  const seg = jwe.split('.') as [string, string, string, string, string];
  const ek = typeof parts.header.ek === 'string' ? Buffer.from(parts.header.ek, 'base64url').length : 0;
  const integrated = /^HPKE-\d+$/.test(parts.header.alg);
  return {
    header: parts.protectedHeader,
    bytes: {
      token: Buffer.byteLength(jwe),
      header: seg[0].length,
      encryptedKey: seg[1].length,
      iv: seg[2].length,
      ciphertext: seg[3].length,
      tag: seg[4].length,
      encapsulatedSecret: integrated ? parts.encryptedKey.length : ek,
      ciphertextRaw: parts.ciphertext.length,
    },
    fits: transportFits(Buffer.byteLength(jwe), opts),
  };
}
