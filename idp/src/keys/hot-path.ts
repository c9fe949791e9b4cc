/**
 * What may sign on the hot path (a signature per token or SAML response), and what discovery
 * therefore advertises. SLH-DSA is the cold-path algorithm: at tens (-128f) to hundreds (-128s)
 * of milliseconds per signature it would cap a core at a few tokens per second (the load suite's
 * placement study measures it). It is refused for clients, SPs and placement unless the operator
 * sets `keys.allowSlhDsaHotPath`; then every start says what it costs, measured on this machine.
 */
import { algorithms, signJwt } from '@pqid/jose';
import { type Client, signingAlgs } from '../clients/clients.ts';
import type { Config } from '../config.ts';
import type { KeyManager } from './key-manager.ts';
import { isSlowSigner } from './placement.ts';

/** Algorithms that may sign per request under this configuration. */
export function hotPathAlgs(config: Pick<Config, 'keys'>): string[] {
  return algorithms().filter((a) => config.keys.allowSlhDsaHotPath || !isSlowSigner(a));
}

/**
 * What discovery advertises for a purpose: the fixed algorithm when placement pins one (every
 * token of that kind is signed with it), else every algorithm a client may register.
 */
export function advertisedSigningAlgs(
  config: Pick<Config, 'keys'>,
  purpose: 'idToken' | 'userinfo',
): string[] {
  const fixed = config.keys.placement[purpose];
  return fixed !== 'client' ? [fixed] : hotPathAlgs(config);
}

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

/**
 * One signature's CPU time with a key, in milliseconds: what a token signed with it costs, shown
 * to the operator beside a fast algorithm's.
 */
export async function measureSignature(keys: KeyManager, alg: string): Promise<number> {
  const key = await keys.signingKey(alg);
  const start = process.cpuUsage();
  await signJwt({ probe: 'cost of one signature' }, key, { expiresIn: 60 });
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
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
