/**
 * The example apps' answer to Node 24's ExperimentalWarning for WebCrypto ML-DSA, ML-KEM and
 * SHA-3. openid-client verifies an ML-DSA ID token only through WebCrypto (`crypto.subtle`), and
 * the HPKE that decrypts an X-Wing-encrypted one reaches ML-KEM, SHA-3 and cSHAKE there too; Node
 * marks each of those experimental and prints a warning the first time a process uses it — in the
 * middle of an example's output, at a reader's first login. These exact warnings are dropped;
 * every other warning, experimental or not, is printed as before. The IdP does the same for its
 * own entry points.
 *
 * Only an app's entry point (server.js, call.js) calls this: a module that others import must not
 * swallow the warnings of the application that loads it.
 */

/** WebCrypto's new methods and its ML-DSA, ML-KEM, SHA-3 and cSHAKE algorithms. */
const EXPECTED = [
  /^The (supports|getPublicKey|(en|de)capsulate(Bits|Key)) Web Crypto API method is an experimental feature/,
  /^The (ML-DSA-(44|65|87)|ML-KEM-(512|768|1024)|SHA3-(256|384|512)|cSHAKE(128|256)) Web Crypto API algorithm is an experimental feature/,
];

/**
 * Whether Node would print `warning` as one of the expected WebCrypto warnings.
 * @param {string | Error} warning
 * @param {unknown} [typeOrOptions] process.emitWarning's second argument
 * @returns {boolean}
 */
export function isExpectedExperimentalWarning(warning, typeOrOptions) {
  const type =
    typeof typeOrOptions === 'string'
      ? typeOrOptions
      : typeof typeOrOptions === 'object' && typeOrOptions !== null && 'type' in typeOrOptions
        ? typeOrOptions.type
        : warning instanceof Error
          ? warning.name
          : 'Warning';
  const message = typeof warning === 'string' ? warning : warning.message;
  return type === 'ExperimentalWarning' && EXPECTED.some((re) => re.test(message));
}

/** Drops the expected warnings from `process.emitWarning`, which Node's own go through. */
export function dropExpectedExperimentalWarnings() {
  const emit = process.emitWarning.bind(process);
  /** @type {(warning: string | Error, ...rest: any[]) => void} */
  const filtered = (warning, ...rest) => {
    if (!isExpectedExperimentalWarning(warning, rest[0])) emit(warning, ...rest);
  };
  process.emitWarning = /** @type {typeof process.emitWarning} */ (filtered);
}
