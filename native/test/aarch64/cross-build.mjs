#!/usr/bin/env node
// Cross-compiles the addon's C core for AArch64 Linux, exactly as build.rs compiles it for the
// addon: the units of csrc/units.txt that apply to aarch64/linux, each with its include
// directories, defines and flags, plus the flags the cc crate adds in a release build
// (-O3 -ffunction-sections -fdata-sections -fPIC). Then it links them with driver.c into one
// static executable, wrapping every NEON routine with a call counter (see driver.c).
//
//   node native/test/aarch64/cross-build.mjs [OUT_DIR]    prints the executable's path
//
// Needs aarch64-linux-gnu-gcc (Debian: gcc-aarch64-linux-gnu). The executable runs under
// qemu-aarch64 (Debian: qemu-user-static or qemu-user); test/aarch64.test.ts does both.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const native = fileURLToPath(new URL('../../', import.meta.url));
export const CC = process.env.PQID_AARCH64_CC ?? 'aarch64-linux-gnu-gcc';
/** What the cc crate passes to gcc for a release build of a Linux target (besides our flags). */
const CC_CRATE_FLAGS = ['-O3', '-ffunction-sections', '-fdata-sections', '-fPIC'];

/** The units of csrc/units.txt for `target`, parsed as build.rs parses them. */
export function units(target = { arch: 'aarch64', os: 'linux' }) {
  const holds = (cond) => {
    const negate = cond.startsWith('!');
    const names = (negate ? cond.slice(1) : cond).split('|');
    return names.some((n) => n === target.arch || n === target.os) !== negate;
  };
  const common = { name: '', files: [], includes: [], defines: [], flags: [] };
  const out = [];
  let active = true;
  const lines = readFileSync(join(native, 'csrc/units.txt'), 'utf8').split('\n');
  lines.forEach((line, n) => {
    const [kind, value, ...conds] = line.trim().split(/\s+/);
    if (!kind || kind.startsWith('#')) return;
    if (value === undefined) throw new Error(`units.txt:${n + 1}: no value`);
    const applies = conds.every(holds);
    if (kind === 'unit') {
      active = applies;
      if (active) out.push({ name: value, files: [], includes: [], defines: [], flags: [] });
      return;
    }
    if (!applies || !active) return;
    const u = out.at(-1) ?? common;
    if (kind === 'include') u.includes.push(join(native, value));
    else if (kind === 'define') u.defines.push(value.includes('=') ? value : `${value}=1`);
    else if (kind === 'flag') u.flags.push(value);
    else if (kind === 'file') u.files.push(...expand(value));
    else throw new Error(`units.txt:${n + 1}: unknown directive ${kind}`);
  });
  return out.map((u) => ({
    ...u,
    includes: [...common.includes, ...u.includes],
    defines: [...common.defines, ...u.defines],
    flags: [...common.flags, ...u.flags],
  }));
}

function expand(pattern) {
  const path = join(native, pattern);
  const name = basename(path);
  const star = name.indexOf('*');
  if (star < 0) return [path];
  const [prefix, suffix] = [name.slice(0, star), name.slice(star + 1)];
  const files = readdirSync(dirname(path))
    .filter((f) => f.length >= prefix.length + suffix.length && f.startsWith(prefix) && f.endsWith(suffix))
    .sort()
    .map((f) => join(dirname(path), f));
  if (files.length === 0) throw new Error(`units.txt: nothing matches ${pattern}`);
  return files;
}

/** The NEON routines the driver counts: the function each vendored .S file defines. */
export function neonRoutines() {
  const dir = join(native, 'vendor/mldsa-native/native/aarch64/src');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.S'))
    .map((f) => {
      const m = /^S2N_BN_SYMBOL\((\w+)\):/m.exec(readFileSync(join(dir, f), 'utf8'));
      if (!m) throw new Error(`${f}: no S2N_BN_SYMBOL(...) label`);
      return m[1];
    })
    .sort();
}

/** Compiles and links; returns the executable's path. */
export function crossBuild(outDir = mkdtempSync(join(tmpdir(), 'pqid-aarch64-'))) {
  mkdirSync(outDir, { recursive: true });
  const objects = [];
  for (const u of units()) {
    for (const [i, file] of u.files.entries()) {
      const obj = join(outDir, `${u.name}-${i}-${basename(file)}.o`);
      execFileSync(CC, [
        ...CC_CRATE_FLAGS,
        ...u.includes.map((d) => `-I${d}`),
        ...u.defines.map((d) => `-D${d}`),
        ...u.flags,
        '-c',
        file,
        '-o',
        obj,
      ]);
      objects.push(obj);
    }
  }
  const exe = join(outDir, 'mldsa-aarch64-driver');
  const wraps = neonRoutines().map((r) => `-Wl,--wrap=${r}`);
  execFileSync(CC, [
    '-O2',
    '-static',
    join(native, 'test/aarch64/driver.c'),
    ...objects,
    ...wraps,
    '-o',
    exe,
  ]);
  return exe;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(crossBuild(process.argv[2]));
}
