// packages/jose/README.md is what npm shows: its algorithm table must list every registry entry
// with the sizes the registry has, and its error table every error code the package exports.
import { readFileSync } from 'node:fs';
import * as jose from '@pqid/jose';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const section = (title: string) => readme.slice(readme.indexOf(`## ${title}`)).split('\n## ')[0] ?? '';
/** Table rows whose first cell is code (for the algorithm table that includes its header). */
const rows = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((l) =>
      l
        .split('|')
        .map((c) => c.trim())
        .slice(1, -1),
    );

describe('packages/jose/README.md', () => {
  it('has every algorithm of the registry, with its sizes', () => {
    const table = new Map<string, string[]>();
    for (const r of rows(section('Algorithms')).slice(1)) {
      for (const alg of (r[0] ?? '').match(/`[^`]+`/g) ?? []) table.set(alg.slice(1, -1), r);
    }
    const size = (cell: string | undefined) => (cell === '—' ? undefined : Number(cell?.replace(/^≤ /, '')));
    for (const e of jose.registry()) {
      const r = table.get(e.alg);
      expect(r, `${e.alg} is missing from the README's algorithm table`).toBeDefined();
      expect(size(r?.[3]), `${e.alg} public key`).toBe(e.sizes.publicKey);
      if (size(r?.[4]) !== undefined) expect(size(r?.[4]), `${e.alg} private key`).toBe(e.sizes.privateKey);
      expect(size(r?.[5]), `${e.alg} signature`).toBe(e.sizes.signature);
    }
    expect([...table.keys()].sort()).toEqual(
      jose
        .registry()
        .map((e) => e.alg)
        .sort(),
    );
  });

  it('has every JWE algorithm of the registry, with its key and KEM ciphertext sizes', () => {
    const table = new Map<string, string[]>();
    for (const r of rows(section('Encryption (JWE)')).slice(1)) {
      for (const alg of (r[0] ?? '').match(/`[^`]+`/g) ?? []) table.set(alg.slice(1, -1), r);
    }
    for (const e of jose.jweRegistry()) {
      const r = table.get(e.alg);
      expect(r, `${e.alg} is missing from the README's encryption table`).toBeDefined();
      expect(Number(r?.[4]), `${e.alg} public key`).toBe(e.sizes.publicKey);
      expect(Number(r?.[5]), `${e.alg} private key`).toBe(e.sizes.privateKey);
      expect(Number(r?.[6]), `${e.alg} KEM ciphertext`).toBe(e.sizes.encapsulatedSecret);
      expect(r?.[7], `${e.alg} quantum-safe`).toBe(e.hybrid ? 'PQ/T hybrid' : e.pq ? 'PQ' : 'no');
      if (e.hpke) expect(r?.[1], `${e.alg} KEM`).toContain(e.hpke.kem.name);
    }
    expect(table.size).toBe(jose.jweRegistry().length);
  });

  it('has every error code, with its class', () => {
    const table = new Map(rows(section('Errors')).map((r) => [r[0]?.slice(1, -1), r[1]?.slice(1, -1)]));
    const classes = Object.entries(jose).filter(
      ([, v]) => typeof v === 'function' && v.prototype instanceof jose.PqidError,
    ) as [string, { code: string }][];
    expect(classes.length).toBeGreaterThan(10);
    for (const [name, cls] of classes) expect(table.get(cls.code), cls.code).toBe(name);
    expect(table.size).toBe(classes.length);
  });
});
