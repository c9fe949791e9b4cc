/**
 * Every relative link in the repository's Markdown leads somewhere: the file or directory exists
 * (in git, so a clone has it too), and a `#fragment` names a heading of the target (or an
 * explicit `<a id>`) the way GitHub renders it. The same holds for the references to documents
 * that are not Markdown links — in prose, code comments, help texts and generated docs' sources:
 * `FILE.md#fragment`, and `FILE.md, "Heading"` (the heading, or its start). A failure names
 * file:line, the link and what is missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repo } from './helpers/npm.ts';

/** Tracked Markdown files, not vendored third-party code. */
function markdownFiles(): string[] {
  const out = spawnSync('git', ['ls-files', '-z', '--', '*.md'], { cwd: repo, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`git ls-files failed: ${out.stderr}`);
  return out.stdout
    .split('\0')
    .filter(Boolean)
    .filter((f) => !f.startsWith('native/vendor/'));
}

/** Lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(text: string): Array<[number, string]> {
  const lines: Array<[number, string]> = [];
  let fence: string | undefined;
  text.split('\n').forEach((line, i) => {
    const open = /^\s*(`{3,}|~{3,})/.exec(line);
    if (open) {
      const mark = open[1] as string;
      if (fence === undefined) fence = mark;
      else if (mark[0] === fence[0] && mark.length >= fence.length) fence = undefined;
      return;
    }
    if (fence === undefined) lines.push([i + 1, line]);
  });
  return lines;
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens (github-slugger). */
function slug(heading: string): string {
  const text = heading
    .replace(/<[^>]*>/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors a Markdown file offers: its headings (duplicates numbered) and explicit ids. */
function anchors(text: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, line] of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[1] as string);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      found.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) found.add(m[1] as string);
  }
  return found;
}

/** Link targets in a prose line (not in its code spans): links, images, definitions, HTML hrefs. */
function targets(text: string): string[] {
  const line = text.replace(/(`+)[^`]*?\1/g, '');
  const out: string[] = [];
  for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1] as string);
  const ref = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(\s|$)/.exec(line);
  if (ref) out.push(ref[1] as string);
  for (const m of line.matchAll(/\bhref="([^"]+)"/g)) out.push(m[1] as string);
  return out;
}

/** What is wrong with one relative link from `file`, or undefined if it resolves. */
function broken(file: string, target: string, tracked: Set<string>): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto:, …
  const [pathPart = '', fragment] = target.split('#', 2);
  const path = decodeURIComponent(pathPart);
  const resolved = path === '' ? file : normalize(join(dirname(file), path));
  const abs = join(repo, resolved);
  if (relative(repo, abs).startsWith('..')) return 'points outside the repository';
  if (!existsSync(abs)) return `${resolved} does not exist`;
  const isDir = statSync(abs).isDirectory();
  if (
    isDir
      ? ![...tracked].some((f) => f.startsWith(`${resolved.replace(/\/$/, '')}/`))
      : !tracked.has(resolved)
  )
    return `${resolved} is not in git`;
  if (fragment === undefined || fragment === '' || isDir || !resolved.endsWith('.md')) return undefined;
  const names = anchors(readFileSync(abs, 'utf8'));
  return names.has(decodeURIComponent(fragment)) ? undefined : `${resolved} has no heading #${fragment}`;
}

describe('relative links in Markdown resolve', () => {
  it('anchors follow GitHub: code, punctuation and duplicate headings', () => {
    const doc =
      '# Install\n## `npm run pack` — tarballs\n## Install\n```\n# not a heading\n```\n<a id="x"></a>';
    expect([...anchors(doc)].sort()).toEqual(['install', 'install-1', 'npm-run-pack--tarballs', 'x']);
    expect(slug('Results on this machine (2 cores)')).toBe('results-on-this-machine-2-cores');
    expect(targets('see [a](docs/A.md#b "title") and `[d](e.md)`, <a href="f.md">f</a>')).toEqual([
      'docs/A.md#b',
      'f.md',
    ]);
    expect(targets('[c]: ../C.md')).toEqual(['../C.md']);
  });

  it('every relative link names a tracked file and an existing heading', () => {
    const files = markdownFiles();
    expect(files).toContain('README.md');
    const tracked = new Set(
      spawnSync('git', ['ls-files', '-z'], { cwd: repo, encoding: 'utf8' })
        .stdout.split('\0')
        .filter(Boolean),
    );
    const bad: string[] = [];
    let relativeLinks = 0;
    for (const file of files) {
      for (const [n, line] of proseLines(readFileSync(join(repo, file), 'utf8'))) {
        for (const target of targets(line)) {
          if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) relativeLinks++;
          const why = broken(file, target, tracked);
          if (why) bad.push(`${file}:${n}: ${target} — ${why}`);
        }
      }
    }
    expect(bad, bad.join('\n')).toEqual([]);
    expect(relativeLinks, "the scan found the documents' links").toBeGreaterThan(200);
  });

  it('references outside Markdown links name a document and a heading that exist', () => {
    const tracked = trackedFiles();
    const bad: string[] = [];
    let references = 0;
    for (const file of [...tracked].filter((f) => /\.(md|ts|js|mjs|cjs)$/.test(f) && !VERBATIM.has(f))) {
      readFileSync(join(repo, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const ref of documentReferences(line)) {
            references++;
            const why = unresolved(file, ref, tracked);
            if (why)
              bad.push(
                `${file}:${i + 1}: ${ref.doc}${ref.fragment ? `#${ref.fragment}` : `, "${ref.heading}"`} — ${why}`,
              );
          }
        });
    }
    expect(bad, bad.join('\n')).toEqual([]);
    expect(references, 'the scan found the references').toBeGreaterThan(50);
  });

  it('reads both forms of reference, and a heading by its start', () => {
    expect(documentReferences('see docs/KEYS.md, "Key sets"; and (LOAD.md#placement-study).')).toEqual([
      { doc: 'docs/KEYS.md', heading: 'Key sets' },
      { doc: 'LOAD.md', fragment: 'placement-study' },
    ]);
    const tracked = trackedFiles();
    expect(unresolved('idp/src/x.ts', { doc: 'docs/KEYS.md', heading: 'Key sets' }, tracked)).toBeUndefined();
    expect(
      unresolved('idp/src/x.ts', { doc: 'docs/KEYS.md', heading: 'Changing the KEK' }, tracked),
    ).toBeUndefined();
    expect(unresolved('idp/src/x.ts', { doc: 'docs/KEYS.md', heading: 'No such part' }, tracked)).toMatch(
      /no heading/,
    );
    expect(unresolved('idp/src/x.ts', { doc: 'KEYS.md', fragment: 'key-sets' }, tracked)).toBeUndefined();
    expect(unresolved('idp/src/x.ts', { doc: 'NOPE.md', fragment: 'x' }, tracked)).toMatch(
      /no such document/,
    );
  });
});

/** Not scanned: a file copied unchanged from elsewhere, whose references point into its origin,
 * and this one, whose examples name no real documents. */
const VERBATIM = new Set(['test/vectors/SCHEMAS.md', 'test/doc-links.test.ts']);

function trackedFiles(): Set<string> {
  return new Set(
    spawnSync('git', ['ls-files', '-z'], { cwd: repo, encoding: 'utf8' })
      .stdout.split('\0')
      .filter((f) => f && !f.startsWith('native/vendor/')),
  );
}

type DocumentReference = { doc: string; fragment?: string; heading?: string };

/** `FILE.md#fragment` and `FILE.md, "Heading"` in a line of any text. */
function documentReferences(line: string): DocumentReference[] {
  const out: DocumentReference[] = [];
  for (const m of line.matchAll(/([\w./-]*\w)\.md(?:#([a-z0-9-]+)|,? "([^"]+)")/g)) {
    const doc = `${m[1]}.md`;
    if (/^[a-z][a-z0-9+.-]*:/i.test(doc) || line.slice(0, m.index).endsWith('//')) continue;
    out.push(m[2] !== undefined ? { doc, fragment: m[2] } : { doc, heading: m[3] as string });
  }
  return out;
}

/** Why a reference from `file` does not resolve: the document is looked for beside the file, at
 * the repository root and in docs/ (generated docs are written there). */
function unresolved(file: string, ref: DocumentReference, tracked: Set<string>): string | undefined {
  const doc = [join(dirname(file), ref.doc), ref.doc, join('docs', ref.doc)]
    .map((p) => normalize(p))
    .find((p) => tracked.has(p));
  if (doc === undefined) return 'no such document in git';
  const names = anchors(readFileSync(join(repo, doc), 'utf8'));
  if (ref.fragment !== undefined)
    return names.has(ref.fragment) ? undefined : `${doc} has no heading #${ref.fragment}`;
  const wanted = slug(ref.heading as string);
  return [...names].some((n) => n === wanted || n.startsWith(`${wanted}-`))
    ? undefined
    : `${doc} has no heading "${ref.heading}"`;
}
