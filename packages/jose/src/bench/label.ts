import { lookup } from '../algorithms/registry.ts';
import { chooseBackend } from '../backends/select.ts';

/**
 * Where an algorithm's JOSE operations run: the ML-DSA backend chooseBackend picks (composites
 * need context support; their traditional half is node:crypto), or jose for classical ones.
 */
export function backendFor(alg: string): string {
  const family = lookup(alg).family;
  if (family === 'classical') return 'jose (node:crypto)';
  const b = chooseBackend({ context: family === 'composite' }).name;
  return family === 'composite' ? `${b} + node:crypto` : b;
}
