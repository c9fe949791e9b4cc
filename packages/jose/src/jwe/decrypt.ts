/**
 * JWE decryption (RFC 7516 §5.2 as replaced by draft-ietf-jose-hpke-encrypt-20 §7.2).
 *
 * Everything a key is not needed for is checked first and reported precisely (JweInvalid,
 * AlgorithmNotAllowed). After that, every failure is the same `JweDecryptionFailed`: in Key
 * Encryption a CEK that does not decrypt, or has the wrong length, is replaced by a random one
 * and content decryption runs anyway (RFC 7516 §11.5), so a bad `ek`/encrypted key and a bad
 * tag fail at the same step, with the same error.
 */
import { randomBytes } from 'node:crypto';
import * as jose from 'jose';
import {
  InvalidArgument,
  JweDecryptionFailed,
  JweInvalid,
  JwksNoMatchingKey,
  KeyMismatch,
} from '../errors.ts';
import { cipherSuite, type HpkeBackend, resolveHpkeBackend } from '../hpke/suite.ts';
import { openContent } from './content.ts';
import { jweAad, recipientStructure } from './encrypt.ts';
import { DecryptionKey, hpkeKeyPair, joseKey } from './handles.ts';
import {
  checkAllowList,
  checkHeader,
  encapsulatedSecret,
  type JweHeader,
  type JweParts,
  parseCompact,
  parseFlattened,
} from './parse.ts';
import type { ContentEncryptionEntry, JweAlgorithmEntry } from './types.ts';

/** Decryption keys: one key, a list (e.g. the IdP's `use: "enc"` keys), or a lookup by header. */
export type DecryptionKeys =
  | DecryptionKey
  | readonly DecryptionKey[]
  | ((header: JweHeader) => readonly DecryptionKey[] | Promise<readonly DecryptionKey[]>);

export interface DecryptOptions {
  /** Allowed `alg` values: mandatory. A JWE never chooses its own algorithm. */
  keyManagementAlgorithms: readonly string[];
  /** Allowed `enc` values: mandatory unless every allowed `alg` is HPKE Integrated Encryption. */
  contentEncryptionAlgorithms?: readonly string[];
  /** Refuse larger JWEs before parsing (default 64 KiB). */
  maxTokenBytes?: number;
  backend?: HpkeBackend;
}

export interface DecryptResult {
  plaintext: Uint8Array;
  /** The JOSE Header (for compact: the protected header). */
  protectedHeader: JweHeader;
  /** Flattened JSON only: the JWE AAD, base64url-decoded. */
  additionalAuthenticatedData?: Uint8Array;
  key: DecryptionKey;
}

async function candidates(keys: DecryptionKeys, header: JweHeader): Promise<readonly DecryptionKey[]> {
  if (keys instanceof DecryptionKey) {
    if (keys.alg !== header.alg)
      throw new KeyMismatch(`the key is for ${keys.alg}, the JWE is ${header.alg}`);
    return [keys];
  }
  let list: readonly DecryptionKey[];
  if (typeof keys === 'function') list = await keys(header);
  else if (Array.isArray(keys)) list = keys as readonly DecryptionKey[];
  else throw new InvalidArgument('decryption needs a DecryptionKey, a list of them, or a lookup function');
  const found = list.filter(
    (k) =>
      k instanceof DecryptionKey &&
      k.alg === header.alg &&
      (header.kid === undefined || k.kid === header.kid),
  );
  if (found.length === 0)
    throw new JwksNoMatchingKey(
      `no decryption key for alg ${header.alg}${header.kid ? ` kid ${header.kid}` : ''}`,
    );
  return found;
}

async function openHpke(
  key: DecryptionKey,
  parts: JweParts,
  entry: JweAlgorithmEntry,
  content: ContentEncryptionEntry | undefined,
  enc: Uint8Array,
  aad: Uint8Array,
  backend: HpkeBackend,
): Promise<Uint8Array | undefined> {
  const suite = cipherSuite(entry.hpke as NonNullable<JweAlgorithmEntry['hpke']>, backend);
  const kp = await hpkeKeyPair(key, backend);
  if (entry.mode === 'integrated') {
    return suite.Open(kp, enc, parts.ciphertext, { aad }).catch(() => undefined);
  }
  const c = content as ContentEncryptionEntry;
  let cek = await suite
    .Open(kp, enc, parts.encryptedKey, { info: recipientStructure(c.enc) })
    .catch(() => undefined);
  if (cek?.length !== c.keyBytes) cek = new Uint8Array(randomBytes(c.keyBytes));
  try {
    return openContent(c, cek, { iv: parts.iv, ciphertext: parts.ciphertext, tag: parts.tag }, aad);
  } finally {
    cek.fill(0);
  }
}

async function openClassical(key: DecryptionKey, parts: JweParts): Promise<Uint8Array | undefined> {
  const b = (u: Uint8Array) => Buffer.from(u).toString('base64url');
  const extra = Object.fromEntries(
    Object.entries(parts.header).filter(([k]) => !(k in parts.protectedHeader)),
  );
  try {
    const { plaintext } = await jose.flattenedDecrypt(
      {
        protected: parts.protectedB64,
        ...(Object.keys(extra).length ? { header: extra } : {}),
        ...(parts.encryptedKey.length ? { encrypted_key: b(parts.encryptedKey) } : {}),
        iv: b(parts.iv),
        ciphertext: b(parts.ciphertext),
        tag: b(parts.tag),
        ...(parts.aadB64 !== undefined ? { aad: parts.aadB64 } : {}),
      },
      joseKey(key),
      {
        keyManagementAlgorithms: [parts.header.alg],
        contentEncryptionAlgorithms: [parts.header.enc as string],
      },
    );
    return plaintext;
  } catch (e) {
    if (e instanceof jose.errors.JWEDecryptionFailed) return undefined;
    // Structural problems jose finds that our checks let through (e.g. a malformed `epk`).
    throw new JweInvalid(`invalid ${parts.header.alg} JWE: ${(e as Error).message}`, { cause: e });
  }
}

async function decryptParts(
  parts: JweParts,
  keys: DecryptionKeys,
  opts: DecryptOptions,
): Promise<DecryptResult> {
  const allow = checkAllowList(opts);
  const { entry, content } = checkHeader(parts, allow);
  const enc = entry.family === 'hpke' ? encapsulatedSecret(parts, entry) : undefined;
  const backend = entry.family === 'hpke' ? resolveHpkeBackend(opts.backend) : undefined;
  const aad = jweAad(parts.protectedB64, parts.aadB64);
  for (const key of await candidates(keys, parts.header)) {
    const plaintext =
      entry.family === 'hpke'
        ? await openHpke(key, parts, entry, content, enc as Uint8Array, aad, backend as HpkeBackend)
        : await openClassical(key, parts);
    if (plaintext) {
      return {
        plaintext,
        protectedHeader: parts.header,
        ...(parts.aadB64 !== undefined
          ? { additionalAuthenticatedData: new Uint8Array(Buffer.from(parts.aadB64, 'base64url')) }
          : {}),
        key,
      };
    }
  }
  throw new JweDecryptionFailed();
}

/** Decrypts a compact JWE. */
export async function decryptCompact(
  jwe: unknown,
  keys: DecryptionKeys,
  opts: DecryptOptions,
): Promise<DecryptResult> {
  checkAllowList(opts);
  return decryptParts(parseCompact(jwe, opts.maxTokenBytes), keys, opts);
}

/** Decrypts a flattened JSON JWE (or a general one with one recipient), as an object or JSON text. */
export async function decryptFlattened(
  jwe: unknown,
  keys: DecryptionKeys,
  opts: DecryptOptions,
): Promise<DecryptResult> {
  checkAllowList(opts);
  return decryptParts(parseFlattened(jwe, opts.maxTokenBytes), keys, opts);
}
