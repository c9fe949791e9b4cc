/**
 * The repository speaks to its users: no file git tracks (docs, reports, code, comments, CLI
 * output) refers to the project's internal bookkeeping — numbered issues and their items or
 * findings, sessions of work, the documents work started from, or the tooling around it. A reader
 * cannot follow such a reference; a fact from outside cites its public source instead (RFC,
 * draft and revision, paper title, vendor page).
 *
 * The patterns are narrow on purpose: "seed" (an ML-DSA key seed, a fuzzer's seed), "session" (a
 * browser or IdP session) and "issue" (to issue a token) are ordinary words here. A failure names
 * file:line and the pattern.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repo } from './helpers/npm.ts';

/** Patterns with what each catches; each must not match any ordinary use of its words. */
const INSIDER: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /\bissue[- ]?#?\d+|\bissues\s+#?\d+\s*(,|and)\s*#?\d+/i,
    'a numbered issue, with or without a hyphen or hash',
  ],
  [/\bissue\s+(asks|says|wants|requires)\b/i, 'what a tracker entry asks for'],
  [/\bfinding\s+\d+\b/i, 'a numbered finding of a review'],
  [/\bshared\/(seeds|specs|vectors)\b/, 'a path outside the repository'],
  [/\bseeds\/\d{3}_/, 'a file outside the repository'],
  [/\bseed(?:'s)?\s+(paper|document|article|text|study|measurement)s?\b/i, 'a "seed" document'],
  [/\bthe\sseed's\b/i, 'a "seed" document'],
  [/\bhelper[- ]\d+\b/i, 'a numbered helper'],
  [/\b(coo?rdinator|stop\snote)\b/i, 'the tooling around the work'],
  [/\/work\/(main|wt-|coord|shared|\.mirror|\.library)/, 'a path on a development machine'],
  [/\b(work|helper|agent) sessions?\b/i, 'a session of the work'],
  [
    /\b(measured|run|written|done|found|fixed) in (an earlier|a previous|the previous|the last|this) session\b/i,
    'a session of the work',
  ],
  [/\b(filed|opened) by a session\b/i, 'a session of the work'],
  [/\bin round \d+\b|\bround \d+'s\b/i, 'a round of work'],
];

/** Tracked files the check reads: not lockfiles, vendored third-party code or test vectors' data. */
function trackedFiles(): string[] {
  const out = spawnSync('git', ['ls-files', '-z'], { cwd: repo, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`git ls-files failed: ${out.stderr}`);
  return out.stdout
    .split('\0')
    .filter(Boolean)
    .filter(
      (f) =>
        !/(^|\/)(package-lock\.json|Cargo\.lock)$/.test(f) &&
        !f.startsWith('native/vendor/') &&
        !/^test\/vectors\/.*\.(json|txt|rsp|bin)$/.test(f) &&
        f !== 'LICENSE',
    );
}

/** `file:line: text [what]` for every line a pattern matches. */
function insiderLines(file: string, text: string): string[] {
  if (text.includes('\0')) return []; // binary
  const hits: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const [re, what] of INSIDER) {
      if (re.test(line)) hits.push(`${file}:${i + 1}: ${line.trim().slice(0, 160)}  [${what}]`);
    }
  });
  return hits;
}

describe('no insider words in the repository', () => {
  it('the patterns catch what they are for, and not ordinary words', () => {
    // Written with a '·' inside the word they are caught by, so that this file passes the check
    // it defines; the test removes it.
    const flagged = [
      'Targets (iss·ue 6)',
      'Re-run at the end of the iss·ue-12 work',
      'see iss·ue #3',
      'The se·ed paper’s placement lesson'.replace('’', "'"),
      "the se·ed's OpenSSL 3.5 measurement",
      'cites shared/se·eds/002_44383858cb69de60.txt',
      'from help·er-3',
      'measured in an earlier sess·ion',
      'in rou·nd 3 of the work',
      '(iss·ue 15, find·ing 6)',
      "describe('find·ing 4: front-channel logout'",
      'the way the iss·ue asks the interface to be tested',
    ];
    const ordinary = [
      'priv = the 32-byte FIPS 204 seed',
      'a fixed seed and a time budget; replay with { seed, path }',
      'keyFormat seed/expanded',
      'the demo seed creates what is missing',
      'pqid issues 3.3× as many ML-DSA-65 tokens',
      'issue a new code; the SP took part only in an earlier session',
      'a LogoutRequest not bound to this session',
      'round 3 was disturbed: one task per signature fell to 0.42×',
      'items 1 and 3; every earlier pqid (item 2).',
    ];
    for (const line of flagged.map((l) => l.replaceAll('·', '')))
      expect(insiderLines('x', line), line).not.toEqual([]);
    for (const line of ordinary) expect(insiderLines('x', line), line).toEqual([]);
  });

  it('no tracked file refers to tracker entries, sessions of work, background documents or the tools around them', () => {
    const hits = trackedFiles().flatMap((f) => {
      let text: string;
      try {
        text = readFileSync(join(repo, f), 'utf8');
      } catch {
        return []; // listed by git but absent (a deleted file not yet committed)
      }
      return insiderLines(f, text);
    });
    expect(hits, `insider words (say it for a user, or cite the public source):\n${hits.join('\n')}`).toEqual(
      [],
    );
  });
});
