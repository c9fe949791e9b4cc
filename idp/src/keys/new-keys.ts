/**
 * Keys entering a set: made by the set's custodian (a first key, a rotation), or registered from
 * a KMS/HSM (`pqid keys import`). Either way the key is published at once and signs from
 * `activateAt`, and leaves an audit line.
 */
import type { KeySet } from '../policy/key-sets.ts';
import { CustodyError, type ExternalRef } from './custody.ts';
import { RotationPending } from './errors.ts';
import type { KeyOps } from './operations.ts';
import { custodyLabel, type KeyRecord, newRecord } from './record.ts';
import type { SigningKeys } from './signing-keys.ts';

/** A new key of `alg` in `set`, signing from `activateAt`; its handle is kept by its custodian. */
export async function createKey(
  ops: KeyOps,
  alg: string,
  set: KeySet,
  activateAt: number,
): Promise<KeyRecord> {
  const made = await ops.custodian(set).create(alg, set);
  const key = { alg, set, publicJwk: made.publicJwk, custody: made.custody };
  const record = newRecord(key, { now: ops.ring.now(), activateAt }, ops.ring.records);
  await ops.ring.put(record, made.open);
  entered(ops, 'key.create', record);
  return record;
}

/** The audit line of a key entering its set. */
function entered(ops: KeyOps, op: 'key.create' | 'key.import', record: KeyRecord): void {
  const { kid, alg, set, status, activateAt } = record;
  ops.audit.emit({
    op,
    kid,
    alg,
    set,
    custody: custodyLabel(record),
    status,
    ...(activateAt !== undefined ? { activateAt } : {}),
  });
}

/** When a new key of `alg` signs: after `prepublish`, or at once (asked for, or nothing to roll over from). */
export function activation(
  ops: KeyOps,
  key: { alg: string; set: KeySet },
  immediate: boolean | undefined,
  now = ops.ring.now(),
): number {
  // Nothing to roll over from: a first key signs at once (nobody can hold an older one).
  return immediate || !ops.ring.find(key.set, key.alg, 'active') ? now : now + ops.prepublish;
}

/**
 * Register a key that lives in a KMS/HSM: it enters `set` like a rotation — published now,
 * signing after `prepublish` (at once with `immediate`, or when the set has no key of `alg`
 * yet). Refused when the set has it already, or a staged key of `alg` waits.
 */
export async function importKey(
  ops: KeyOps,
  signing: SigningKeys,
  key: { ref: ExternalRef; alg: string; set: KeySet },
  immediate: boolean | undefined,
): Promise<KeyRecord> {
  const { ref, alg, set } = key;
  const found = await signing.external(ref, alg);
  const kid = String(found.publicJwk.kid);
  if (ops.ring.records.some((r) => r.set === set && r.kid === kid)) {
    const reason = `key ${kid} is already in the ${set} set`;
    ops.audit.refuse('import', reason, { kid, alg, set });
    throw new CustodyError('ERR_KEY_EXISTS', reason);
  }
  const pending = ops.ring.find(set, alg, 'next');
  if (pending) {
    const reason = `${alg} (${set}): key ${pending.kid} is already staged; activate it (rotate --now) or remove it first`;
    ops.audit.refuse('import', reason, { kid, alg, set });
    throw new RotationPending(reason);
  }
  const activateAt = activation(ops, key, immediate);
  const record = newRecord({ alg, set, ...found }, { now: ops.ring.now(), activateAt }, ops.ring.records);
  await found.open();
  await ops.ring.put(record);
  entered(ops, 'key.import', record);
  return record;
}
