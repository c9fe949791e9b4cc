/**
 * Where SLH-DSA signs per request because of a client's registration or the placement, and what
 * that costs here: every start says so (keys/hot-path.ts has what may sign on the hot path).
 */
import type { Config } from '../config/index.ts';
import { measureSignature } from '../keys/hot-path.ts';
import type { KeyManager } from '../keys/key-manager.ts';
import { isSlowSigner } from '../policy/algorithms.ts';
import { type Client, signingAlgs } from './clients.ts';

export interface SlowHotPathUse {
  alg: string;
  /** Client ids (and `placement.<object>`) that put it on the hot path. */
  users: string[];
}

/** Where SLH-DSA signs per request under this configuration and these registrations. */
export function slowHotPathUses(config: Config, clients: readonly Client[]): SlowHotPathUse[] {
  const uses = new Map<string, string[]>();
  const add = (alg: string, who: string) => {
    if (isSlowSigner(alg)) uses.set(alg, [...(uses.get(alg) ?? []), who]);
  };
  for (const pk of ['idToken', 'accessToken', 'userinfo'] as const)
    add(config.keys.placement[pk], `placement.${pk}`);
  for (const c of clients)
    for (const alg of new Set(signingAlgs(c, config.accessTokenSigningAlg))) add(alg, c.client_id);
  return [...uses].map(([alg, users]) => ({ alg, users }));
}

/** The start-up warning for SLH-DSA on the hot path: who uses it, and what it costs here. */
export async function warnSlowHotPath(
  config: Config,
  keys: KeyManager,
  clients: readonly Client[],
  warn: (message: string) => void,
): Promise<SlowHotPathUse[]> {
  const uses = slowHotPathUses(config, clients);
  if (uses.length === 0) return uses;
  const fast = await measureSignature(keys, config.defaultSigningAlg).catch(() => Number.NaN);
  for (const u of uses) {
    const ms = await measureSignature(keys, u.alg).catch(() => Number.NaN);
    const allowed = config.keys.allowSlhDsaHotPath
      ? 'allowed by keys.allowSlhDsaHotPath'
      : 'registered before keys.allowSlhDsaHotPath existed; new registrations of it are refused';
    warn(
      `${u.alg} signs on the hot path (${u.users.join(', ')}; ${allowed}): one signature took ${ms.toFixed(1)} ms of CPU here against ${fast.toFixed(2)} ms for ${config.defaultSigningAlg}. Every token signed with it pays that: at most ${Math.floor(1000 / ms)} per core-second. SLH-DSA belongs on the cold path (docs/KEYS.md, "SLH-DSA on the hot path").`,
    );
  }
  return uses;
}
