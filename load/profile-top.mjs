#!/usr/bin/env node
/**
 * Top frames of a V8 CPU profile (`npm run load -- … --cpu-prof DIR` writes the IdP's):
 * `node load/profile-top.mjs FILE.cpuprofile [--top 30] [--match token]`.
 *
 * Prints self time by function (where the event loop's CPU goes) and inclusive time by function
 * (what a frame and everything it calls costs), as a share of the non-idle samples. `--match`
 * keeps only samples with a frame whose function or URL contains the string (e.g. the token
 * endpoint's handler), to leave start-up and the runner's minting out.
 */
import { readFileSync } from 'node:fs';
import { positive, startScript, UsageError } from './lib/args.mjs';

const { values, file, top } = await startScript({
  script: 'profile-top.mjs',
  usage: 'usage: node load/profile-top.mjs FILE.cpuprofile [--top 30] [--match STR]',
  options: { top: { type: 'string' }, match: { type: 'string' } },
  positionals: true,
  read: (values, files) => {
    if (files.length !== 1)
      throw new UsageError(files.length ? `one profile, not ${files.length}` : 'no profile file given');
    return {
      values,
      file: /** @type {string} */ (files[0]),
      top: Math.round(positive(values.top, 'top') ?? 30),
    };
  },
});
/**
 * @typedef {{ functionName: string, url: string, lineNumber: number }} CallFrame
 * @typedef {{ id: number, callFrame: CallFrame, children?: number[] }} ProfileNode
 * @typedef {{ nodes: ProfileNode[], samples: number[], timeDeltas: number[] }} Profile
 */
/** @type {Profile} */
const profile = JSON.parse(readFileSync(file, 'utf8'));

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
/** @type {Map<number, number>} */
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
/** @param {string} url */
const short = (url) =>
  url.replace(/^.*\/(node_modules\/)/, '$1').replace(/^.*\/(idp|packages|load)\//, '$1/');
/** @param {ProfileNode} n */
const label = (n) => {
  const f = n.callFrame;
  const name = f.functionName || '(anonymous)';
  return f.url ? `${name} ${short(f.url)}:${f.lineNumber + 1}` : name;
};

// Sample weights: time deltas (µs) per sample.
/** @type {Map<number, number>} */
const counts = new Map();
profile.samples.forEach((id, i) => {
  counts.set(id, (counts.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const IDLE = new Set(['(idle)', '(program)', '(garbage collector)']);
/** @type {Map<string, number>} */
const self = new Map();
/** @type {Map<string, number>} */
const incl = new Map();
let total = 0;
let gc = 0;
for (const [id, us] of counts) {
  const node = byId.get(id);
  if (!node) continue;
  const fname = node.callFrame.functionName;
  if (fname === '(idle)') continue;
  /** @type {ProfileNode[]} */
  const stack = [];
  for (let cur = /** @type {number | undefined} */ (id); cur !== undefined; cur = parent.get(cur)) {
    const n = byId.get(cur);
    if (n) stack.push(n);
  }
  const match = values.match;
  if (typeof match === 'string' && !stack.some((n) => label(n).includes(match))) continue;
  total += us;
  if (fname === '(garbage collector)') gc += us;
  const l = IDLE.has(fname) ? fname : label(node);
  self.set(l, (self.get(l) ?? 0) + us);
  for (const lab of new Set(stack.map(label))) incl.set(lab, (incl.get(lab) ?? 0) + us);
}
/** @param {number} us */
const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
/**
 * @param {string} title
 * @param {Map<string, number>} m
 */
const print = (title, m) => {
  console.log(`\n${title}`);
  for (const [l, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)}  ${l}`);
};
console.log(
  `${file}: ${(total / 1e6).toFixed(2)} s of non-idle main-thread samples${values.match ? ` under "${values.match}"` : ''}, GC ${pct(gc)}`,
);
print('self', self);
print('inclusive', incl);
