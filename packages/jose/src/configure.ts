/**
 * Process-wide settings. The library reads no environment variables: the application decides
 * (the pqid IdP maps its own configuration, `PQID_BACKEND` and the like, onto `configure`).
 * Per-call options (`{ backend }` on sign and verify calls) still take precedence.
 */
import { BACKEND_NAMES, type BackendName } from './backends/types.ts';
import { InvalidArgument } from './errors.ts';

/**
 * How the `native` backend signs and verifies composites: `auto` takes the path that costs less
 * CPU per token for each algorithm (both halves in one native call, except Ed448, whose split
 * path is cheaper: docs/BENCHMARKS.md); `whole` signs every composite in one native call; `split`
 * signs the ML-DSA half natively and the traditional half through node:crypto on the thread pool.
 */
export const COMPOSITE_MODES = ['auto', 'whole', 'split'] as const;
export type CompositeMode = (typeof COMPOSITE_MODES)[number];

/** A warning the library would otherwise print (today: the native backend is unavailable). */
export interface PqidWarning {
  code: 'PQID_NATIVE_UNAVAILABLE';
  message: string;
}

/**
 * How the native backend admits async signatures (@pqid/liboqs-node's sign queue): a member left
 * out keeps the addon's default.
 */
export interface NativeSigning {
  /** Pool tasks async signing keeps in flight (default 2 × min(cores, the libuv pool size)). */
  slots?: number;
  /** Most signatures one pool task signs when every slot is busy (default 8; 1: no batching). */
  maxBatch?: number;
}

export interface Settings {
  /**
   * The backend ML-DSA and SLH-DSA operations prefer. Where it cannot do what an operation needs
   * (native has no SLH-DSA; node:crypto cannot sign deterministically), automatic selection
   * takes over. Unset: automatic (native, then node:crypto, then noble).
   */
  backend: BackendName | undefined;
  compositeMode: CompositeMode;
  nativeSigning: Readonly<NativeSigning>;
  /**
   * Where warnings go. Default: one process warning (`process.emitWarning`) per process;
   * `null` silences them (an application that reports the backend itself, as the IdP does).
   */
  onWarning: ((warning: PqidWarning) => void) | null;
}

const emitProcessWarning = (w: PqidWarning): void => {
  process.emitWarning(w.message, { code: w.code });
};

const DEFAULTS: Readonly<Settings> = Object.freeze({
  backend: undefined,
  compositeMode: 'auto',
  nativeSigning: Object.freeze({}),
  onWarning: emitProcessWarning,
});

let current: Readonly<Settings> = DEFAULTS;

/** What applies settings outside this module (the native sign queue), called after each change. */
const appliers: Array<(s: Readonly<Settings>) => void> = [];

/** Applies `apply` to the settings now and after every `configure`. */
export function whenConfigured(apply: (s: Readonly<Settings>) => void): void {
  appliers.push(apply);
  apply(current);
}

const NATIVE_SIGNING_KEYS: ReadonlySet<string> = new Set(['slots', 'maxBatch']);

function nativeSigning(value: unknown): Readonly<NativeSigning> {
  if (value === undefined) return DEFAULTS.nativeSigning;
  if (typeof value !== 'object' || value === null)
    throw new InvalidArgument('nativeSigning must be an object ({ slots, maxBatch })');
  const out: NativeSigning = {};
  for (const [k, v] of Object.entries(value)) {
    if (!NATIVE_SIGNING_KEYS.has(k))
      throw new InvalidArgument(`unknown nativeSigning member ${JSON.stringify(k)} (slots, maxBatch)`);
    if (v === undefined) continue;
    if (!Number.isInteger(v) || (v as number) < 1)
      throw new InvalidArgument(`nativeSigning.${k} must be an integer ≥ 1, got ${JSON.stringify(v)}`);
    out[k as keyof NativeSigning] = v as number;
  }
  return Object.freeze(out);
}

/** The settings in force. */
export function settings(): Readonly<Settings> {
  return current;
}

/**
 * Changes the settings named in `options` (a member given as `undefined` returns to its default)
 * and returns the previous ones, so that `configure(previous)` restores them.
 */
export function configure(options: Partial<Settings>): Readonly<Settings> {
  const previous = current;
  const next: Settings = { ...current };
  for (const [key, value] of Object.entries(options) as [keyof Settings, unknown][]) {
    switch (key) {
      case 'backend':
        if (value !== undefined && !BACKEND_NAMES.includes(value as BackendName))
          throw new InvalidArgument(
            `unknown backend ${JSON.stringify(value)} (one of ${BACKEND_NAMES.join(', ')})`,
          );
        next.backend = value as BackendName | undefined;
        break;
      case 'compositeMode':
        if (value !== undefined && !COMPOSITE_MODES.includes(value as CompositeMode))
          throw new InvalidArgument(
            `unknown compositeMode ${JSON.stringify(value)} (one of ${COMPOSITE_MODES.join(', ')})`,
          );
        next.compositeMode = (value as CompositeMode | undefined) ?? DEFAULTS.compositeMode;
        break;
      case 'nativeSigning':
        next.nativeSigning = nativeSigning(value);
        break;
      case 'onWarning':
        if (value !== undefined && value !== null && typeof value !== 'function')
          throw new InvalidArgument('onWarning must be a function or null');
        next.onWarning = value === undefined ? DEFAULTS.onWarning : (value as Settings['onWarning']);
        break;
      default:
        throw new InvalidArgument(
          `unknown setting ${JSON.stringify(key)} (backend, compositeMode, nativeSigning, onWarning)`,
        );
    }
  }
  current = Object.freeze(next);
  for (const apply of appliers) apply(current);
  return previous;
}
