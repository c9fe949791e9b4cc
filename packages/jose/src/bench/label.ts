import { lookup } from '../algorithms/registry.ts';
import { chooseBackend, chooseSlhDsa } from '../backends/select.ts';

/**
 * Where an algorithm's JOSE operations run: the ML-DSA or SLH-DSA backend the selector picks
 * (composites need context support; their traditional half is node:crypto), or jose for
 * classical ones.
 */
export function backendFor(alg: string): string {
  const family = lookup(alg).family;
  if (family === 'classical') return 'jose (node:crypto)';
  if (family === 'slh-dsa') return chooseSlhDsa().name;
  const b = chooseBackend({ context: family === 'composite' }).name;
  return family === 'composite' ? `${b} + node:crypto` : b;
}
