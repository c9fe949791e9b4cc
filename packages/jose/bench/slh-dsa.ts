/**
 * Raw SLH-DSA (`slhdsa.generate` / `slhdsa.sign` / `slhdsa.verify`) per parameter set per backend,
 * for the bench report. SLH-DSA signs in milliseconds to seconds, so a cell takes at least
 * MIN_SAMPLES samples (fewer than the ML-DSA cells' 20) after one warm-up run.
 */
import { randomBytes } from 'node:crypto';
import { SLHDSA_ALGS, type SlhDsaAlg } from '../src/backends/params.ts';
import { type BackendName, backends, slhdsa } from '../src/index.ts';
import { mdTable } from './markdown.ts';
import { fmtInt, fmtUs, measure, type Stats } from './measure.ts';

export const MIN_SAMPLES = 3;

export interface SlhRow {
  alg: SlhDsaAlg;
  backend: BackendName;
  keygen: Stats;
  sign: Stats;
  verify: Stats;
}

export async function slhRows(budgetMs: number, progress: (s: string) => void): Promise<SlhRow[]> {
  const rows: SlhRow[] = [];
  const message = randomBytes(1024);
  const opts = { budgetMs, minSamples: MIN_SAMPLES, minWarmup: 1 };
  for (const alg of SLHDSA_ALGS) {
    for (const b of backends().filter((x) => x.available && x.capabilities.slhDsa)) {
      const o = { backend: b.name };
      const { publicKey, secretKey } = await slhdsa.generate(alg, o);
      const sig = await slhdsa.sign(alg, secretKey, message, o);
      if (!(await slhdsa.verify(alg, publicKey, message, sig, o)))
        throw new Error(`${alg} on ${b.name}: own signature did not verify`);
      progress(`slh  ${alg} ${b.name}`);
      rows.push({
        alg,
        backend: b.name,
        keygen: await measure(() => slhdsa.generate(alg, o), opts),
        sign: await measure(() => slhdsa.sign(alg, secretKey, message, o), opts),
        verify: await measure(() => slhdsa.verify(alg, publicKey, message, sig, o), opts),
      });
    }
  }
  return rows;
}

export function slhSection(rows: SlhRow[]): string {
  const L = 'l' as const;
  const R = 'r' as const;
  return mdTable(
    [
      'alg',
      'backend',
      'keygen median',
      'sign median',
      'sign p99',
      'verify median',
      'sign ops/s',
      'verify ops/s',
    ],
    rows.map((r) => [
      r.alg,
      r.backend,
      fmtUs(r.keygen.median),
      fmtUs(r.sign.median),
      fmtUs(r.sign.p99),
      fmtUs(r.verify.median),
      fmtInt(r.sign.opsPerSec),
      fmtInt(r.verify.opsPerSec),
    ]),
    [L, L, R, R, R, R, R, R],
  );
}
