/**
 * The entry points' answer to Node's ExperimentalWarning for WebCrypto ML-DSA, ML-KEM and SHA-3.
 * Passkeys signed
 * with ML-DSA (COSE -48/-49/-50) are verified by @simplewebauthn/server, and it verifies them
 * only through WebCrypto (`SubtleCrypto.supports` to decide whether to offer them, then ML-DSA
 * `importKey`/`verify`), which Node 24 still marks experimental. There is no other path through
 * that library, and verification must stay its own, so these exact warnings are dropped — once
 * per process Node would print them at a user's first passkey page, in the middle of the log.
 * HPKE (`hpke`, for encrypted tokens) reaches node:crypto's ML-KEM and SHA-3 through WebCrypto
 * too, with the same once-per-algorithm warnings. Every other warning, experimental or not, is
 * printed as before.
 *
 * Only the executables install this (main.ts, cli.ts, the load scripts' entry and the test
 * runner's setup file): a library must not swallow the warnings of the application that loads it.
 */

/**
 * The warnings dropped: WebCrypto's new methods (`supports`, `getPublicKey`, the KEM operations)
 * and its ML-DSA, ML-KEM, SHA-3 and cSHAKE algorithms.
 */
const EXPECTED = [
  /^The (supports|getPublicKey|(en|de)capsulate(Bits|Key)) Web Crypto API method is an experimental feature/,
  /^The (ML-DSA-(44|65|87)|ML-KEM-(512|768|1024)|SHA3-(256|384|512)|cSHAKE(128|256)) Web Crypto API algorithm is an experimental feature/,
];

type EmitWarning = typeof process.emitWarning;

/** Whether Node would print `warning` as one of the expected WebCrypto ML-DSA warnings. */
export function isExpectedExperimentalWarning(warning: string | Error, typeOrOptions?: unknown): boolean {
  const type =
    typeof typeOrOptions === 'string'
      ? typeOrOptions
      : typeof typeOrOptions === 'object' && typeOrOptions !== null && 'type' in typeOrOptions
        ? (typeOrOptions as { type?: unknown }).type
        : warning instanceof Error
          ? warning.name
          : 'Warning';
  const message = typeof warning === 'string' ? warning : warning.message;
  return type === 'ExperimentalWarning' && EXPECTED.some((re) => re.test(message));
}

const INSTALLED = Symbol.for('pqid.dropExpectedExperimentalWarnings');

/**
 * Drops the expected warnings from `process.emitWarning`, which Node's own warnings go through.
 * Once per process, however often it is called.
 */
export function dropExpectedExperimentalWarnings(): void {
  const flags = process as unknown as Record<symbol, boolean>;
  if (flags[INSTALLED]) return;
  flags[INSTALLED] = true;
  const emit: EmitWarning = process.emitWarning.bind(process);
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (isExpectedExperimentalWarning(warning, rest[0])) return;
    (emit as (w: string | Error, ...r: unknown[]) => void)(warning, ...rest);
  }) as EmitWarning;
}
