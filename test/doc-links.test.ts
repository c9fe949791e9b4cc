/**
 * Every relative link in the repository's Markdown leads somewhere: the file or directory exists
 * (in git, so a clone has it too), and a `#fragment` names a heading of the target (or an
 * explicit `<a id>`) the way GitHub renders it. A failure names file:line, the link and what is
 * missing.
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
});
