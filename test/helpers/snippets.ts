/**
 * The code blocks of the repository's Markdown, for test/readme-snippets.test.ts.
 *
 * A JavaScript or TypeScript block runs as written. Two HTML comments, on the line before a
 * block's opening fence, say otherwise:
 *
 *   <!-- snippet: continues -->          the block runs after the previous JS/TS block of the
 *                                        same file, as one program (it uses that block's names)
 *   <!-- snippet: skip — <reason> -->    the block is not run (it still has to parse); the test
 *                                        lists it with its reason
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

export interface Block {
  /** Repository-relative path of the Markdown file. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  code: string;
  /** From a `<!-- snippet: … -->` comment on the line before the fence. */
  mark?: { kind: 'continues' } | { kind: 'skip'; reason: string };
}

/** One program to run: a block and the blocks that continue it. */
export interface Program {
  blocks: Block[];
  /** e.g. `packages/jose/README.md:120` or `README.md:88+96`. */
  name: string;
  typescript: boolean;
  code: string;
}

const JS = new Set(['js', 'javascript', 'mjs']);
const TS = new Set(['ts', 'typescript', 'mts']);
export const isCode = (b: Block) => JS.has(b.lang) || TS.has(b.lang);
export const isShell = (b: Block) => ['sh', 'bash', 'shell', 'console'].includes(b.lang);

/** The Markdown files the tests read: what git tracks (every .md below the root without git), less vendored and test-vector notes. */
export function markdownFiles(repo: string): string[] {
  let listed: string[];
  try {
    listed = execFileSync('git', ['ls-files', '*.md'], { cwd: repo, encoding: 'utf8' }).split('\n');
  } catch {
    listed = readdirSync(repo, { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.md') && !/(^|\/)(node_modules|dist|target)\//.test(f),
    );
  }
  return listed
    .filter((f) => f && !/^(native\/vendor|test\/vectors|load\/reports)\//.test(f))
    .filter((f) => existsSync(join(repo, f)))
    .sort();
}

const MARK = /^<!--\s*snippet:\s*(continues|skip)\s*(?:[—–:-]\s*([\s\S]*?))?\s*-->$/;

/** Every fenced block of a Markdown text, with its marker. */
export function blocks(file: string, text: string): Block[] {
  const lines = text.split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,}|~{3,})\s*([\w+-]*)/.exec(lines[i] as string);
    if (!open) continue;
    const fence = open[1] as string;
    const end = lines.findIndex((l, j) => j > i && l.startsWith(fence) && l.trim() === fence);
    if (end < 0) throw new Error(`${file}:${i + 1}: a code block that is never closed`);
    const block: Block = {
      file,
      line: i + 1,
      lang: (open[2] ?? '').toLowerCase(),
      code: lines.slice(i + 1, end).join('\n'),
    };
    const before = (lines[i - 1] ?? '').trim();
    if (before.startsWith('<!--') && /snippet:/.test(before)) {
      const m = MARK.exec(before);
      if (!m) throw new Error(`${file}:${i}: cannot read ${before}`);
      if (m[1] === 'continues') block.mark = { kind: 'continues' };
      else if (m[2]) block.mark = { kind: 'skip', reason: m[2] };
      else throw new Error(`${file}:${i}: a skipped snippet needs its reason (snippet: skip — why)`);
    }
    out.push(block);
    i = end;
  }
  return out;
}

/**
 * The JS/TS programs of a file: each runnable block with the blocks that continue it. A
 * continuation of a skipped block, or of nothing, is an error.
 */
export function programs(fileBlocks: Block[]): { run: Program[]; skipped: Block[] } {
  const run: Program[] = [];
  const skipped: Block[] = [];
  let last: Program | Block | undefined;
  for (const b of fileBlocks.filter(isCode)) {
    if (b.mark?.kind === 'skip') {
      skipped.push(b);
      last = b;
      continue;
    }
    if (b.mark?.kind === 'continues') {
      if (!last || !('blocks' in last))
        throw new Error(
          `${b.file}:${b.line}: continues no runnable block (the one before is skipped or absent)`,
        );
      last.blocks.push(b);
      continue;
    }
    last = { blocks: [b], name: '', typescript: false, code: '' };
    run.push(last);
  }
  for (const p of run) {
    p.name = `${p.blocks[0]?.file}:${p.blocks.map((b) => b.line).join('+')}`;
    p.typescript = p.blocks.some((b) => TS.has(b.lang));
    p.code = p.blocks.map((b) => b.code).join('\n');
  }
  return { run, skipped };
}

/** Where line `n` (1-based) of a program's code stands in its Markdown file. */
export function sourceLine(p: Program, n: number): string {
  let left = n;
  for (const b of p.blocks) {
    const count = b.code.split('\n').length;
    if (left <= count) return `${b.file}:${b.line + left}`;
    left -= count;
  }
  return p.name;
}

/** Package names a program imports (bare specifiers, `node:` excluded). */
export function imports(code: string): string[] {
  const names = new Set<string>();
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"./][^'"]*)['"]/g)) {
    const spec = m[1] as string;
    if (spec.startsWith('node:')) continue;
    const parts = spec.split('/');
    names.add(spec.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string));
  }
  return [...names];
}

// --- shell blocks ----------------------------------------------------------------------------

/** The commands of a shell block: continuation lines joined, comments dropped, split at && ; |. */
export function shellCommands(code: string): string[] {
  const joined = code.replace(/\\\n/g, ' ');
  const out: string[] = [];
  for (const raw of joined.split('\n')) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (!line) continue;
    let cwd = '';
    for (const part of line.split(/\s*(?:&&|\|\||;|\|)\s*/)) {
      const cd = /^cd\s+(\S+)$/.exec(part);
      if (cd) cwd = posix.join(cwd, cd[1] as string);
      else if (part) out.push(cwd ? `cd ${cwd} && ${part}` : part);
    }
  }
  return out;
}

const REPO_DIRS =
  /^(?:\.\/)?(?:native|idp|load|scripts|packages|examples|docs|test|\.ci|node_modules\/\.bin)\//;
const OUTPUT_FLAGS = new Set(['--out', '-o', '--public-out', '--output', '>', '>>', '2>']);

interface Workspace {
  dir: string;
  scripts: Record<string, string>;
}

function workspaces(repo: string): Map<string, Workspace> {
  const root = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
  const map = new Map<string, Workspace>([['', { dir: '', scripts: root.scripts ?? {} }]]);
  for (const dir of root.workspaces as string[]) {
    const pkg = JSON.parse(readFileSync(join(repo, dir, 'package.json'), 'utf8'));
    const ws = { dir, scripts: pkg.scripts ?? {} };
    map.set(dir, ws);
    map.set(pkg.name, ws);
  }
  return map;
}

/**
 * What is wrong with a shell block's commands, as this repository stands: an `npm run`, `npm
 * start` or `npm test` naming a script (or workspace) that does not exist, or a path into the
 * repository that is not there. Outputs (`--out X`, `> X`), placeholders and globs are not checked.
 */
export function shellProblems(repo: string, code: string): string[] {
  const ws = workspaces(repo);
  const problems: string[] = [];
  for (const command of shellCommands(code)) {
    const cd = /^cd (\S+) && (.*)$/.exec(command);
    const dir = cd ? (cd[1] as string) : '';
    const words = (cd ? (cd[2] as string) : command).split(/\s+/);
    // environment assignments before the command (X=1 npm start) are not the command
    while (words.length && /^[A-Za-z_]\w*=/.test(words[0] as string)) words.shift();
    // The `pqid` bin is on no PATH a reader has: in the repository it is `npx pqid`. (A part
    // with an odd number of quotes was cut inside a quoted string at a `|`: not a command.)
    const quotes = (command.match(/'/g) ?? []).length;
    if (words[0] === 'pqid' && quotes % 2 === 0)
      problems.push(`${command}: pqid is not on PATH: write npx pqid`);
    const npmAt = words.indexOf('npm');
    if (npmAt >= 0) {
      const args = words.slice(npmAt + 1);
      const end = args.indexOf('--');
      const own = end >= 0 ? args.slice(0, end) : args;
      const wAt = own.findIndex((a) => a === '-w' || a === '--workspace');
      const wName = wAt >= 0 ? own[wAt + 1] : own.find((a) => a.startsWith('--workspace='))?.slice(12);
      const target = wName === undefined ? ws.get(dir) : ws.get(wName);
      if (wName !== undefined && !target) problems.push(`${command}: no workspace ${wName}`);
      const positional = own.filter((a, i) => !a.startsWith('-') && (wAt < 0 || i !== wAt + 1));
      const [verb, name] = positional;
      const script =
        verb === 'run' || verb === 'run-script'
          ? name
          : verb === 'start' || verb === 'test'
            ? verb
            : undefined;
      if (script && target && !(script in target.scripts))
        problems.push(`${command}: no npm script "${script}" in ${target.dir || 'the root'} package.json`);
    }
    for (const [i, w] of words.entries()) {
      const word = w.replace(/^['"]|['"]$/g, '').replace(/^\$\(/, '');
      if (!REPO_DIRS.test(word) || /[*<>$[\]{}]/.test(word) || OUTPUT_FLAGS.has(words[i - 1] ?? '')) continue;
      if (!existsSync(join(repo, dir, word)))
        problems.push(`${command}: ${posix.join(dir, word)} does not exist`);
    }
  }
  return problems;
}
