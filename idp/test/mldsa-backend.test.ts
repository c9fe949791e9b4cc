/**
 * What the IdP says about the ML-DSA backend that signs: the banner lines, /healthz, the
 * /metrics gauges, and PQID_REQUIRE_NATIVE. The fallback cases use constructed reports here;
 * test/faults.test.ts starts main.js with the native addon really missing or self-disabled.
 */
import { backends, configure, preferredBackend, settings } from '@pqid/jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdp } from '../src/app.ts';
import { main as cliMain } from '../src/cli/main.ts';
import { backendSettings, ConfigError, readEnvironment } from '../src/config/index.ts';
import {
  bannerLines,
  type MlDsaBackendReport,
  mldsaBackendReport,
  NativeRequiredError,
  requireNativeIfAsked,
} from '../src/mldsa-backend.ts';
import { KEK, startTestIdp, tempDir, testConfig } from './helpers.ts';

const NATIVE: MlDsaBackendReport = {
  backend: 'native',
  implementation: 'mldsa-native x86_64-avx2 (dist, prebuilt)',
  fallback: false,
  native: {
    available: true,
    implementation: 'mldsa-native x86_64-avx2 (dist, prebuilt)',
    selfTest: { ok: true, checks: 6, milliseconds: 3.5 },
  },
};
const MISSING: MlDsaBackendReport = {
  backend: 'node',
  implementation: 'OpenSSL 3.5.4 (node v24.7.0)',
  fallback: true,
  native: {
    available: false,
    reason: 'cargo is not on PATH',
    fix: 'install Rust >= 1.88, then run `npm rebuild @pqid/liboqs-node`',
  },
};
const OVERRIDDEN: MlDsaBackendReport = {
  ...NATIVE,
  backend: 'noble',
  implementation: 'noble 0.7.1',
  fallback: true,
};

describe('banner lines', () => {
  it('name the native backend, its implementation and self-test', () => {
    expect(bannerLines(NATIVE)).toEqual([
      '  ML-DSA:      native backend, mldsa-native x86_64-avx2 (dist, prebuilt), power-on self-test passed (6 checks, 3.5 ms)',
    ]);
  });

  it('mark a fallback, with why native is unavailable and the fix', () => {
    const lines = bannerLines(MISSING).join('\n');
    expect(lines).toContain('node backend, OpenSSL 3.5.4 (node v24.7.0)  <-- FALLBACK');
    expect(lines).toContain('native unavailable: cargo is not on PATH');
    expect(lines).toContain('to fix: install Rust >= 1.88, then run `npm rebuild @pqid/liboqs-node`');
    expect(lines).toContain('PQID_REQUIRE_NATIVE=1');
  });

  it('say when native is there but PQID_BACKEND chose another', () => {
    expect(bannerLines(OVERRIDDEN).join('\n')).toContain(
      'native is available but not chosen (PQID_BACKEND is set)',
    );
  });

  it('say when there is no ML-DSA backend at all', () => {
    expect(bannerLines({ ...MISSING, backend: null, implementation: null })[0]).toContain(
      'no backend: ML-DSA is not offered',
    );
  });
});

describe('PQID_REQUIRE_NATIVE', () => {
  it('refuses a fallback, with the reason and the fix', () => {
    const e = (() => {
      try {
        requireNativeIfAsked(readEnvironment({ PQID_REQUIRE_NATIVE: '1' }), MISSING);
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(NativeRequiredError);
    expect(e).toMatchObject({
      code: 'ERR_NATIVE_REQUIRED',
      backend: 'node',
      why: 'the native backend is unavailable: cargo is not on PATH',
      fix: MISSING.native.fix,
    });
  });

  it('refuses native overridden by PQID_BACKEND', () => {
    expect(() =>
      requireNativeIfAsked(
        readEnvironment({ PQID_REQUIRE_NATIVE: 'true', PQID_BACKEND: 'noble' }),
        OVERRIDDEN,
      ),
    ).toThrow(/would sign on noble: PQID_BACKEND=noble chooses it over native/);
  });

  it('accepts native, and does nothing when unset or off', () => {
    expect(() => requireNativeIfAsked(readEnvironment({ PQID_REQUIRE_NATIVE: '1' }), NATIVE)).not.toThrow();
    for (const v of [undefined, '', '0', 'false', 'no', 'OFF']) {
      expect(() => requireNativeIfAsked(readEnvironment({ PQID_REQUIRE_NATIVE: v }), MISSING)).not.toThrow();
    }
  });
});

/** /healthz's detail and /metrics are the operator's: both behind this token. */
const OPERATOR_TOKEN = 'operator-token-0123456789';

describe('the running provider', () => {
  let t: Awaited<ReturnType<typeof startTestIdp>>;
  beforeAll(async () => {
    // In CI (PQID_REQUIRE_NATIVE=1) native must be there; locally the test follows what is.
    t = await startTestIdp(
      { metricsToken: OPERATOR_TOKEN },
      { PQID_KEK: KEK, PQID_REQUIRE_NATIVE: process.env.PQID_REQUIRE_NATIVE ?? '' },
    );
  });
  afterAll(() => t.close());

  it('reports the signing backend and native state at /healthz', async () => {
    const r = await t.idp.app.inject({
      url: '/healthz',
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    });
    const { mldsa } = r.json() as { mldsa: MlDsaBackendReport };
    const signer = backends().find((b) => b.name === preferredBackend());
    expect(mldsa.backend).toBe(signer?.name);
    expect(mldsa.implementation).toBe(signer?.implementation);
    expect(mldsa.fallback).toBe(signer?.name !== 'native');
    expect(mldsa).toEqual(mldsaBackendReport());
    if (mldsa.native.available) expect(mldsa.native.selfTest?.ok).toBe(true);
    else expect(mldsa.native.reason).toMatch(/\S/);
  });

  it('exports the backend as an info gauge and native as 0/1 at /metrics', async () => {
    const body = (
      await t.idp.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } })
    ).body;
    const r = mldsaBackendReport();
    expect(body).toContain(
      `pqid_mldsa_backend_info{backend="${r.backend}",implementation="${r.implementation}"} 1`,
    );
    expect(body).toMatch(new RegExp(`^pqid_mldsa_native ${r.fallback ? 0 : 1}$`, 'm'));
  });

  it('refuses to start when PQID_REQUIRE_NATIVE is set and ML-DSA would sign on a fallback', async () => {
    const prev = configure({ backend: 'noble' });
    const { dir, cleanup } = tempDir();
    try {
      const env = { PQID_KEK: KEK, PQID_REQUIRE_NATIVE: '1' };
      await expect(createIdp(testConfig(dir), { env, warn: () => {} })).rejects.toMatchObject({
        code: 'ERR_NATIVE_REQUIRED',
        backend: 'noble',
      });
    } finally {
      configure(prev);
      cleanup();
    }
  });
});

describe('backendSettings: the environment of npm start and the CLI, for @pqid/jose', () => {
  it('maps PQID_BACKEND and PQID_NATIVE_COMPOSITES, unset or empty meaning automatic', () => {
    expect(backendSettings({})).toEqual({ backend: undefined, compositeMode: 'auto', nativeSigning: {} });
    expect(backendSettings({ PQID_BACKEND: '', PQID_NATIVE_COMPOSITES: '', PQID_SIGN_SLOTS: '' })).toEqual({
      backend: undefined,
      compositeMode: 'auto',
      nativeSigning: {},
    });
    expect(backendSettings({ PQID_BACKEND: 'native-ref', PQID_NATIVE_COMPOSITES: 'whole' })).toEqual({
      backend: 'native-ref',
      compositeMode: 'whole',
      nativeSigning: {},
    });
    // `off` is what the variable always said for split
    expect(backendSettings({ PQID_NATIVE_COMPOSITES: 'off' }).compositeMode).toBe('split');
    expect(backendSettings({ PQID_NATIVE_COMPOSITES: 'Split' }).compositeMode).toBe('split');
  });

  it('maps PQID_SIGN_SLOTS and PQID_SIGN_BATCH onto nativeSigning, each only when set', () => {
    expect(backendSettings({ PQID_SIGN_SLOTS: '3', PQID_SIGN_BATCH: ' 5 ' }).nativeSigning).toEqual({
      slots: 3,
      maxBatch: 5,
    });
    expect(backendSettings({ PQID_SIGN_BATCH: '1' }).nativeSigning).toEqual({ maxBatch: 1 });
    for (const v of ['0', 'eight', '1.5', '-2', '3e2'])
      expect(() => backendSettings({ PQID_SIGN_SLOTS: v }), v).toThrow(
        new ConfigError(`PQID_SIGN_SLOTS must be an integer ≥ 1, got ${JSON.stringify(v)}`),
      );
  });

  it('the CLI hands them to @pqid/jose', async () => {
    const before = settings();
    const quiet = process.stdout.write;
    process.stdout.write = () => true;
    try {
      expect(await cliMain(['algorithms'], { PQID_SIGN_SLOTS: '7', PQID_NATIVE_COMPOSITES: 'whole' })).toBe(
        0,
      );
    } finally {
      process.stdout.write = quiet;
    }
    try {
      expect(settings()).toMatchObject({ compositeMode: 'whole', nativeSigning: { slots: 7 } });
    } finally {
      configure(before);
    }
  });

  it('refuses anything else with a ConfigError naming the choices', () => {
    expect(() => backendSettings({ PQID_BACKEND: 'openssl' })).toThrow(ConfigError);
    expect(() => backendSettings({ PQID_BACKEND: 'openssl' })).toThrow(/native, node, noble, native-ref/);
    for (const v of ['on', 'constructor', 'toString'])
      expect(() => backendSettings({ PQID_NATIVE_COMPOSITES: v }), v).toThrow(/auto, whole or split/);
  });
});
