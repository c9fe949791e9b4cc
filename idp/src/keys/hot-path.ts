/**
 * What may sign on the hot path (a signature per token or SAML response), and what discovery
 * therefore advertises. SLH-DSA is the cold-path algorithm: at tens (-128f) to hundreds (-128s)
 * of milliseconds per signature it would cap a core at a few tokens per second (the load suite's
 * placement study measures it). It is refused for clients, SPs and placement unless the operator
 * sets `keys.allowSlhDsaHotPath`; then every start says what it costs, measured on this machine.
 */
import { signJwt } from '@pqid/jose';
import type { Config } from '../config/index.ts';
import { hotPathAlgorithms } from '../policy/algorithms.ts';
import type { KeyManager } from './key-manager.ts';

/** Algorithms that may sign per request under this configuration. */
export function hotPathAlgs(config: Pick<Config, 'keys'>): string[] {
  return hotPathAlgorithms(config.keys.allowSlhDsaHotPath);
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
