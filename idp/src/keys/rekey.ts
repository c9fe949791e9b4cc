/**
 * Re-sealing every sealed key under the current KEK (`pqid keys rekey`), in one transaction: the
 * store is never half re-sealed. Keys sealed under a previous KEK need it in the keyring
 * (`PQID_KEK_PREVIOUS`, or the KEK file's later lines); one that no KEK opens aborts the whole
 * rekey and changes nothing. External keys have nothing to re-seal.
 */
import { type Kek, kekId, reseal, sealedUnderCurrent } from '../crypto/kek.ts';
import type { Model } from '../storage/model.ts';
import type { PersistedKeyRecord } from './record.ts';

export interface RekeyResult {
  /** Records re-sealed under the current KEK now. */
  resealed: number;
  /** Records already sealed under it. */
  current: number;
  /** Records of external keys (nothing to re-seal). */
  external: number;
  /** KEK ids the re-sealed records were sealed under (absent id: `unknown`). */
  from: string[];
  /** The current KEK's id. */
  to: string;
}

export async function rekeyStore(store: Model<PersistedKeyRecord>, kek: Kek): Promise<RekeyResult> {
  const result: RekeyResult = { resealed: 0, current: 0, external: 0, from: [], to: kekId(kek.key) };
  const from = new Set<string>();
  await store.rewriteAll((_id, rec) => {
    if (!rec.privateJwk) {
      result.external++;
      return undefined;
    }
    if (sealedUnderCurrent(kek, rec.privateJwk)) {
      result.current++;
      return undefined;
    }
    from.add(rec.privateJwk.kek ?? 'unknown');
    result.resealed++;
    return { ...rec, privateJwk: reseal(kek, rec.privateJwk, rec.kid) };
  });
  result.from = [...from];
  return result;
}
