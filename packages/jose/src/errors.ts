/**
 * Typed errors with stable `code`s. Every bad input surfaces as one of these, never as a bare
 * TypeError from a dependency, so callers (the IdP above all) can map them to protocol errors.
 */
export class PqidError extends Error {
  static readonly code: string = 'ERR_PQID';
  /** The message when none is given: for the errors that say the same thing every time. */
  static readonly defaultMessage: string | undefined = undefined;
  readonly code: string;

  constructor(message?: string, options?: ErrorOptions) {
    const type = new.target as typeof PqidError;
    super(message ?? type.defaultMessage, options);
    this.name = new.target.name;
    this.code = type.code;
  }
}

/** An argument of the wrong shape: lengths, types, options. */
export class InvalidArgument extends PqidError {
  static override readonly code = 'ERR_INVALID_ARGUMENT';
}

/** The algorithm is not in the registry, or not available on this runtime. */
export class UnsupportedAlgorithm extends PqidError {
  static override readonly code = 'ERR_ALG_UNSUPPORTED';
}

/** The token's algorithm is not in the verifier's allow-list (this includes `alg: none`). */
export class AlgorithmNotAllowed extends PqidError {
  static override readonly code = 'ERR_ALG_NOT_ALLOWED';
}

/** A JWK that cannot be a key of the algorithm it claims. */
export class JwkInvalid extends PqidError {
  static override readonly code = 'ERR_JWK_INVALID';
}

/** A key used with an algorithm it was not made for (key-type confusion). */
export class KeyMismatch extends PqidError {
  static override readonly code = 'ERR_KEY_MISMATCH';
}

/** A structurally invalid JWS: segments, base64url, header JSON, `crit`, `b64`. */
export class JwsInvalid extends PqidError {
  static override readonly code = 'ERR_JWS_INVALID';
}

/** The signature does not verify under the given key. */
export class SignatureVerificationFailed extends PqidError {
  static override readonly code = 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED';
  static override readonly defaultMessage = 'signature verification failed';
}

/** A token larger than the configured maximum; rejected before any parsing. */
export class TokenTooLarge extends PqidError {
  static override readonly code = 'ERR_TOKEN_TOO_LARGE';
}

/** A JWT that is not a JSON object payload. */
export class JwtInvalid extends PqidError {
  static override readonly code = 'ERR_JWT_INVALID';
}

/** A JWT claim check failed (iss, aud, nbf, required claims, …). */
export class JwtClaimValidationFailed extends PqidError {
  static override readonly code: string = 'ERR_JWT_CLAIM_VALIDATION_FAILED';
  readonly claim: string;
  readonly reason: string;
  constructor(message: string, claim = 'unspecified', reason = 'unspecified', options?: ErrorOptions) {
    super(message, options);
    this.claim = claim;
    this.reason = reason;
  }
}

/** The JWT's `exp` (or `maxTokenAge`) has passed. */
export class JwtExpired extends JwtClaimValidationFailed {
  static override readonly code = 'ERR_JWT_EXPIRED';
}

/** No key in the key set matches the token's header. */
export class JwksNoMatchingKey extends PqidError {
  static override readonly code = 'ERR_JWKS_NO_MATCHING_KEY';
}

/** Fetching a remote JWKS failed or returned something that is not a JWKS. */
export class JwksFetchFailed extends PqidError {
  static override readonly code = 'ERR_JWKS_FETCH_FAILED';
}

/** A requested backend cannot run here; `reason` says why. */
export class BackendUnavailable extends PqidError {
  static override readonly code = 'ERR_BACKEND_UNAVAILABLE';
}

/** Private key material was about to be serialized by accident (JSON, string, inspect). */
export class SecretSerialization extends PqidError {
  static override readonly code = 'ERR_SECRET_SERIALIZATION';
}

/** A delegated signer (KMS, HSM, another process) failed or refused to sign. */
export class SignerFailed extends PqidError {
  static override readonly code = 'ERR_SIGNER_FAILED';
}

/** A delegated signer cannot sign this request (no external μ, message too large, a context it lacks). */
export class SignerUnsupported extends PqidError {
  static override readonly code = 'ERR_SIGNER_UNSUPPORTED';
}

/**
 * A delegated signer returned something that is not a valid signature under its public key:
 * the wrong length or encoding, or one that does not verify (wrong key behind the signer, or a
 * faulty signer). Nothing is issued with it.
 */
export class SignerInvalidSignature extends PqidError {
  static override readonly code = 'ERR_SIGNER_INVALID_SIGNATURE';
}

/**
 * A DPoP proof (RFC 9449 §4.3) that fails a check; `reason` names which one, so a server can
 * log it and a test can tell the checks apart: size, format, typ, alg, jwk, signature, claims,
 * htm, htu, iat, ath.
 */
export class DpopProofInvalid extends PqidError {
  static override readonly code = 'ERR_DPOP_PROOF_INVALID';
  readonly reason: string;
  constructor(reason: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
  }
}

/**
 * A structurally invalid JWE, refused before any decryption: segments, base64url, header JSON,
 * a header that breaks its algorithm's rules (`enc`/`ek` present or absent, IV/tag/`ek` sizes),
 * `crit`, `zip`, unexpected header members, or a JSON serialization where compact was expected.
 */
export class JweInvalid extends PqidError {
  static override readonly code = 'ERR_JWE_INVALID';
}

/**
 * A JWE that does not decrypt. One error, one message for every authenticity failure (the
 * encapsulated secret, encrypted key, IV, ciphertext, tag, AAD or protected header altered, or
 * the wrong key): the caller learns nothing about which step failed.
 */
export class JweDecryptionFailed extends PqidError {
  static override readonly code = 'ERR_JWE_DECRYPTION_FAILED';
  static override readonly defaultMessage = 'decryption failed';
}
