/**
 * Which ML-DSA backend signs, and whether that is the native one. A missing or self-disabled
 * native addon does not stop the IdP, it makes every ML-DSA signature several times slower, so
 * the start banner, /healthz and /metrics all say so, and PQID_REQUIRE_NATIVE=1 turns it into a
 * refusal to start.
 */
import { type BackendStatus, backends, preferredBackend } from '@pqid/jose';
import type { EnvironmentSettings } from './config/index.ts';
import { IdpError } from './errors/index.ts';

export interface MlDsaBackendReport {
  /** The backend ordinary ML-DSA signatures use (`native`, `node`, `noble`), null when none. */
  backend: string | null;
  /** That backend's implementation, e.g. `mldsa-native x86_64-avx2 (dist, prebuilt)`. */
  implementation: string | null;
  /** True when ML-DSA does not sign on the native backend. */
  fallback: boolean;
  /** The native backend: available or why not, how to fix it, its power-on self-test. */
  native: Pick<BackendStatus, 'available' | 'reason' | 'fix' | 'implementation' | 'selfTest'>;
}

export function mldsaBackendReport(): MlDsaBackendReport {
  const all = backends();
  let backend: string | null = null;
  try {
    backend = preferredBackend();
  } catch {
    // no ML-DSA backend at all: the ML-DSA algorithms are simply not offered
  }
  const n = all.find((b) => b.name === 'native');
  const native = n
    ? {
        available: n.available,
        ...(n.reason ? { reason: n.reason } : {}),
        ...(n.fix ? { fix: n.fix } : {}),
        ...(n.implementation ? { implementation: n.implementation } : {}),
        ...(n.selfTest ? { selfTest: n.selfTest } : {}),
      }
    : { available: false, reason: 'this @pqid/jose has no native backend' };
  return {
    backend,
    implementation: all.find((b) => b.name === backend)?.implementation ?? null,
    fallback: backend !== 'native',
    native,
  };
}

/** The start banner's lines about ML-DSA signing: what signs, and if it is a fallback, why and the fix. */
export function bannerLines(r: MlDsaBackendReport): string[] {
  const selfTest = r.native.selfTest
    ? `, power-on self-test passed (${r.native.selfTest.checks} checks, ${r.native.selfTest.milliseconds} ms)`
    : '';
  if (!r.fallback) return [`  ML-DSA:      native backend, ${r.implementation}${selfTest}`];
  const signer = r.backend
    ? `${r.backend} backend, ${r.implementation}`
    : 'no backend: ML-DSA is not offered';
  const lines = [`  ML-DSA:      ${signer}  <-- FALLBACK, several times slower than native`];
  if (r.native.available) {
    lines.push('               native is available but not chosen (PQID_BACKEND is set)');
  } else {
    lines.push(`               native unavailable: ${r.native.reason ?? 'unknown reason'}`);
    if (r.native.fix) lines.push(`               to fix: ${r.native.fix}`);
    lines.push('               PQID_REQUIRE_NATIVE=1 makes the IdP refuse to start without it');
  }
  return lines;
}

export class NativeRequiredError extends IdpError<'ERR_NATIVE_REQUIRED'> {
  /** The backend ML-DSA would have signed on instead. */
  readonly backend: string | null;
  /** Why native is not the one. */
  readonly why: string;
  /** What to do about it, when known. */
  readonly fix: string | undefined;
  constructor(backend: string | null, why: string, fix?: string) {
    super(
      'ERR_NATIVE_REQUIRED',
      `PQID_REQUIRE_NATIVE is set but ML-DSA would sign on ${backend ?? 'no backend'}: ${why}${fix ? `; to fix: ${fix}` : ''}`,
    );
    this.backend = backend;
    this.why = why;
    this.fix = fix;
  }
}

/** PQID_REQUIRE_NATIVE set (config/environment.ts): refuse to run ML-DSA on a fallback. */
export function requireNativeIfAsked(
  settings: Pick<EnvironmentSettings, 'requireNative' | 'backend'>,
  r = mldsaBackendReport(),
): void {
  if (!settings.requireNative || !r.fallback) return;
  if (r.native.available) {
    throw new NativeRequiredError(r.backend, `PQID_BACKEND=${settings.backend ?? ''} chooses it over native`);
  }
  throw new NativeRequiredError(
    r.backend,
    `the native backend is unavailable: ${r.native.reason ?? 'unknown reason'}`,
    r.native.fix,
  );
}
