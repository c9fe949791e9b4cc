/**
 * Key states are derived from timestamps, never stored as mutable flags: a rotation only inserts
 * a record with a future `activateAt`. Any process reading the same records at the same time
 * agrees on which key signs, so the CLI can rotate while the server runs, without messaging it.
 *
 *   next     activateAt is in the future: published, signs nothing yet.
 *   active   the newest key of its set and algorithm whose activateAt has passed: signs.
 *   retired  superseded by a newer active key: published until everything it signed has
 *            expired (successor's activateAt + retention), then removed.
 *
 * Keys compete only with keys of the same set and algorithm (key-sets.ts): a new OIDC ML-DSA-65
 * key retires the old OIDC one, never a SAML key of the same algorithm.
 */
import { recordId } from '../policy/key-sets.ts';

export type KeyStatus = 'next' | 'active' | 'retired';

export interface KeyTimes {
  kid: string;
  alg: string;
  /** The key set (key-sets.ts); absent only in callers that have a single set. */
  set?: string;
  createdAt: number;
  /** Absent on records written before rotation existed: they became active when created. */
  activateAt?: number;
  /** Creation order: breaks ties between keys activated in the same second. */
  serial?: number;
}

export interface KeyState {
  kid: string;
  alg: string;
  set: string;
  status: KeyStatus;
  activateAt: number;
  /** When a newer key took over (retired keys only). */
  retiredAt?: number;
  /** When it leaves the JWKS and storage (retired keys only). */
  removeAt?: number;
}

export const activation = (k: KeyTimes): number => k.activateAt ?? k.createdAt;

/**
 * States of every key at `now`, by record id (key-sets.ts `recordId`). `retention(alg, set)` is how
 * long a retired key stays published: the longest lifetime of anything it signs. Ties on
 * activateAt go to the later serial.
 */
export function keyStates(
  keys: readonly KeyTimes[],
  now: number,
  retention: (alg: string, set: string) => number,
) {
  const groups = new Map<string, KeyTimes[]>();
  for (const k of keys) {
    const g = `${k.set ?? 'oidc'}\0${k.alg}`;
    groups.set(g, [...(groups.get(g) ?? []), k]);
  }
  const states = new Map<string, KeyState>();
  for (const list of groups.values()) {
    const first = list[0] as KeyTimes;
    const alg = first.alg;
    const set = first.set ?? 'oidc';
    const ordered = [...list].sort(
      (a, b) => activation(a) - activation(b) || (a.serial ?? 0) - (b.serial ?? 0),
    );
    const live = ordered.filter((k) => activation(k) <= now);
    for (const k of ordered) {
      const activateAt = activation(k);
      const id = recordId(k.set, k.kid);
      if (activateAt > now) {
        states.set(id, { kid: k.kid, alg, set, status: 'next', activateAt });
        continue;
      }
      const successor = live[live.indexOf(k) + 1];
      if (!successor) {
        states.set(id, { kid: k.kid, alg, set, status: 'active', activateAt });
        continue;
      }
      const retiredAt = activation(successor);
      states.set(id, {
        kid: k.kid,
        alg,
        set,
        status: 'retired',
        activateAt,
        retiredAt,
        removeAt: retiredAt + retention(alg, set),
      });
    }
  }
  return states;
}
