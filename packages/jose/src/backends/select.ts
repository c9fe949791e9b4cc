import { BackendUnavailable, InvalidArgument } from '../errors.ts';
import { nativeBackend, nativeRefBackend } from './native.ts';
import { nobleBackend } from './noble.ts';
import { nodeBackend } from './node.ts';
import type { BackendCapabilities, BackendName, BackendStatus, MlDsaBackend } from './types.ts';

/** Fastest first. The order is the automatic choice; `PQID_BACKEND` or a per-call option overrides it. */
const AUTO: readonly MlDsaBackend[] = [nativeBackend, nodeBackend, nobleBackend];
/** Every backend, including those only chosen by name. */
const ALL: readonly MlDsaBackend[] = [...AUTO, nativeRefBackend];
export const BACKEND_NAMES: readonly BackendName[] = ALL.map((b) => b.name);

export function backends(): BackendStatus[] {
  return ALL.map((b) => b.status());
}

let warned = false;
function warnOnce(): void {
  if (warned || process.env.PQID_QUIET) return;
  warned = true;
  const st = nativeBackend.status();
  if (!st.available) {
    const fallback = AUTO.find((b) => b.status().available)?.name;
    process.emitWarning(`pqid: native ML-DSA backend unavailable, using ${fallback} (${st.reason})`, {
      code: 'PQID_NATIVE_UNAVAILABLE',
    });
  }
}

/** The backend automatic selection uses for an ordinary (hedged, empty-context) signature. */
export function preferredBackend(): BackendName {
  return chooseBackend().name;
}

export function getBackend(name: BackendName): MlDsaBackend {
  const b = ALL.find((x) => x.name === name);
  if (!b) throw new InvalidArgument(`unknown backend "${name}" (one of ${BACKEND_NAMES.join(', ')})`);
  const st = b.status();
  if (!st.available) throw new BackendUnavailable(`backend "${name}" is unavailable: ${st.reason}`);
  return b;
}

/**
 * The backend for one operation: the explicit one (checked for the capabilities it needs),
 * else `PQID_BACKEND`, else the fastest available one that has those capabilities.
 */
export function chooseBackend(need: Partial<BackendCapabilities> = {}, explicit?: BackendName): MlDsaBackend {
  const requested = explicit ?? (process.env.PQID_BACKEND as BackendName | undefined) ?? undefined;
  const fits = (b: MlDsaBackend) => {
    const c = b.status().capabilities;
    return (!need.rnd || c.rnd) && (!need.context || c.context) && (!need.expandedKeys || c.expandedKeys);
  };
  if (requested) {
    const b = getBackend(requested);
    if (!fits(b)) {
      if (explicit)
        throw new BackendUnavailable(
          `backend "${b.name}" cannot do this: ${b.status().reason ?? 'missing capability'}`,
        );
    } else return b;
  }
  warnOnce();
  const b = AUTO.find((x) => x.status().available && fits(x));
  if (!b) throw new BackendUnavailable('no ML-DSA backend available with the required capabilities');
  return b;
}
