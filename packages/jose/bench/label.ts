import { COMPOSITES, signsWhole } from '../src/algorithms/composite.ts';
import { lookup } from '../src/algorithms/registry.ts';
import { chooseBackend, chooseSlhDsa } from '../src/backends/select.ts';

/**
 * Where an algorithm's JOSE operations run: the ML-DSA or SLH-DSA backend the selector picks
 * (composites need context support; a backend with whole-composite support signs both halves
 * of the composites it handles, elsewhere the traditional half is node:crypto's), or jose for
 * classical ones.
 */
export function backendFor(alg: string): string {
  const family = lookup(alg).family;
  if (family === 'classical') return 'jose (node:crypto)';
  if (family === 'slh-dsa') return chooseSlhDsa().name;
  const b = chooseBackend({ context: family === 'composite' });
  if (family !== 'composite') return b.name;
  const spec = COMPOSITES.find((c) => c.alg === alg);
  return spec && signsWhole(b, spec) ? `${b.name} (both halves)` : `${b.name} + node:crypto`;
}
