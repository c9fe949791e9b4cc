/**
 * The process environment. Configuration reads it here and nowhere else: settings of the table
 * that have a variable (table.ts), and the variables that only the environment carries — secrets
 * that must not sit in a file, and switches of the process (ENVIRONMENT below).
 */
import { BACKEND_NAMES, type BackendName, type CompositeMode, type NativeSigning } from '@pqid/jose';
import { envFlag, fail } from './values.ts';

export type Env = Record<string, string | undefined>;

/** This process's environment: the default of loadConfig, createIdp and the CLI. */
export const processEnv = (): Env => process.env;

/**
 * The one write: a PKCS#11 module loaded into this process reads its own settings (e.g.
 * SoftHSM's `SOFTHSM2_CONF`) from the environment, which `keys.signers.<name>.env` provides.
 */
export function exportToProcessEnv(vars: Record<string, string>): void {
  for (const [k, v] of Object.entries(vars)) process.env[k] = v;
}

export interface EnvironmentVariable {
  name: string;
  doc: string;
  /** The part of the system that reads it, when it is not the IdP's configuration. */
  readBy?: string;
}

/** Variables that only the environment sets (the settings' own variables are in table.ts). */
export const ENVIRONMENT: readonly EnvironmentVariable[] = [
  { name: 'PQID_CONFIG', doc: 'path of the JSON configuration file (the CLI also takes `--config`)' },
  {
    name: 'PQID_KEK',
    doc: 'key-encryption key for private signing keys: 32 bytes, base64 (`openssl rand -base64 32`). Unset: a generated `<dataDir>/kek.key` (0600) on first start, with a warning. See [KEYS.md](KEYS.md#encryption-at-rest)',
  },
  {
    name: 'PQID_KEK_FILE',
    doc: 'instead of `PQID_KEK`: a file of base64 KEKs, one per line, the first current, later ones previous; re-read at every key reload, so replacing it changes the KEK without a restart (default `<dataDir>/kek.key`)',
  },
  {
    name: 'PQID_KEK_PREVIOUS',
    doc: 'earlier KEKs (base64, comma-separated), accepted for opening keys only, while `pqid keys rekey` re-seals them ([KEYS.md](KEYS.md#changing-the-kek-pqid-keys-rekey))',
  },
  {
    name: 'PQID_REQUIRE_NATIVE',
    doc: '`1` (any value but `0`/`false`/`no`/`off`): refuse to start (exit code 3, the reason and the fix on stderr; `createIdp` throws `ERR_NATIVE_REQUIRED`) when ML-DSA would sign on a fallback instead of the native backend (`@pqid/liboqs-node`): the addon is missing or failed its self-test, or `PQID_BACKEND` names another backend. The test suite also reads it: set, the native tests must run',
  },
  {
    name: 'PQID_DEBUG',
    readBy: 'the pqid CLI',
    doc: '`1` (any value but `0`/`false`/`no`/`off`): a failed command prints the stack trace under its one-line error',
  },
  {
    name: 'PQID_DRAIN_TIMEOUT_MS',
    doc: 'milliseconds SIGTERM/SIGINT waits for in-flight requests before cutting the remaining connections (default 10000; `0` also means the default)',
  },
  {
    name: 'PQID_SHUTDOWN_DELAY_MS',
    doc: 'milliseconds between SIGTERM and closing the listener (default 5000; `0`: close at once; SIGINT, as Ctrl-C sends, closes at once). Meanwhile `/healthz` answers 503 `{"status":"draining",…}` and every other request is served as usual, so a load balancer takes the instance out of rotation before it stops accepting connections; then the drain of `PQID_DRAIN_TIMEOUT_MS` follows. Set it above the balancer\'s health-check interval × failures to mark down; see [OPERATIONS.md](OPERATIONS.md#shutdown-health-and-the-native-backend)',
  },
  {
    name: 'PQID_BACKEND',
    doc: "`native`, `node`, `noble` or `native-ref` (the native addon's portable C code): the ML-DSA/SLH-DSA backend to prefer (where it cannot do an operation, automatic selection does it). `npm start` and `pqid` pass it to `@pqid/jose`'s `configure({ backend })`, which reads no environment itself; any other value is a configuration error",
  },
  {
    name: 'PQID_NATIVE_COMPOSITES',
    doc: 'how the `native` backend signs and verifies composites (`configure({ compositeMode })` of `@pqid/jose`, set by `npm start` and `pqid`). Unset or `auto`: the path that costs less CPU per token, per algorithm: whole in one native task (M′ and both halves; AWS-LC or RustCrypto for the traditional half), except Ed448, which is split. `whole`: every composite whole (also Ed448, through RustCrypto `ed448-goldilocks`). `split` (or `off`): every composite split (the ML-DSA half native, the traditional half through node:crypto on the thread pool). Any other value is a configuration error. See docs/BENCHMARKS.md',
  },
  {
    name: 'PQID_SIGN_SLOTS',
    doc: "native backend: pool tasks async signing keeps in flight (default 2 × min(cores, `UV_THREADPOOL_SIZE` or 4)); `npm start` and `pqid` pass it to `@pqid/jose`'s `configure({ nativeSigning: { slots } })`; see [native/README.md](../native/README.md#how-it-works)",
  },
  {
    name: 'PQID_SIGN_BATCH',
    doc: 'native backend: most signatures one pool task signs when every slot is busy (default 8; `1` turns batching off), passed as `configure({ nativeSigning: { maxBatch } })`. Either variable set to anything but an integer ≥ 1 is a configuration error',
  },
  {
    name: 'UV_THREADPOOL_SIZE',
    readBy: 'Node.js',
    doc: "Node's libuv pool (default 4), shared by signing, scrypt and file I/O. [BENCHMARKS.md](BENCHMARKS.md) compares the default with one thread per core for async signing; more threads keep scrypt logins from waiting behind signatures",
  },
];

/** What the environment-only variables say, read once. */
export interface EnvironmentSettings {
  /** PQID_KEK: the key-encryption key, base64 (checked where it is decoded, crypto/kek.ts). */
  kek: string | undefined;
  /** PQID_KEK_FILE. */
  kekFile: string | undefined;
  /** PQID_KEK_PREVIOUS: earlier KEKs, comma-separated. */
  kekPrevious: string | undefined;
  /** PQID_REQUIRE_NATIVE set to anything but 0/false/no/off. */
  requireNative: boolean;
  /** PQID_BACKEND: the backend @pqid/jose prefers (`configure({ backend })`); unset: automatic. */
  backend: BackendName | undefined;
  /** PQID_NATIVE_COMPOSITES: how the native backend signs composites (`configure({ compositeMode })`). */
  compositeMode: CompositeMode;
  /** PQID_SIGN_SLOTS, PQID_SIGN_BATCH: the native sign queue (`configure({ nativeSigning })`). */
  nativeSigning: NativeSigning;
  /** PQID_DRAIN_TIMEOUT_MS. */
  drainTimeoutMs: number;
  /** PQID_SHUTDOWN_DELAY_MS: how long a stopping instance reports draining while it still serves. */
  shutdownDelayMs: number;
}

/** Until the listener closes, balancers that check every few seconds have seen /healthz say draining. */
const DEFAULT_SHUTDOWN_DELAY_MS = 5_000;

/**
 * @pqid/jose's settings, which the library does not read itself: PQID_BACKEND prefers one backend
 * (`native`, `node`, `noble` or `native-ref`; empty: automatic); PQID_NATIVE_COMPOSITES picks how
 * the native backend signs composites (`auto` the default, `whole`, `split`, or `off`, the older
 * name of `split`).
 */
export function backendSettings(env: Env): {
  backend: BackendName | undefined;
  compositeMode: CompositeMode;
  nativeSigning: NativeSigning;
} {
  const backend = env.PQID_BACKEND?.trim() || undefined;
  if (backend !== undefined && !BACKEND_NAMES.includes(backend as BackendName))
    fail(`PQID_BACKEND must be one of ${BACKEND_NAMES.join(', ')}; got ${JSON.stringify(backend)}`);
  const modes: Record<string, CompositeMode> = { auto: 'auto', whole: 'whole', split: 'split', off: 'split' };
  const composites = env.PQID_NATIVE_COMPOSITES?.trim().toLowerCase() || 'auto';
  const compositeMode = Object.hasOwn(modes, composites) ? modes[composites] : undefined;
  if (!compositeMode)
    fail(
      `PQID_NATIVE_COMPOSITES must be auto, whole or split; got ${JSON.stringify(env.PQID_NATIVE_COMPOSITES)}`,
    );
  const slots = positiveInteger(env, 'PQID_SIGN_SLOTS');
  const maxBatch = positiveInteger(env, 'PQID_SIGN_BATCH');
  return {
    backend: backend as BackendName | undefined,
    compositeMode: compositeMode as CompositeMode,
    nativeSigning: {
      ...(slots === undefined ? {} : { slots }),
      ...(maxBatch === undefined ? {} : { maxBatch }),
    },
  };
}

/** An integer ≥ 1 from `env[name]`, undefined when unset; a typo must not run with the default. */
function positiveInteger(env: Env, name: string): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (!/^[1-9]\d*$/.test(raw)) fail(`${name} must be an integer ≥ 1, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

const nonEmpty = (v: string | undefined) => (v === undefined || v === '' ? undefined : v);

/** The longest timer Node keeps: a longer one fires after 1 ms instead (TimeoutOverflowWarning). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A whole number of milliseconds from `env[name]` (0 allowed), undefined when unset or empty. */
function milliseconds(env: Env, name: string): number | undefined {
  const raw = nonEmpty(env[name]?.trim());
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) > MAX_TIMER_MS)
    fail(`${name} must be a whole number of milliseconds up to ${MAX_TIMER_MS}, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

/** PQID_DEBUG: whether the CLI adds stack traces to its errors (read before anything can fail). */
export function cliDebug(env: Env = processEnv()): boolean {
  const v = nonEmpty(env.PQID_DEBUG?.trim());
  return v !== undefined && envFlag(v);
}

export function readEnvironment(env: Env = processEnv()): EnvironmentSettings {
  const require = env.PQID_REQUIRE_NATIVE?.trim();
  const drain = milliseconds(env, 'PQID_DRAIN_TIMEOUT_MS');
  return {
    kek: nonEmpty(env.PQID_KEK),
    kekFile: nonEmpty(env.PQID_KEK_FILE),
    kekPrevious: nonEmpty(env.PQID_KEK_PREVIOUS),
    requireNative: require !== undefined && require !== '' && envFlag(require),
    ...backendSettings(env),
    // 0 would cut every connection at once, which is no drain: it means the default.
    drainTimeoutMs: drain || 10_000,
    shutdownDelayMs: milliseconds(env, 'PQID_SHUTDOWN_DELAY_MS') ?? DEFAULT_SHUTDOWN_DELAY_MS,
  };
}
