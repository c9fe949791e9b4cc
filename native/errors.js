// Typed errors for @pqid/liboqs-node. Kept in its own module so callers (e.g. a backend
// adapter) can import LiboqsError even when the native addon failed to load.

export class LiboqsError extends Error {
  /** @param {string} code @param {string} message @param {ErrorOptions & { fix?: string }} [options] */
  constructor(code, message, options) {
    super(message, options);
    this.name = 'LiboqsError';
    /** @readonly */
    this.code = code;
    if (options?.fix !== undefined) {
      /** @readonly What to do about it, in words (ERR_NATIVE_UNAVAILABLE). */
      this.fix = options.fix;
    }
  }
}
