import { settings } from '../configure.ts';
import { BackendUnavailable, InvalidArgument } from '../errors.ts';
import { nativeBackend, nativeRefBackend } from './native.ts';
import { nobleBackend } from './noble.ts';
import { nodeBackend } from './node.ts';
import {
  BACKEND_NAMES,
  type BackendName,
  type BackendStatus,
  type MlDsaBackend,
  type SlhDsaOps,
} from './types.ts';

export { BACKEND_NAMES };

/** What one operation needs from a backend. `rnd` means byte-exact signing in either family. */
export interface Need {
  rnd?: boolean;
  context?: boolean;
  expandedKeys?: boolean;
  externalMu?: boolean;
  /** An SLH-DSA operation (then `rnd` asks for SLH-DSA deterministic / opt_rand signing). */
  slhDsa?: boolean;
  /** SLH-DSA key generation from caller seeds (slh_keygen_internal). */
  seededKeygen?: boolean;
}

/** Fastest first. The order is the automatic choice; `configure({ backend })` or a per-call option overrides it. */
const AUTO: readonly MlDsaBackend[] = [nativeBackend, nodeBackend, nobleBackend];
/** Every backend, including those only chosen by name, in BACKEND_NAMES order. */
const ALL: readonly MlDsaBackend[] = [...AUTO, nativeRefBackend];

export function backends(): BackendStatus[] {
  return ALL.map((b) => b.status());
}

let warned = false;
function warnOnce(): void {
  const { onWarning } = settings();
  if (warned || !onWarning) return;
  warned = true;
  const st = nativeBackend.status();
  if (!st.available) {
    const fallback = AUTO.find((b) => b.status().available)?.name;
    const fix = st.fix ? ` To fix: ${st.fix}.` : '';
    onWarning({
      code: 'PQID_NATIVE_UNAVAILABLE',
      message: `pqid: native ML-DSA backend unavailable, using ${fallback} (${st.reason}).${fix}`,
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

function missing(b: MlDsaBackend, need: Need): string {
  const c = b.status().capabilities;
  if (need.slhDsa && !c.slhDsa) return 'it has no SLH-DSA';
  if (need.slhDsa && need.seededKeygen && !b.slhDsa?.keygenFromSeed)
    return 'no SLH-DSA key generation from seeds';
  if (need.slhDsa) return 'no deterministic SLH-DSA signing or caller-supplied opt_rand';
  if (need.externalMu && !c.externalMu) return 'no external-μ signing';
  return b.status().reason ?? 'missing capability';
}

/**
 * The backend for one operation: the explicit one (checked for the capabilities it needs),
 * else the configured one where it can do the operation, else the fastest available one that
 * has those capabilities.
 */
export function chooseBackend(need: Need = {}, explicit?: BackendName): MlDsaBackend {
  const requested = explicit ?? settings().backend;
  const fits = (b: MlDsaBackend) => {
    const c = b.status().capabilities;
    if (need.slhDsa)
      return (
        !!b.slhDsa &&
        !!c.slhDsa &&
        (!need.rnd || c.slhDsa.rnd) &&
        (!need.seededKeygen || !!b.slhDsa.keygenFromSeed)
      );
    return (
      (!need.rnd || c.rnd) &&
      (!need.context || c.context) &&
      (!need.expandedKeys || c.expandedKeys) &&
      (!need.externalMu || (!!c.externalMu && !!b.signMu))
    );
  };
  if (requested) {
    const b = getBackend(requested);
    if (!fits(b)) {
      if (explicit) throw new BackendUnavailable(`backend "${b.name}" cannot do this: ${missing(b, need)}`);
    } else return b;
  }
  warnOnce();
  const b = AUTO.find((x) => x.status().available && fits(x));
  if (!b)
    throw new BackendUnavailable(
      `no ${need.slhDsa ? 'SLH-DSA' : 'ML-DSA'} backend available with the required capabilities`,
    );
  return b;
}

/** The SLH-DSA operations of the backend chooseBackend picks for an SLH-DSA operation. */
export function chooseSlhDsa(
  need: Omit<Need, 'slhDsa'> = {},
  explicit?: BackendName,
): { name: BackendName; ops: SlhDsaOps } {
  const b = chooseBackend({ ...need, slhDsa: true }, explicit);
  return { name: b.name, ops: b.slhDsa as SlhDsaOps };
}
