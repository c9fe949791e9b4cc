/**
 * docs/ARCHITECTURE.md draws the layers of the IdP, @pqid/jose and @pqid/xmldsig; the dependency
 * checker (.dependency-cruiser.cjs, `npm run deps`) enforces its own copy of them. This holds the
 * two to each other: the same layers, in the same order, naming the same modules.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const root = new URL('../', import.meta.url);
const doc = readFileSync(new URL('docs/ARCHITECTURE.md', root), 'utf8');
type Layers = Array<[string, string[]]>;
const config = createRequire(import.meta.url)('../.dependency-cruiser.cjs') as {
  layers: Record<string, Layers>;
};

/** A checker pattern as the page writes it: `main\.ts$` → `main.ts`, `(a|b)` → `{a,b}`. */
function asWritten(pattern: string): string {
  return pattern
    .replace(/\$$/, '')
    .replace(/\\\./g, '.')
    .replace(/\(([^)]*)\)/g, (_, alts: string) => `{${alts.split('|').join(',')}}`);
}

const MODULE = /^[\w./{},-]+$/;

/** The layers of the picture under `heading`: each row's name and the modules it lists. */
function drawnLayers(markdown: string, heading: string): Layers {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no section "${heading}"`);
  const open = markdown.indexOf('```\n', start);
  const block = markdown.slice(open + 4, markdown.indexOf('\n```', open + 4));
  const layers: Layers = [];
  for (const line of block.split('\n')) {
    if (!/\w/.test(line)) continue;
    const fields = line.trim().split(/\s{2,}/);
    // A new row names its layer in the first column; a continuation line is indented further.
    if (/^ \S/.test(line)) layers.push([fields.shift() as string, []]);
    const modules = fields.flatMap((f) => f.split(' · ')).filter((m) => MODULE.test(m) && /[/.]/.test(m));
    layers.at(-1)?.[1].push(...modules);
  }
  return layers;
}

const TREES: Array<[string, string]> = [
  ['^idp/src/', "The IdP's layers"],
  ['^packages/jose/src/', "@pqid/jose's layers"],
  ['^packages/xmldsig/src/', "@pqid/xmldsig's layers"],
];

describe('docs/ARCHITECTURE.md and the dependency checker', () => {
  for (const [prefix, heading] of TREES)
    it(`draw the same layers for ${prefix.slice(1, -1)}`, () => {
      const checked = config.layers[prefix];
      expect(checked, prefix).toBeDefined();
      const drawn = drawnLayers(doc, heading);
      expect(drawn.map(([name]) => name)).toEqual(checked?.map(([name]) => name));
      for (const [name, patterns] of checked ?? []) {
        const modules = drawn.find(([n]) => n === name)?.[1] ?? [];
        expect(new Set(modules), name).toEqual(new Set(patterns.map(asWritten)));
      }
    });

  it('reads a picture as the page draws it', () => {
    const page = [
      '## Sample',
      '',
      '```',
      ' top          index.ts                 the API',
      ' ─────────────────────────────────',
      ' middle       a/ · b.ts                what a does,',
      '              c/{d,e}.ts   f/           and the rest (KMS/HSM)',
      '```',
    ].join('\n');
    expect(drawnLayers(`\n${page}`, 'Sample')).toEqual([
      ['top', ['index.ts']],
      ['middle', ['a/', 'b.ts', 'c/{d,e}.ts', 'f/']],
    ]);
    expect(asWritten('x509/(parse|pem)\\.ts$')).toBe('x509/{parse,pem}.ts');
  });
});
