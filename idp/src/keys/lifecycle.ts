/**
 * Key states are derived from timestamps, never stored as mutable flags: a rotation only inserts
 * a record with a future `activateAt`. Any process reading the same records at the same time
 * agrees on which key signs, so the CLI can rotate while the server runs, without messaging it.
 *
 *   next     activateAt is in the future: published in the JWKS, signs nothing yet.
 *   active   the newest key of its algorithm whose activateAt has passed: signs.
 *   retired  superseded by a newer active key: published until every token it signed has
 *            expired (successor's activateAt + retention), then removed.
 */
export type KeyStatus = 'next' | 'active' | 'retired';

export interface KeyTimes {
  kid: string;
  alg: string;
  createdAt: number;
  /** Absent on records written before rotation existed: they became active when created. */
  activateAt?: number;
  /** Creation order: breaks ties between keys activated in the same second. */
  serial?: number;
}

export interface KeyState {
  kid: string;
  alg: string;
  status: KeyStatus;
  activateAt: number;
  /** When a newer key took over (retired keys only). */
  retiredAt?: number;
  /** When it leaves the JWKS and storage (retired keys only). */
  removeAt?: number;
}

export const activation = (k: KeyTimes): number => k.activateAt ?? k.createdAt;

/**
 * States of every key at `now`. `retention(alg)` is how long a retired key stays published: the
 * longest lifetime of anything its algorithm signs. Ties on activateAt go to the later serial.
 */
export function keyStates(keys: readonly KeyTimes[], now: number, retention: (alg: string) => number) {
  const byAlg = new Map<string, KeyTimes[]>();
  for (const k of keys) byAlg.set(k.alg, [...(byAlg.get(k.alg) ?? []), k]);
  const states = new Map<string, KeyState>();
  for (const [alg, list] of byAlg) {
    const ordered = [...list].sort(
      (a, b) => activation(a) - activation(b) || (a.serial ?? 0) - (b.serial ?? 0),
    );
    const live = ordered.filter((k) => activation(k) <= now);
    for (const k of ordered) {
      const activateAt = activation(k);
      if (activateAt > now) {
        states.set(k.kid, { kid: k.kid, alg, status: 'next', activateAt });
        continue;
      }
      const successor = live[live.indexOf(k) + 1];
      if (!successor) {
        states.set(k.kid, { kid: k.kid, alg, status: 'active', activateAt });
        continue;
      }
      const retiredAt = activation(successor);
      states.set(k.kid, {
        kid: k.kid,
        alg,
        status: 'retired',
        activateAt,
        retiredAt,
        removeAt: retiredAt + retention(alg),
      });
    }
  }
  return states;
}
