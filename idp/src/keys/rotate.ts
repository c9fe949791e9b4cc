/**
 * Rotation: a new key, published now, signing from `now + prepublish` (or at once with
 * `immediate`, e.g. after a compromise). The current key retires when the new one activates
 * (lifecycle.ts). Two instances rotating the same algorithm at once produce one next key: the
 * second sees the first's and gets RotationPending.
 */
import { isJweAlgorithm } from '@pqid/jose';
import { HOT_SETS, type KeySet } from '../policy/key-sets.ts';
import { RotationPending } from './errors.ts';
import { idOf } from './key-ring.ts';
import { activation, createKey } from './new-keys.ts';
import type { KeyOps } from './operations.ts';

export interface RotateOptions {
  immediate?: boolean;
  set?: KeySet;
}

/**
 * Which (set, algorithm) pairs a rotation touches. With `set`, that set only; without, the hot
 * sets (oidc, saml) — the root and the encryption keys are rotated only when asked for by name.
 * With `alg`, that algorithm in each of those sets that has a key of it (when none has: the enc
 * set for a JWE algorithm, else a first key in the oidc set); without, every algorithm with an
 * active key there.
 */
export function rotationJobs(
  ops: KeyOps,
  alg: string | undefined,
  set: KeySet | undefined,
): Array<[KeySet, string]> {
  const states = ops.ring.states();
  const jobs: Array<[KeySet, string]> = [];
  for (const s of set ? [set] : HOT_SETS) {
    const inSet = ops.ring.records.filter((r) => r.set === s);
    const algs =
      alg !== undefined
        ? inSet.some((r) => r.alg === alg)
          ? [alg]
          : []
        : [
            ...new Set(
              inSet.filter((r) => ops.ring.stateOf(r, states)?.status === 'active').map((r) => r.alg),
            ),
          ];
    for (const a of algs) jobs.push([s, a]);
  }
  // An encryption algorithm can only mean the enc set; else a first key in the oidc set.
  if (alg !== undefined && jobs.length === 0) jobs.push([set ?? (isJweAlgorithm(alg) ? 'enc' : 'oidc'), alg]);
  return jobs;
}

/** Refuse before changing anything: a rotation that stops halfway helps nobody. */
function refusePending(ops: KeyOps, jobs: Array<[KeySet, string]>): void {
  for (const [set, a] of jobs) {
    const pending = ops.ring.find(set, a, 'next');
    if (!pending) continue;
    const reason = `${a} (${set}): key ${pending.kid} is already published and activates at ${new Date((pending.activateAt ?? 0) * 1000).toISOString()}; use --now to activate it at once`;
    ops.audit.refuse('rotate', reason, pending);
    throw new RotationPending(reason);
  }
}

/** Rotates (under the caller's lifecycle lock); returns the record ids of the keys it made or activated. */
export async function rotate(ops: KeyOps, alg: string | undefined, opts: RotateOptions): Promise<string[]> {
  const jobs = rotationJobs(ops, alg, opts.set);
  if (!opts.immediate) refusePending(ops, jobs);
  const now = ops.ring.now();
  const touched: string[] = [];
  for (const [set, a] of jobs) {
    const pending = ops.ring.find(set, a, 'next');
    if (pending) {
      // A staged key activated at once (`--now`).
      const rec = { ...pending, activateAt: now, status: 'active' as const };
      await ops.ring.put(rec);
      ops.audit.emit({ op: 'key.activate', kid: rec.kid, alg: a, set, status: 'active', activateAt: now });
      touched.push(idOf(rec));
      continue;
    }
    const activateAt = activation(ops, { alg: a, set }, opts.immediate, now);
    touched.push(idOf(await createKey(ops, a, set, activateAt)));
  }
  return touched;
}
