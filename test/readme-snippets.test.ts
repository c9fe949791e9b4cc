/**
 * Every code block of the READMEs and docs/ (every Markdown file git tracks, less vendored notes
 * and test vectors) as a reader meets it:
 *
 * - JavaScript and TypeScript blocks run as written, each as a module in a project outside the
 *   repository that installed the tarballs of `npm run pack` (packed once per run) and the other
 *   packages the blocks import, at this repository's versions; TypeScript runs through Node's type
 *   stripping. A block marked `<!-- snippet: continues -->` runs after the block before it, as one
 *   program; one marked `<!-- snippet: skip — reason -->` is listed with its reason, not run. A
 *   failure names the Markdown file and line.
 * - Every JS/TS block parses, the skipped ones included.
 * - Shell blocks are not run, but an `npm run`/`npm start`/`npm test` in them names a script that
 *   exists, a path into the repository is there, and the CLI is called as `npx pqid` (its bin is
 *   on no PATH).
 * - JSON blocks parse.
 *
 * Needs the npm registry for the packages' own dependencies, like test/packages.test.ts: where it
 * is unreachable the running part is skipped with the reason, except under CI.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, repo, why } from './helpers/npm.ts';
import { fileDependencies, installProject, type Packed, packAll, packProblem } from './helpers/packed.ts';
import {
  type Block,
  blocks,
  imports,
  isCode,
  isShell,
  markdownFiles,
  programs,
  shellProblems,
  sourceLine,
} from './helpers/snippets.ts';

const files = markdownFiles(repo);
const all = files.flatMap((f) => blocks(f, readFileSync(join(repo, f), 'utf8')));
const byFile = files.map((f) => programs(all.filter((b) => b.file === f)));
const run = byFile.flatMap((p) => p.run);
const skipped = byFile.flatMap((p) => p.skipped);
const at = (b: Block) => `${b.file}:${b.line}`;

describe('the code blocks of the READMEs and docs', () => {
  it('finds the READMEs and their snippets', () => {
    expect(files).toEqual(
      expect.arrayContaining(['README.md', 'packages/jose/README.md', 'native/README.md']),
    );
    expect(run.length).toBeGreaterThan(5);
  });

  it('reads the markers, and the shell check finds what is missing', () => {
    const md = [
      '```js',
      'const a = 1;',
      '```',
      '<!-- snippet: continues -->',
      '```ts',
      'console.log(a);',
      '```',
      '<!-- snippet: skip — needs a KMS -->',
      '```js',
      'kms.sign();',
      '```',
    ].join('\n');
    const { run: r, skipped: s } = programs(blocks('X.md', md));
    expect(r.map((p) => [p.name, p.typescript, p.code])).toEqual([
      ['X.md:1+5', true, 'const a = 1;\nconsole.log(a);'],
    ]);
    expect(sourceLine(r[0] as (typeof r)[0], 2)).toBe('X.md:6');
    expect(s.map((b) => [b.line, b.mark])).toEqual([[9, { kind: 'skip', reason: 'needs a KMS' }]]);
    expect(() => programs(blocks('X.md', `${md}\n<!-- snippet: continues -->\n\`\`\`js\nx\n\`\`\``))).toThrow(
      /continues no runnable block/,
    );
    expect(() => blocks('X.md', '<!-- snippet: skip -->\n```js\nx\n```')).toThrow(/needs its reason/);

    expect(
      shellProblems(
        repo,
        'npm start && npm run build -w native\nnode native/scripts/pack-platform.mjs --out out/',
      ),
    ).toEqual([]);
    expect(
      shellProblems(
        repo,
        [
          'npm run no-such-script -- x   # a comment naming scripts/none.sh',
          'npm run build -w no-such-workspace',
          'X=1 npm run call -w native',
          'cd native && node scripts/no-such.mjs',
          'bash load/scripts/gone.sh > docs/out.txt',
          'printf x | pqid users passwd alice; npx pqid users list',
        ].join('\n'),
      ),
    ).toEqual([
      'npm run no-such-script -- x: no npm script "no-such-script" in the root package.json',
      'npm run build -w no-such-workspace: no workspace no-such-workspace',
      'X=1 npm run call -w native: no npm script "call" in native package.json',
      'cd native && node scripts/no-such.mjs: native/scripts/no-such.mjs does not exist',
      'bash load/scripts/gone.sh > docs/out.txt: load/scripts/gone.sh does not exist',
      'pqid users passwd alice: pqid is not on PATH: write npx pqid',
    ]);
  });

  describe('JavaScript and TypeScript blocks parse', () => {
    it.each(all.filter(isCode).map((b) => [at(b), b] as const))('%s', (_, b) => {
      const { diagnostics } = ts.transpileModule(b.code, {
        fileName: `snippet.${b.lang.startsWith('t') ? 'mts' : 'mjs'}`,
        reportDiagnostics: true,
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023 },
      });
      const messages = (diagnostics ?? []).map((d) => {
        const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : 0;
        return `${b.file}:${b.line + 1 + line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
      expect(messages).toEqual([]);
    });
  });

  describe('shell blocks name npm scripts and paths that exist', () => {
    it.each(all.filter(isShell).map((b) => [at(b), b] as const))('%s', (_, b) => {
      expect(shellProblems(repo, b.code).map((p) => `${at(b)}: ${p}`)).toEqual([]);
    });
  });

  describe('JSON blocks parse', () => {
    it.each(all.filter((b) => b.lang === 'json').map((b) => [at(b), b] as const))('%s', (_, b) => {
      expect(() => JSON.parse(b.code), at(b)).not.toThrow();
    });
  });
});

const problem = packProblem();
if (problem && !process.env.CI) console.warn(`readme-snippets: the snippets are not run: ${problem}`);

describe.skipIf(problem && !process.env.CI)(
  'every JS/TS snippet runs as written against the packed packages',
  () => {
    const temps: string[] = [];
    let project: string;
    /** Packages a snippet imports that are neither packed nor a dependency of this repository. */
    const unknown = new Set<string>();

    beforeAll(() => {
      if (problem) throw new Error(problem); // under CI only: outside it, the suite is skipped
      const { out, packed } = packAll();
      temps.push(out);
      const ours = new Set(packed.map((p: Packed) => p.name));
      // What else the snippets import: a reader installs it; here at the version this repository uses.
      const others: Record<string, string> = {};
      for (const name of new Set(run.flatMap((p) => imports(p.code)))) {
        const manifest = join(repo, 'node_modules', name, 'package.json');
        if (ours.has(name)) continue;
        // A workspace of this repository that is not packed (the IdP, the examples) is not installable.
        const fromRegistry = existsSync(manifest) && !lstatSync(dirname(manifest)).isSymbolicLink();
        if (fromRegistry) others[name] = JSON.parse(readFileSync(manifest, 'utf8')).version;
        else unknown.add(name);
      }
      project = installProject(
        { ...fileDependencies(packed), ...others },
        process.execPath,
        `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
        'pqid-snippets-',
      );
      temps.push(project);
      if (skipped.length)
        console.info(
          `readme-snippets: ${skipped.length} block(s) not run:\n${skipped
            .map((b) => `  ${at(b)} — ${b.mark?.kind === 'skip' ? b.mark.reason : ''}`)
            .join('\n')}`,
        );
    }, 600_000);
    afterAll(() => {
      for (const d of temps) rmSync(d, { recursive: true, force: true });
    });

    it.each(run.map((p, i) => [p.name, p, i] as const))('%s', (name, p, i) => {
      const missing = imports(p.code).filter((n) => unknown.has(n));
      expect(
        missing,
        `${name} imports ${missing.join(', ')}, neither a pqid package nor a dependency of this repository: mark it <!-- snippet: skip — why -->`,
      ).toEqual([]);
      const file = `snippet-${i}.${p.typescript ? 'mts' : 'mjs'}`;
      writeFileSync(join(project, file), p.code);
      const r = spawnSync(process.execPath, [file], {
        cwd: project,
        env: cleanEnv(`${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`),
        encoding: 'utf8',
        timeout: 60_000,
      });
      // Point at the Markdown, not at the temporary file.
      const where = (text: string) =>
        text.replace(new RegExp(`\\S*${file.replace('.', '\\.')}:(\\d+)(:\\d+)?`, 'g'), (_, n) =>
          sourceLine(p, Number(n)),
        );
      expect(r.status, `${name} did not run as written:\n${where(why(r))}`).toBe(0);
    });

    it('the TypeScript snippets type-check against the packed declarations', () => {
      const typed = run.filter((p) => p.typescript);
      expect(typed.length).toBeGreaterThan(0);
      const names = typed.map((p, i) => {
        writeFileSync(join(project, `typed-${i}.mts`), p.code);
        return `typed-${i}.mts`;
      });
      const r = spawnSync(
        process.execPath,
        [
          join(repo, 'node_modules/typescript/bin/tsc'),
          ...['--noEmit', '--strict', '--skipLibCheck', '--target', 'es2023', '--lib', 'es2023'],
          ...['--module', 'nodenext', '--moduleResolution', 'nodenext'],
          ...['--types', 'node', '--typeRoots', join(repo, 'node_modules/@types')],
          ...names,
        ],
        { cwd: project, encoding: 'utf8', timeout: 120_000 },
      );
      // typed-3.mts(4,7): error … → the Markdown line
      const errors = r.stdout.replace(/typed-(\d+)\.mts\((\d+),\d+\)/g, (_, i, n) =>
        sourceLine(typed[Number(i)] as (typeof typed)[0], Number(n)),
      );
      expect(r.status, errors || why(r)).toBe(0);
    }, 120_000);

    for (const b of skipped)
      it.skip(`not run: ${at(b)} — ${b.mark?.kind === 'skip' ? b.mark.reason : ''}`, () => {});
  },
);
