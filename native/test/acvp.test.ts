// NIST ACVP ML-DSA vectors (v1.1.0.43) on mldsa-native, for the run-time chosen implementation
// (x86_64-avx2 or aarch64-neon where the CPU has it) on every Keccak implementation this CPU
// runs (avx512vl, avx2, portable), and for the forced portable `ref` (helpers.ts variants()).
import { describe, expect, it } from 'vitest';
import { type Algorithm, type SecretKey, scheme } from '../index.js';
import { secretKeyEquals, signInternal, verifyInternal } from '../internal.js';
import { acvp, hex, onVariant, toHex, variants } from './helpers.ts';

const VARIANTS = variants();

describe('ACVP ML-DSA keyGen (FIPS 204)', () => {
  it.each(VARIANTS)('75 seeds give byte-exact pk and expanded sk ($label)', (v) =>
    onVariant(v, () => {
      const impl = v.implementation;
      const cases = acvp('ML-DSA-keyGen-FIPS204');
      let n = 0;
      for (const { group, test, expected } of cases) {
        const s = scheme(group.parameterSet as Algorithm, { implementation: impl });
        const { publicKey, secretKey } = s.keygen(hex(test.seed));
        expect(toHex(publicKey), `tc ${test.tcId}`).toBe(expected.pk);
        // The expanded sk never leaves Rust: compare it there, byte for byte.
        expect(secretKeyEquals(secretKey, hex(expected.sk)), `tc ${test.tcId} sk`).toBe(true);
        expect(secretKeyEquals(secretKey, hex(expected.pk))).toBe(false);
        const imported = s.importSecretKey(hex(expected.sk));
        const msg = hex(test.seed);
        expect(toHex(s.sign(secretKey, msg, { deterministic: true }))).toBe(
          toHex(s.sign(imported, msg, { deterministic: true })),
        );
        n++;
      }
      console.log(`ACVP keyGen (${v.label}): ${n} vectors run`);
      expect(n).toBe(75);
    }),
  );
});

for (const v of VARIANTS) {
  const impl = v.implementation;
  describe(`ACVP ML-DSA sigGen (${v.label})`, () => {
    for (const dir of ['ML-DSA-sigGen-FIPS204', 'ML-DSA-sigGen-FIPS204-tr1']) {
      it(`${dir}: pure external, internal (M′) and external-μ groups, deterministic and hedged, byte-for-byte`, () =>
        onVariant(v, async () => {
          const counts = { external: 0, internal: 0, externalMu: 0, skippedPreHash: 0, seedKeys: 0 };
          for (const { group, test, expected } of acvp(dir)) {
            const alg = group.parameterSet as Algorithm;
            const s = scheme(alg, { implementation: impl });
            if (group.signatureInterface === 'external' && group.preHash !== 'pure') {
              counts.skippedPreHash++;
              continue;
            }
            let sk: SecretKey;
            if (group.keyFormat === 'seed') {
              sk = s.keygen(hex(test.seed)).secretKey;
              counts.seedKeys++;
            } else {
              sk = s.importSecretKey(hex(test.sk));
            }
            const opts = group.deterministic ? { deterministic: true } : { rnd: hex(test.rnd) };
            let sig: Uint8Array;
            if (group.signatureInterface === 'external') {
              sig = s.sign(sk, hex(test.message), { ...opts, context: hex(test.context) });
              counts.external++;
            } else if (group.externalMu) {
              // FIPS 204 Algorithm 7 from line 7, sync and on the pool.
              sig = s.signMu(sk, hex(test.mu), opts);
              expect(toHex(await s.signMuAsync(sk, hex(test.mu), opts))).toBe(expected.signature);
              counts.externalMu++;
            } else {
              sig = signInternal(alg, sk, hex(test.message), { ...opts, implementation: impl });
              counts.internal++;
            }
            expect(toHex(sig), `${dir} tg ${group.tgId} tc ${test.tcId}`).toBe(expected.signature);
            sk.free();
          }
          console.log(`ACVP ${dir} [${v.label}]: ${JSON.stringify(counts)}`);
          expect(counts.external).toBeGreaterThan(0);
          expect(counts.internal).toBeGreaterThan(0);
          expect(counts.externalMu).toBeGreaterThan(0);
        }));
    }
  });

  describe(`ACVP ML-DSA sigVer (${v.label})`, () => {
    it('pure external, internal (M′) and external-μ groups match testPassed', () =>
      onVariant(v, () => {
        const counts = { run: 0, passed: 0, failed: 0, externalMu: 0, skippedPreHash: 0 };
        for (const { group, test, expected } of acvp('ML-DSA-sigVer-FIPS204')) {
          const alg = group.parameterSet as Algorithm;
          const s = scheme(alg, { implementation: impl });
          if (group.signatureInterface === 'external' && group.preHash !== 'pure') {
            counts.skippedPreHash++;
            continue;
          }
          const externalMu = group.signatureInterface === 'internal' && group.externalMu === true;
          if (externalMu) counts.externalMu++;
          const ok =
            group.signatureInterface === 'external'
              ? s.verify(hex(test.pk), hex(test.message), hex(test.signature), hex(test.context))
              : verifyInternal(
                  alg,
                  hex(test.pk),
                  hex(externalMu ? test.mu : test.message),
                  hex(test.signature),
                  {
                    externalMu,
                    implementation: impl,
                  },
                );
          expect(ok, `tg ${group.tgId} tc ${test.tcId}`).toBe(expected.testPassed);
          counts.run++;
          counts[ok ? 'passed' : 'failed']++;
        }
        console.log(`ACVP sigVer [${v.label}]: ${JSON.stringify(counts)}`);
        expect(counts.run).toBeGreaterThan(0);
        expect(counts.failed).toBeGreaterThan(0);
        expect(counts.externalMu).toBeGreaterThan(0);
      }));
  });
}
