#!/usr/bin/env node
// `npm run pack`: every publishable package as the tarball a registry would serve, in one folder,
// until the packages are on a registry:
//
//   @pqid/jose, @pqid/xmldsig, @pqid/liboqs-node (its sources, for the build-from-source fallback)
//   and @pqid/liboqs-node-<platform> (the addon built on this machine, native/scripts/pack-platform.mjs).
//
// The IdP is not among them: it runs from the repository (`npm start`), not as a dependency.
//
//   npm run pack [-- --out DIR] [--json]      (DIR defaults to dist/ at the repository root)
//
// Then, in any project: npm install DIR/*.tgz (all of them, or the ones you need: @pqid/xmldsig
// needs @pqid/jose; the native backend needs both liboqs-node tarballs). --json prints, instead of
// the summary, [{ name, file, files }] with every file of each tarball.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const { values } = parseArgs({
  options: { out: { type: 'string', default: join(root, 'dist') }, json: { type: 'boolean' } },
});
const out = resolve(values.out);
/** The TypeScript packages, compiled from src/ to dist/. */
const COMPILED = ['packages/jose', 'packages/xmldsig'];
const PACKED = [...COMPILED, 'native'];

function fail(message) {
  console.error(`pack: ${message}`);
  process.exit(1);
}

function run(command, args, cwd = root) {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0)
    fail(`${command} ${args.join(' ')} failed (${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** Deletes outputs in dist/ whose source is gone, so that a tarball holds exactly today's src/. */
function pruneStale(pkg) {
  const dist = join(root, pkg, 'dist');
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        walk(path);
        if (readdirSync(path).length === 0) rmSync(path, { recursive: true });
        continue;
      }
      const m = /^(.*)\.(js|d\.ts)(\.map)?$/.exec(relative(dist, path));
      if (m && !existsSync(join(root, pkg, 'src', `${m[1]}.ts`))) rmSync(path);
    }
  };
  if (existsSync(dist)) walk(dist);
}

run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', ...COMPILED]);
for (const pkg of COMPILED) pruneStale(pkg);

mkdirSync(out, { recursive: true });
const npm = process.env.npm_execpath;
const packed = [];
for (const pkg of PACKED) {
  const args = ['pack', '--json', '--pack-destination', out];
  const stdout = npm
    ? run(process.execPath, [npm, ...args], join(root, pkg))
    : run('npm', args, join(root, pkg));
  const [info] = JSON.parse(stdout);
  packed.push({
    name: info.name,
    file: join(out, info.filename),
    files: info.files.map((f) => f.path),
  });
}

const platform = run(process.execPath, [join(root, 'native', 'scripts', 'pack-platform.mjs'), '--out', out]);
const file = platform.trim().split('\n').at(-1) ?? '';
const listing = run('tar', ['-tzf', file]);
packed.push({
  name: JSON.parse(run('tar', ['-xzOf', file, 'package/package.json'])).name,
  file,
  files: listing
    .trim()
    .split('\n')
    .map((f) => f.replace(/^package\//, '')),
});

if (values.json) {
  console.log(JSON.stringify(packed, null, 2));
} else {
  const width = Math.max(...packed.map((p) => p.name.length));
  console.log(`pack: ${packed.length} tarballs in ${out}`);
  for (const p of packed) console.log(`  ${p.name.padEnd(width)}  ${relative(out, p.file)}`);
  console.log(`\nInstall them in a project with:\n  npm install ${packed.map((p) => p.file).join(' ')}`);
}
