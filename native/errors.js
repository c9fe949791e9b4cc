// Typed errors for @pqid/liboqs-node. Kept in its own module so callers (e.g. a backend
// adapter) can import LiboqsError even when the native addon failed to load.

export class LiboqsError extends Error {
  /** @param {string} code @param {string} message @param {ErrorOptions} [options] */
  constructor(code, message, options) {
    super(message, options);
    this.name = 'LiboqsError';
    /** @readonly */
    this.code = code;
  }
}
