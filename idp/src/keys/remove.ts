/**
 * Keys leaving the store: removed by an operator before their retention ends (`pqid keys
 * remove`), or purged when it has (everything they signed has expired).
 */
import type { KeySet } from '../policy/key-sets.ts';
import { KeyActive, UnknownKey } from './errors.ts';
import { idOf } from './key-ring.ts';
import type { KeyOps } from './operations.ts';
import { listKeys } from './publication.ts';
import type { KeyInfo, KeyRecord } from './record.ts';

/** The kid is no longer held by any record: its custodian forgets its handle. */
function forgetIfGone(ops: KeyOps, rec: KeyRecord): void {
  if (!ops.ring.holds(rec.kid)) ops.custodian(rec.set).forget(rec.kid);
}

/** Delete retired keys whose tokens have all expired; returns their kids. */
export async function purgeExpired(ops: KeyOps): Promise<string[]> {
  const now = ops.ring.now();
  const states = ops.ring.states();
  const gone = ops.ring.records.filter((r) => {
    const removeAt = ops.ring.stateOf(r, states)?.removeAt;
    return removeAt !== undefined && removeAt <= now;
  });
  await ops.ring.drop(gone, (r) =>
    ops.audit.emit({ op: 'key.purge', kid: r.kid, alg: r.alg, set: r.set, status: 'retired' }),
  );
  // The same key may live on in another set (a migrated legacy key).
  for (const r of gone) forgetIfGone(ops, r);
  return gone.map((r) => r.kid);
}

/**
 * Delete a key before its retention ends (under the caller's lifecycle lock): a compromised
 * retired key, or a staged one that should not activate. The active key is refused (rotate
 * first). Everything the removed key signed stops verifying once relying parties refresh the
 * JWKS (docs/KEYS.md, "Removing a key"). With `set`, only that set's record; without, every set
 * holding the kid. Returns the removed keys as they were.
 */
export async function removeKey(ops: KeyOps, kid: string, set: KeySet | undefined): Promise<KeyInfo[]> {
  const states = ops.ring.states();
  const recs = ops.ring.records.filter((r) => r.kid === kid && (set === undefined || r.set === set));
  if (recs.length === 0) {
    const reason = `no key ${kid}${set ? ` in the ${set} set` : ''}`;
    ops.audit.refuse('remove', reason, { kid, ...(set ? { set } : {}) });
    throw new UnknownKey(reason);
  }
  const active = recs.find((r) => ops.ring.stateOf(r, states)?.status === 'active');
  if (active) {
    const reason = `key ${kid} is the active ${active.alg} key of the ${active.set} set: rotate first (pqid keys rotate --alg ${active.alg}${active.set === 'oidc' ? '' : ` --set ${active.set}`} --now), then remove it`;
    ops.audit.refuse('remove', reason, active);
    throw new KeyActive(reason);
  }
  const removed = new Set(recs.map(idOf));
  const before = listKeys(ops.ring).filter((k) => removed.has(idOf(k)));
  await ops.ring.drop(recs, (r) =>
    ops.audit.emit({
      op: 'key.remove',
      kid,
      alg: r.alg,
      set: r.set,
      status: ops.ring.stateOf(r, states)?.status ?? 'unknown',
    }),
  );
  for (const r of recs) forgetIfGone(ops, r);
  return before;
}
