import { readFileSync } from 'node:fs';

export const VECTORS = '/work/shared/vectors';
export const ACVP = `${VECTORS}/acvp-v1.1.0.43`;

export const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'hex'));
export const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex').toUpperCase();
export const readJson = <T = any>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/** Joins prompt and expectedResults of an ACVP vector set on (tgId, tcId). */
export function acvp(dir: string): { group: any; test: any; expected: any }[] {
  const prompt = readJson(`${ACVP}/${dir}/prompt.json`);
  const results = readJson(`${ACVP}/${dir}/expectedResults.json`);
  const byId = new Map<string, any>();
  for (const g of results.testGroups) for (const t of g.tests) byId.set(`${g.tgId}:${t.tcId}`, t);
  const out: { group: any; test: any; expected: any }[] = [];
  for (const g of prompt.testGroups) {
    for (const t of g.tests) out.push({ group: g, test: t, expected: byId.get(`${g.tgId}:${t.tcId}`) });
  }
  return out;
}
