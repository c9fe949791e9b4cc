/**
 * npm and Node runtimes for the tests that act as a user would: npm run on a chosen Node with the
 * user's environment (not the one `npm test` adds), and other Node versions from the `node` npm
 * package, installed once into node_modules/.cache/pqid-runtimes.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onPath } from './toolchain.ts';

export const repo = fileURLToPath(new URL('../..', import.meta.url));

/** npm's CLI script, to run npm on a chosen Node (`npm test` sets npm_execpath). */
function npmCli(): string | undefined {
  const exec = process.env.npm_execpath;
  if (exec && /npm-cli\.js$/.test(exec)) return exec;
  const bin = onPath('npm', process.env.PATH ?? '');
  if (!bin) return undefined;
  const cli = join(dirname(realpathSync(bin)), 'npm-cli.js');
  return existsSync(cli) ? cli : undefined;
}
export const NPM = npmCli();

/** The user's environment without what `npm test` adds (npm_*, the repository's prefix) or pqid's own switches. */
export function cleanEnv(PATH: string): Record<string, string> {
  const env: Record<string, string> = {};
  const keep = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig']);
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^(PATH|INIT_CWD|NODE|PQID_.*)$/.test(k)) continue;
    if (/^npm_/i.test(k) && !keep.has(k)) continue;
    env[k] = v;
  }
  return { ...env, PATH, NO_COLOR: '1' };
}

export function npm(node: string, args: string[], cwd: string, PATH: string, timeout = 240_000) {
  return spawnSync(node, [NPM as string, ...args], { cwd, env: cleanEnv(PATH), encoding: 'utf8', timeout });
}

export function why(r: ReturnType<typeof spawnSync>): string {
  return `exit ${r.status ?? r.signal}${r.error ? ` (${r.error.message})` : ''}\n${r.stdout}\n${r.stderr}`;
}

/** `engines.node` of the repository (every package says the same; test/entry-points.test.ts checks). */
export const ENGINES: string = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).engines.node;

/** The lowest Node version `engines.node` admits (`^22.20.0 || >=24.7.0` → 22.20.0). */
export function lowestNode(range = ENGINES): string {
  const versions = range.split('||').map((part) => {
    const m = /^\s*(?:\^|>=)\s*(\d+)\.(\d+)\.(\d+)\s*$/.exec(part);
    if (!m) throw new Error(`engines.node: cannot read ${JSON.stringify(part)}`);
    return [Number(m[1]), Number(m[2]), Number(m[3])] as const;
  });
  versions.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  return (versions[0] as readonly number[]).join('.');
}

/** `node` from the `node` npm package, installed once into node_modules/.cache/pqid-runtimes. */
export function ensureNode(version: string): string {
  const dir = join(repo, 'node_modules', '.cache', 'pqid-runtimes', `node-${version}`);
  const bin = join(dir, 'node_modules', 'node', 'bin', 'node');
  const ok = () => spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout?.trim() === `v${version}`;
  if (existsSync(bin) && ok()) return bin;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, allowScripts: { node: true } }));
  const r = npm(
    process.execPath,
    ['install', '--no-audit', '--no-fund', `node@${version}`],
    dir,
    process.env.PATH ?? '',
  );
  if (r.status !== 0 || !ok()) throw new Error(`installing node@${version} failed: ${why(r)}`);
  return bin;
}
