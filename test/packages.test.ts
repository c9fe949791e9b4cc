/**
 * The publishable packages as a user gets them. `npm run pack` makes the tarballs of @pqid/jose,
 * @pqid/xmldsig, @pqid/liboqs-node and the per-platform @pqid/liboqs-node-<triple> (with this
 * repository's addon build), whose contents are checked; npm installs them into a new project
 * under os.tmpdir() (outside the repository, so nothing resolves from its node_modules) with a
 * PATH that has no Rust and no C compiler; the README examples then run there on the pinned Node
 * and on the lowest one `engines` admits (the `node` npm package, installed once into
 * node_modules/.cache), and must sign on the native backend loaded from the prebuilt binary.
 * Last, npm installs @pqid/liboqs-node alone on a pseudo-terminal: with neither a prebuilt binary
 * nor build tools, the person at the terminal must see what is missing, and the install must
 * still succeed.
 *
 * Needs the npm registry (the packages' own dependencies, the lowest Node). Where it is
 * unreachable the suite is skipped with the reason, except under CI, where it runs and fails.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prebuiltPackage } from '../native/platform.js';
import { cleanEnv, ensureNode, lowestNode, NPM, repo, why } from './helpers/npm.ts';
import { fileDependencies, installProject, type Packed, packAll, packProblem } from './helpers/packed.ts';
import { BUILD_TOOLS, hasScript, onPath, pathWithout } from './helpers/toolchain.ts';

const LOWEST = lowestNode();
const pre = prebuiltPackage();

const problem = packProblem();
if (problem && !process.env.CI) console.warn(`packages.test.ts skipped: ${problem}`);

/**
 * A code block of a README: the first ```js or ```ts block after the "run as is by
 * test/packages.test.ts" marker, as the file name to write it to (.mjs, or .mts for Node's type
 * stripping) and its code.
 */
function readmeExample(readme: string, name: string): { file: string; code: string } {
  const text = readFileSync(join(repo, readme), 'utf8');
  const at = text.indexOf('run as is by test/packages.test.ts');
  const m = /```(js|ts)\n([\s\S]*?)```/.exec(text.slice(at));
  if (at < 0 || !m?.[2]) throw new Error(`${readme}: no example marked for test/packages.test.ts`);
  return { file: `${name}.${m[1] === 'ts' ? 'mts' : 'mjs'}`, code: m[2] };
}

describe.skipIf(problem && !process.env.CI)(
  'the packages, installed outside the repository without Rust',
  () => {
    const temps: string[] = [];
    const packed: Record<string, Packed> = {};
    const node24 = process.execPath;
    let lowest: string;
    let noTools: string;
    let project: string;

    beforeAll(() => {
      if (problem) throw new Error(problem); // under CI only: outside it, the suite is skipped
      // Exactly what the READMEs tell a user to run.
      const { out, packed: list } = packAll();
      temps.push(out);
      for (const p of list) packed[p.name] = p;
      expect(Object.keys(packed).sort()).toEqual(
        ['@pqid/jose', '@pqid/liboqs-node', pre.name, '@pqid/xmldsig'].sort(),
      );
      expect(readdirSync(out).sort()).toEqual(
        Object.values(packed)
          .map((p) => p.file.slice(out.length + 1))
          .sort(),
      );

      lowest = ensureNode(LOWEST);
      noTools = pathWithout(BUILD_TOOLS);
      temps.push(noTools);
      // npm itself, and so the install script, run on the older of the two runtimes.
      project = installProject(
        fileDependencies(Object.values(packed)),
        lowest,
        `${dirname(lowest)}${delimiter}${noTools}`,
      );
      temps.push(project);
    }, 600_000);
    afterAll(() => {
      for (const d of temps) rmSync(d, { recursive: true, force: true });
    });

    /** What a module run in the consumer project prints on stdout, as JSON. */
    function printed(node: string, env: Record<string, string>, code: string): unknown {
      const r = spawnSync(node, ['--input-type=module', '-e', code], { cwd: project, env, encoding: 'utf8' });
      expect(r.status, why(r)).toBe(0);
      return JSON.parse(r.stdout);
    }

    it('packs compiled JS, type declarations, README and LICENSE, and nothing else', () => {
      for (const [name, p] of Object.entries(packed)) {
        expect(p.files, name).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json']));
        for (const f of p.files)
          expect(f, name).not.toMatch(/(^|\/)(test|tests|bench|target)\/|\.map$|tsbuildinfo|\.test\./);
      }
      for (const name of ['@pqid/jose', '@pqid/xmldsig']) {
        const files = packed[name]?.files ?? [];
        expect(files).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts']));
        const other = files.filter((f) => !['LICENSE', 'README.md', 'package.json'].includes(f));
        for (const f of other) expect(f, name).toMatch(/^dist\/.*(?<!\.d)\.js$|^dist\/.*\.d\.ts$/);
        // every compiled module has its declarations
        for (const f of other.filter((f) => f.endsWith('.js')))
          expect(files, name).toContain(f.replace(/\.js$/, '.d.ts'));
      }
      // The library and nothing else: no benchmark, demo or command line.
      expect(packed['@pqid/jose']?.files.filter((f) => /bench|demo|cli/.test(f))).toEqual([]);
      // Every module of the sources ships compiled (the JWE and HPKE ones included).
      const joseSources = readdirSync(join(repo, 'packages/jose/src'), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts'))
        .map((f) => `dist/${f.replace(/\\/g, '/').replace(/\.ts$/, '.js')}`);
      expect(joseSources).toEqual(expect.arrayContaining(['dist/jwe/decrypt.js', 'dist/hpke/suite.js']));
      expect(packed['@pqid/jose']?.files).toEqual(expect.arrayContaining(joseSources));

      // The native package: the JS and declarations, and the sources of the source-build fallback.
      const native = packed['@pqid/liboqs-node']?.files ?? [];
      const runtime = [
        'index.js',
        'index.d.ts',
        'core.js',
        'loader.js',
        'binding-abi.js',
        'platform.js',
        'sign-queue.js',
        'errors.js',
        'errors.d.ts',
      ];
      const build = [
        'scripts/install.mjs',
        'build.rs',
        'Cargo.toml',
        'Cargo.lock',
        '.cargo/config.toml',
        'src/lib.rs',
        'csrc/units.txt',
        'csrc/mldsa_config.h',
        'csrc/include/oqs/oqsconfig.h',
        'vendor/aws-lc/LICENSE',
        'vendor/liboqs/LICENSE.txt',
        'vendor/mldsa-native/mldsa_native_bcm.c',
        'vendor/s2n-bignum/include/_internal_s2n_bignum_arm.h',
        'vendor/PATCHES.md',
        'vendor/VENDOR.md',
      ];
      expect(native).toEqual(expect.arrayContaining([...runtime, ...build]));
      for (const f of native) {
        expect(f).toMatch(
          /^(LICENSE|README\.md|package\.json|[a-z-]+\.js|[a-z-]+\.d\.ts|scripts\/install\.mjs|build\.rs|Cargo\.(toml|lock)|\.cargo\/config\.toml|src\/[a-z_]+\.rs|selftest\/ML-DSA-\d\d\.bin|csrc\/.+|vendor\/(PATCHES\.md|VENDOR\.md|aws-lc\/LICENSE|(mldsa-native|s2n-bignum|liboqs)\/.+))$/,
        );
        expect(f).not.toMatch(/\.node$|build-status|internal\.|binding\.d\.ts|vendor\.sh|patches\/|UPSTREAM/);
      }

      // The platform package: the binary and its notices, nothing else.
      expect([...(packed[pre.name]?.files ?? [])].sort()).toEqual(
        ['LICENSE', 'README.md', 'THIRD-PARTY-NOTICES.md', 'package.json', pre.file].sort(),
      );
    });

    it('installs with no Rust or C compiler on PATH, taking the prebuilt binary (no source build)', () => {
      expect(onPath('cargo', noTools)).toBeUndefined();
      expect(onPath('cc', noTools)).toBeUndefined();
      const dir = join(project, 'node_modules', '@pqid', 'liboqs-node');
      expect(readdirSync(dir).filter((f) => f.endsWith('.node'))).toEqual([]);
      // npm ran the install script (it may stop running unreviewed scripts one day; the loader
      // does not need it to find the prebuilt binary)
      if (existsSync(join(dir, 'build-status.json'))) {
        const status = JSON.parse(readFileSync(join(dir, 'build-status.json'), 'utf8'));
        expect(status).toMatchObject({ ok: true, source: 'prebuilt', package: pre.name, node: `v${LOWEST}` });
      }
    });

    for (const [runtime, which] of [
      [process.versions.node, () => node24],
      [LOWEST, () => lowest],
    ] as const) {
      it(`runs the @pqid/jose README example on Node ${runtime}, signing on the prebuilt native backend`, () => {
        const node = which();
        const env = cleanEnv(`${dirname(node)}${delimiter}${noTools}`);
        expect(spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()).toBe(`v${runtime}`);
        const example = readmeExample('packages/jose/README.md', 'jose-example');
        writeFileSync(join(project, example.file), example.code);
        const r = spawnSync(node, [example.file], { cwd: project, env, encoding: 'utf8' });
        expect(r.status, why(r)).toBe(0);
        expect(r.stdout.trim()).toMatch(
          /^alice: a \d+-byte ML-DSA-65 JWT, signed on native \(mldsa-native (x86_64-avx2|ref) \(dist, prebuilt\)\)$/,
        );
        expect(r.stderr).not.toContain('PQID_NATIVE_UNAVAILABLE');

        const info = printed(
          node,
          env,
          "import('@pqid/liboqs-node').then((m) => console.log(JSON.stringify(m.info())))",
        ) as { binary: unknown; selfTest: { ok: boolean } };
        expect(info.binary).toEqual({
          source: 'prebuilt',
          package: pre.name,
          version: expect.any(String),
          file: join(realpathSync(project), 'node_modules', pre.name, pre.file),
        });
        expect(info.selfTest.ok).toBe(true);
      });

      it(`runs the @pqid/xmldsig README example on Node ${runtime}, and backends() names the prebuilt binary`, () => {
        const node = which();
        const env = cleanEnv(`${dirname(node)}${delimiter}${noTools}`);
        const example = readmeExample('packages/xmldsig/README.md', 'xmldsig-example');
        writeFileSync(join(project, example.file), example.code);
        const r = spawnSync(node, [example.file], { cwd: project, env, encoding: 'utf8' });
        expect(r.status, why(r)).toBe(0);
        expect(r.stdout.trim()).toMatch(/^https:\/\/idp\.example\.com: \d+-byte signed metadata verified$/);

        // The library installs no command (the pqid CLI belongs to the IdP): what `pqid backends`
        // showed here, backends() says.
        expect(existsSync(join(project, 'node_modules', '.bin', 'pqid'))).toBe(false);
        const list = printed(
          node,
          env,
          "import('@pqid/jose').then((m) => console.log(JSON.stringify(m.backends())))",
        ) as { name: string; available: boolean; implementation?: string }[];
        const native = list[0];
        expect(native).toMatchObject({ name: 'native', available: true });
        expect(native?.implementation).toContain('prebuilt');
      });
    }

    it('without a prebuilt binary or build tools, npm install tells the person at the terminal, and succeeds', (ctx) => {
      if (!hasScript()) {
        if (process.env.CI) throw new Error('util-linux `script` is needed for this test');
        return ctx.skip('util-linux `script` is not installed');
      }
      const alone = mkdtempSync(join(tmpdir(), 'pqid-consumer-no-prebuilt-'));
      temps.push(alone);
      writeFileSync(
        join(alone, 'package.json'),
        JSON.stringify({ name: 'alone', private: true, type: 'module' }),
      );
      // Not --foreground-scripts: npm pipes the dependency's install script and shows its output
      // only on failure, so what appears comes through the terminal.
      const tgz = packed['@pqid/liboqs-node']?.file ?? '';
      const cmd = `'${node24}' '${NPM}' install --no-audit --no-fund --prefer-offline '${tgz}'`;
      const r = spawnSync('script', ['-qec', cmd, '/dev/null'], {
        cwd: alone,
        env: { ...cleanEnv(`${dirname(node24)}${delimiter}${noTools}`), TERM: 'dumb' },
        encoding: 'utf8',
        timeout: 240_000,
      });
      expect(r.status, why(r)).toBe(0);
      expect(r.stdout).toMatch(/╔═+╗/);
      expect(r.stdout).toContain('the fast native ML-DSA backend is NOT installed');
      expect(r.stdout).toContain('Rust >= 1.88 (cargo is not on PATH)');
      expect(r.stdout).toContain('npm rebuild @pqid/liboqs-node');
      expect(existsSync(join(alone, 'node_modules', pre.name))).toBe(false);
      const status = JSON.parse(
        readFileSync(join(alone, 'node_modules', '@pqid', 'liboqs-node', 'build-status.json'), 'utf8'),
      );
      expect(status).toMatchObject({ ok: false, source: 'none' });
    });
  },
);
