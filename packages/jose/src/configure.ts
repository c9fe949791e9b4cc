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

export interface Settings {
  /**
   * The backend ML-DSA and SLH-DSA operations prefer. Where it cannot do what an operation needs
   * (native has no SLH-DSA; node:crypto cannot sign deterministically), automatic selection
   * takes over. Unset: automatic (native, then node:crypto, then noble).
   */
  backend: BackendName | undefined;
  compositeMode: CompositeMode;
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
  onWarning: emitProcessWarning,
});

let current: Readonly<Settings> = DEFAULTS;

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
      case 'onWarning':
        if (value !== undefined && value !== null && typeof value !== 'function')
          throw new InvalidArgument('onWarning must be a function or null');
        next.onWarning = value === undefined ? DEFAULTS.onWarning : (value as Settings['onWarning']);
        break;
      default:
        throw new InvalidArgument(
          `unknown setting ${JSON.stringify(key)} (backend, compositeMode, onWarning)`,
        );
    }
  }
  current = Object.freeze(next);
  return previous;
}
