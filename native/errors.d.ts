/**
 * Stable error codes: ERR_NATIVE_UNAVAILABLE, ERR_INVALID_ALGORITHM, ERR_INVALID_ARGUMENT,
 * ERR_INVALID_SEED, ERR_INVALID_KEY_LENGTH, ERR_INVALID_KEY, ERR_INVALID_SIGNATURE_LENGTH, ERR_CONTEXT_TOO_LONG,
 * ERR_INVALID_RND, ERR_KEY_FREED, ERR_KEY_ALGORITHM_MISMATCH, ERR_SECRET_SERIALIZATION,
 * ERR_UNSUPPORTED, ERR_RNG, ERR_INTERNAL.
 */
export declare class LiboqsError extends Error {
  readonly code: string;
  /**
   * ERR_NATIVE_UNAVAILABLE: what to do about it, in words, e.g. which build tools to install
   * and the command to run then. Absent for the other codes.
   */
  readonly fix?: string;
  constructor(code: string, message: string, options?: ErrorOptions & { fix?: string });
}
