/**
 * Reading key records, and migrating those written before key sets existed. Such a record has no
 * `set`: its key signed for every protocol that used its algorithm, so it becomes one record per
 * set it served (`legacySets`), and stays in each until rotated there.
 */
import { isKeySet, KEY_SETS, type KeySet, recordId } from '../policy/key-sets.ts';
import type { Model } from '../storage/model.ts';
import type { AuditTrail } from './audit.ts';
import type { KeyRecord, PersistedKeyRecord } from './record.ts';

/** The sets a record written before key sets belongs to, by algorithm. */
export type LegacySets = (alg: string) => readonly KeySet[];

type Rows = ReadonlyArray<{ id: string; payload: PersistedKeyRecord }>;

/**
 * The records as key-set records: a legacy one is read as it will be migrated, one record per
 * set from `legacySets`, so a read-only listing shows what `migrateLegacy` writes.
 */
export function withSets(rows: Rows, legacySets: LegacySets): KeyRecord[] {
  const out: KeyRecord[] = [];
  const seen = new Set<string>();
  for (const { payload: rec } of rows) {
    const sets = isKeySet(rec.set) ? [rec.set] : legacySets(rec.alg);
    for (const set of sets) {
      const id = recordId(set, rec.kid);
      if (seen.has(id)) continue; // already migrated: the set's own record wins
      seen.add(id);
      out.push({ ...rec, set });
    }
  }
  // Migrated copies first in the list would shadow nothing, but keep a stable order anyway.
  return out.sort(
    (a, b) => KEY_SETS.indexOf(a.set) - KEY_SETS.indexOf(b.set) || (a.serial ?? 0) - (b.serial ?? 0),
  );
}

/**
 * Rewrite records written before key sets: one record per set the key served (the copies
 * first, then the original in place, marked oidc), so a crash midway leaves a legacy record
 * that the next load migrates again. Idempotent; concurrent instances write identical records.
 * The sealed private key is copied as is (its AAD is the kid, not the record id).
 */
export async function migrateLegacy(
  store: Model<PersistedKeyRecord>,
  rows: Rows,
  legacySets: LegacySets,
  audit: AuditTrail,
): Promise<void> {
  for (const { id, payload: rec } of rows) {
    if (isKeySet(rec.set)) continue;
    const sets = legacySets(rec.alg);
    for (const set of sets)
      if (recordId(set, rec.kid) !== id) await store.upsert(recordId(set, rec.kid), { ...rec, set });
    if (sets.includes('oidc')) await store.upsert(id, { ...rec, set: 'oidc' });
    else await store.destroy(id);
    audit.emit({ op: 'key.migrate', kid: rec.kid, alg: rec.alg, sets: [...sets] });
  }
}
