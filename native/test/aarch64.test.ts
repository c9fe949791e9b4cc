// The AArch64 NEON back end, tested on this x86-64 machine: test/aarch64/cross-build.mjs
// cross-compiles the C core from csrc/units.txt (the files, defines and flags build.rs compiles
// for an aarch64 addon) with a small driver (test/aarch64/driver.c), and the driver runs under
// qemu-aarch64 user-mode emulation over the repository's vectors, on the NEON build and on the
// portable one: ACVP keyGen, sigGen and sigVer (external, internal and external-μ groups), the
// negative verify vectors (pqid's and Wycheproof's), and deterministic and caller-rnd signatures
// that must equal this machine's addon byte for byte. Every NEON routine is wrapped at link time
// with a counter: a native command that ran none of them (a silent fallback to C) fails, and so
// does a run in which any routine never ran.
//
// Not covered: the Rust/N-API layer on arm64 (no Rust standard library for aarch64 can be
// installed here), so what runs under emulation is the C that layer calls, not the addon itself.
// Needs aarch64-linux-gnu-gcc and qemu-aarch64(-static) (Debian: gcc-aarch64-linux-gnu,
// qemu-user-static); .ci/run installs them. Skipped with the reason without them, except in CI.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ML_DSA_ALGS, type MlDsaAlg, pqidVectors, wycheproofVectors } from '../../test/vectors/load.ts';
import { scheme } from '../index.js';
import { CC, crossBuild, neonRoutines } from './aarch64/cross-build.mjs';
import { type AcvpGroup, type AcvpTest, acvp, expectedNative, hex, toHex } from './helpers.ts';

const PATH = process.env.PATH ?? '';
const which = (cmd: string) => {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8', env: { PATH } });
  return r.status === 0 ? r.stdout.trim() : undefined;
};
const qemu = which('qemu-aarch64-static') ?? which('qemu-aarch64');
const missing = [
  ...(which(CC) ? [] : [`${CC} (Debian: gcc-aarch64-linux-gnu)`]),
  ...(qemu ? [] : ['qemu-aarch64 (Debian: qemu-user-static or qemu-user)']),
];
if (missing.length > 0 && process.env.CI) {
  throw new Error(`the AArch64 emulation test needs ${missing.join(' and ')}; .ci/run installs them`);
}
if (missing.length > 0) console.warn(`aarch64.test.ts skipped: no ${missing.join(', no ')}`);

type Impl = 'native' | 'ref';
const IMPLS: Impl[] = ['native', 'ref'];
/** `ML-DSA-65` → `65`, as the driver takes it. */
const bits = (alg: string) => alg.slice(-2);
const h = (b: Uint8Array) => (b.length === 0 ? '-' : Buffer.from(b).toString('hex'));
const shake = (...parts: Uint8Array[]) => {
  const x = createHash('shake256', { outputLength: 64 });
  for (const p of parts) x.update(p);
  return new Uint8Array(x.digest());
};
/** Pure ML-DSA's M′ prefix: 0 ‖ |ctx| ‖ ctx. */
const prefix = (ctx: Uint8Array) => Uint8Array.of(0, ctx.length, ...ctx);

/** Commands for one driver run, each with the check of its answer. */
interface Command {
  line: string;
  impl: Impl;
  what: string;
  check: (fields: string[]) => void;
}

let exe: string;
let buildDir: string;

describe.skipIf(missing.length > 0)('AArch64 NEON back end under emulation', () => {
  beforeAll(() => {
    exe = crossBuild();
    buildDir = exe.slice(0, exe.lastIndexOf('/'));
  }, 600_000);
  afterAll(() => {
    if (buildDir) rmSync(buildDir, { recursive: true, force: true });
  });

  it('passes the vectors on NEON and portable C, equal to this machine byte for byte, and NEON ran', () => {
    const commands: Command[] = [];
    /** One driver command: `op impl alg field…` (hex fields, `-` for empty). */
    const add = (
      impl: Impl,
      what: string,
      op: string,
      alg: string,
      fields: string[],
      check: Command['check'],
    ) =>
      commands.push({
        impl,
        what,
        line: [op, impl, bits(alg), ...fields.map((x) => x || '-')].join(' '),
        check,
      });
    const answer = (want: string, label: string) => (f: string[]) =>
      expect(f[1], label).toBe(want.toLowerCase());
    const verdict = (want: boolean, label: string) => (f: string[]) =>
      expect(f[1], label).toBe(want ? '1' : '0');
    /** ACVP's external interface signs 0 ‖ |ctx| ‖ ctx ‖ M; its internal one M′ as given. */
    const acvpPrefix = (g: AcvpGroup, t: AcvpTest) =>
      g.signatureInterface === 'external' ? h(prefix(hex(t.context))) : '';
    const externalMu = (g: AcvpGroup) => g.signatureInterface === 'internal' && g.externalMu === true;

    for (const impl of IMPLS) {
      // ACVP keyGen: every vector, pk and expanded sk.
      for (const { group: g, test: t, expected: e } of acvp('ML-DSA-keyGen-FIPS204')) {
        add(impl, `keyGen tc ${t.tcId}`, 'keygen', g.parameterSet, [t.seed], (f) => {
          expect(f[1], `pk tc ${t.tcId}`).toBe(e.pk.toLowerCase());
          expect(f[2], `sk tc ${t.tcId}`).toBe(e.sk.toLowerCase());
        });
      }
      // ACVP sigGen: every pure external, internal and external-μ vector (expanded keys), and
      // the seed-key groups of -tr1, five tests each (KeyGen_internal then Sign_internal).
      for (const dir of ['ML-DSA-sigGen-FIPS204', 'ML-DSA-sigGen-FIPS204-tr1']) {
        const perGroup = new Map<number, number>();
        for (const { group: g, test: t, expected: e } of acvp(dir)) {
          if (g.signatureInterface === 'external' && g.preHash !== 'pure') continue;
          if (dir.endsWith('tr1')) {
            const n = perGroup.get(g.tgId) ?? 0;
            if (g.keyFormat !== 'seed' || n >= 5) continue;
            perGroup.set(g.tgId, n + 1);
          }
          const key = g.keyFormat === 'seed' ? t.seed : t.sk;
          const rnd = g.deterministic ? '00'.repeat(32) : t.rnd;
          const label = `${dir} tg ${g.tgId} tc ${t.tcId}`;
          if (externalMu(g))
            add(impl, label, 'signmu', g.parameterSet, [key, rnd, t.mu], answer(e.signature, label));
          else {
            const fields = [key, rnd, acvpPrefix(g, t), t.message];
            add(impl, label, 'sign', g.parameterSet, fields, answer(e.signature, label));
          }
        }
      }
      // ACVP sigVer: pure external, internal and external-μ groups.
      for (const { group: g, test: t, expected: e } of acvp('ML-DSA-sigVer-FIPS204')) {
        if (g.signatureInterface === 'external' && g.preHash !== 'pure') continue;
        const label = `sigVer tg ${g.tgId} tc ${t.tcId}`;
        const fields = externalMu(g)
          ? [t.pk, t.mu, t.signature]
          : [t.pk, acvpPrefix(g, t), t.message, t.signature];
        add(
          impl,
          label,
          externalMu(g) ? 'verifymu' : 'verify',
          g.parameterSet,
          fields,
          verdict(e.testPassed, label),
        );
      }
      // The negative verify vectors: pqid's (the ones that caught the AVX2 bugs) and Wycheproof's.
      // A case the addon refuses before calling into C (a wrong length, a context over 255
      // bytes) must be an invalid one; the others go to the driver.
      for (const alg of ML_DSA_ALGS) {
        const s = scheme(alg);
        for (const [set, cases] of [
          ['pqid', pqidVectors(alg)],
          ['Wycheproof', wycheproofVectors(alg)],
        ] as const) {
          for (const v of cases) {
            const label = `${set} ${alg} ${v.id}`;
            if (v.pk.length !== s.publicKeyBytes || v.sig.length !== s.signatureBytes || v.ctx.length > 255) {
              expect(v.valid, `${label} is refused before C`).toBe(false);
              continue;
            }
            const fields = [h(v.pk), h(prefix(v.ctx)), h(v.msg), h(v.sig)];
            add(impl, label, 'verify', alg, fields, verdict(v.valid, label));
          }
        }
      }
    }

    // Signatures this machine's addon makes (deterministic, and with a caller's rnd), from a
    // message and from its external μ, must come out of both AArch64 builds unchanged.
    for (const alg of ML_DSA_ALGS) {
      const s = scheme(alg as MlDsaAlg);
      expect(s.implementation).toBe(expectedNative());
      for (let i = 0; i < 4; i++) {
        const seed = new Uint8Array(randomBytes(32));
        const msg = new Uint8Array(randomBytes(i * 200));
        const context = new Uint8Array(randomBytes(i * 30));
        const rnd = i % 2 ? new Uint8Array(randomBytes(32)) : new Uint8Array(32);
        const { publicKey, secretKey } = s.keygen(seed);
        const sig = s.sign(secretKey, msg, { rnd, context });
        const mu = shake(shake(publicKey), prefix(context), msg);
        const [pk, pre, m, signature] = [h(publicKey), h(prefix(context)), h(msg), toHex(sig)];
        for (const impl of IMPLS) {
          const label = `${alg} x86-64 signature ${i} (${s.implementation})`;
          add(impl, label, 'sign', alg, [h(seed), h(rnd), pre, m], answer(signature, label));
          add(impl, `${label} from μ`, 'signmu', alg, [h(seed), h(rnd), h(mu)], answer(signature, label));
          add(impl, `${label} verifies`, 'verify', alg, [pk, pre, m, signature], verdict(true, label));
          add(
            impl,
            `${label} verifies from μ`,
            'verifymu',
            alg,
            [pk, h(mu), signature],
            verdict(true, label),
          );
        }
      }
    }

    const r = spawnSync(qemu as string, [exe], {
      input: `${commands.map((c) => c.line).join('\n')}\nstats\n`,
      encoding: 'utf8',
      maxBuffer: 256 << 20,
    });
    expect(r.status, r.stderr).toBe(0);
    const [probe, ...lines] = r.stdout.trim().split('\n');
    // The capability probe the addon's dispatch uses sees NEON on the emulated CPU.
    expect(probe).toBe('native-available 1');
    const stats = lines.pop() ?? '';
    expect(lines.length).toBe(commands.length);
    const neon = { native: 0, ref: 0 };
    commands.forEach((c, i) => {
      const f = (lines[i] ?? '').split(' ');
      expect(f[0], `${c.what} (${c.impl}): ${lines[i]?.slice(0, 80)}`).toBe('ok');
      c.check(f);
      const calls = Number(f.at(-1));
      // Every command on the NEON build ran NEON code; none on the portable build did.
      if (c.impl === 'native') expect(calls, `${c.what}: NEON routines run`).toBeGreaterThan(0);
      else expect(calls, `${c.what}: NEON routines run by ref`).toBe(0);
      neon[c.impl] += calls;
    });
    // Every NEON routine of the vendored back end ran.
    const counts = Object.fromEntries(
      stats
        .replace(/^stats /, '')
        .split(' ')
        .map((kv) => kv.split('=') as [string, string]),
    );
    expect(
      Object.keys(counts)
        .map((n) => `mldsa_${n}_aarch64_asm`)
        .sort(),
    ).toEqual(neonRoutines());
    for (const [routine, n] of Object.entries(counts)) expect(Number(n), routine).toBeGreaterThan(0);
    const per = (impl: Impl) => commands.filter((c) => c.impl === impl).length;
    console.log(
      `aarch64 under ${qemu}: ${per('native')} commands on NEON (${neon.native} NEON routine calls), ${per('ref')} on portable C; ${stats}`,
    );
  }, 600_000);
});
