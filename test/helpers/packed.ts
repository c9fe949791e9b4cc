/**
 * The publishable packages as a user gets them today: `npm run pack` (exactly what the READMEs
 * tell a user to run) writes the tarballs, and npm installs them into a new project under
 * os.tmpdir(), outside the repository, so nothing resolves from its node_modules.
 * test/packages.test.ts and test/readme-snippets.test.ts pack once per run each.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { prebuiltPackage } from '../../native/platform.js';
import { NPM, npm, repo, why } from './npm.ts';

export interface Packed {
  name: string;
  file: string;
  files: string[];
}

/**
 * Why packing and installing cannot run here (no npm, no prebuilt package for this platform, no
 * registry for the packages' own dependencies), or undefined when it can.
 */
export function packProblem(): string | undefined {
  if (!NPM) return 'npm (npm-cli.js) not found';
  const pre = prebuiltPackage();
  if (!existsSync(join(repo, 'native', 'npm', pre.name.replace('@pqid/liboqs-node-', '')))) {
    return `no prebuilt package is defined for this platform (${pre.name})`;
  }
  const ping = npm(process.execPath, ['view', 'jose@6', 'version'], repo, process.env.PATH ?? '', 30_000);
  return ping.status === 0
    ? undefined
    : `the npm registry is unreachable: ${why(ping).trim().split('\n').at(-1)}`;
}

/**
 * `npm run pack -- --out <a new temporary folder> --json`: every tarball, with its files. Test
 * files run in parallel and pack compiles into the packages' dist/ folders, so one pack at a
 * time: a lock directory under node_modules/.cache, taken atomically (mkdir).
 */
export function packAll(): { out: string; packed: Packed[] } {
  const lock = join(repo, 'node_modules', '.cache', 'pqid-pack.lock');
  mkdirSync(dirname(lock), { recursive: true });
  for (const deadline = Date.now() + 360_000; ; ) {
    try {
      mkdirSync(lock);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      // A pack takes well under a minute: a lock this old was left by a run that was killed.
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > 300_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`npm run pack: ${lock} is held by another run`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
  try {
    const out = mkdtempSync(join(tmpdir(), 'pqid-packs-'));
    const r = npm(
      process.execPath,
      ['--silent', 'run', 'pack', '--', '--out', out, '--json'],
      repo,
      process.env.PATH ?? '',
    );
    if (r.status !== 0) throw new Error(`npm run pack: ${why(r)}`);
    return { out, packed: JSON.parse(r.stdout) as Packed[] };
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * A new project under os.tmpdir() that depends on `dependencies` (name → version or file: spec),
 * installed by npm running on `node` with `PATH`.
 */
export function installProject(
  dependencies: Record<string, string>,
  node: string,
  PATH: string,
  prefix = 'pqid-consumer-',
): string {
  const project = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies }, null, 2),
  );
  const i = npm(node, ['install', '--no-audit', '--no-fund', '--prefer-offline'], project, PATH);
  if (i.status !== 0) throw new Error(`npm install: ${why(i)}`);
  return project;
}

/** The tarballs as `file:` dependencies. */
export const fileDependencies = (packed: Packed[]): Record<string, string> =>
  Object.fromEntries(packed.map((p) => [p.name, `file:${p.file}`]));
