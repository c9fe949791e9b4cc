/**
 * Nested JWTs (RFC 7519 §5.2, §7.1): sign, then encrypt with `cty: "JWT"`, as OpenID Connect
 * requires of encrypted ID tokens, userinfo responses and request objects (OIDC Core §10.2,
 * RFC 9101 §6.1). Decryption is followed by signature verification, never replaced by it.
 */

import { InvalidArgument, JweInvalid } from '../errors.ts';
import type { VerificationKey } from '../jws/verification-keys.ts';
import {
  type JwtClaims,
  type SignJwtOptions,
  signJwt,
  type VerifyJwtOptions,
  type VerifyJwtResult,
  verifyJwt,
} from '../jwt.ts';
import type { PrivateKey } from '../keys/handles.ts';
import { fromUtf8 } from '../lib/encoding.ts';
import { type DecryptionKeys, type DecryptOptions, decryptCompact } from './decrypt.ts';
import { type EncryptOptions, encryptCompact } from './encrypt.ts';
import type { DecryptionKey, EncryptionKey } from './handles.ts';
import type { JweHeader } from './parse.ts';

/** Encrypts an already signed JWT (a compact JWS) to `key`, with `cty: "JWT"`. */
export async function encryptJwt(
  signedJwt: string,
  key: EncryptionKey | DecryptionKey,
  opts: EncryptOptions = {},
): Promise<string> {
  if (typeof signedJwt !== 'string' || signedJwt.split('.').length !== 3)
    throw new InvalidArgument('encryptJwt needs a signed JWT (compact JWS); sign first, then encrypt');
  return encryptCompact(signedJwt, key, { ...opts, header: { ...opts.header, cty: 'JWT' } });
}

/** Signs `claims` with `signingKey`, then encrypts the JWT to `encryptionKey`. */
export async function signAndEncryptJwt(
  claims: JwtClaims,
  signingKey: PrivateKey,
  encryptionKey: EncryptionKey | DecryptionKey,
  opts: { sign?: SignJwtOptions; encrypt?: EncryptOptions } = {},
): Promise<string> {
  return encryptJwt(await signJwt(claims, signingKey, opts.sign), encryptionKey, opts.encrypt);
}

export interface DecryptAndVerifyJwtOptions {
  /** How to decrypt: the `alg`/`enc` allow-lists are mandatory. */
  decrypt: DecryptOptions;
  /** How to verify the inner JWT: its `algorithms` allow-list is mandatory, plus claim checks. */
  verify: VerifyJwtOptions;
}

export interface DecryptAndVerifyJwtResult extends VerifyJwtResult {
  /** The JWE's header; `protectedHeader` is the inner JWS header. */
  jweHeader: JweHeader;
  decryptionKey: DecryptionKey;
}

const isJwtCty = (cty: unknown) =>
  typeof cty === 'string' && cty.toLowerCase().replace(/^application\//, '') === 'jwt';

/**
 * Decrypts a Nested JWT and verifies the JWT inside it. The JWE must say `cty: "JWT"` (RFC 7519
 * §5.2): an encrypted payload that is not declared a JWT is refused, not guessed at.
 */
export async function decryptAndVerifyJwt(
  jwe: unknown,
  decryptionKeys: DecryptionKeys,
  verificationKey: VerificationKey,
  opts: DecryptAndVerifyJwtOptions,
): Promise<DecryptAndVerifyJwtResult> {
  if (!opts?.decrypt || !opts.verify)
    throw new InvalidArgument('decryptAndVerifyJwt needs options.decrypt and options.verify');
  const { plaintext, protectedHeader, key } = await decryptCompact(jwe, decryptionKeys, opts.decrypt);
  if (!isJwtCty(protectedHeader.cty)) throw new JweInvalid('the JWE does not carry a JWT (cty is not "JWT")');
  let inner: string;
  try {
    inner = fromUtf8(plaintext);
  } catch {
    throw new JweInvalid('the decrypted JWT is not UTF-8');
  }
  const verified = await verifyJwt(inner, verificationKey, opts.verify);
  return { ...verified, jweHeader: protectedHeader, decryptionKey: key };
}
