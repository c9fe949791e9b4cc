/**
 * Backend plumbing for the vector tests: which backends run here, and running JOSE-level code
 * (which has no per-call backend option for verification) pinned to one backend through
 * `configure({ backend })` — with a spy proving that backend really did the ML-DSA work, so a test that
 * claims "verified on noble" cannot silently have run on native.
 */

import { type BackendName, type BackendStatus, backends, configure } from '@pqid/jose';
import { vi } from 'vitest';
// Same module instance as the one behind '@pqid/jose' (the alias points at src/index.ts).
import { getBackend } from '../../src/backends/select.ts';

export const availableBackends = (): BackendStatus[] => backends().filter((b) => b.available);

/** Backends that can reproduce byte-exact signatures (deterministic / caller rnd). */
export const rndBackends = (): BackendStatus[] => availableBackends().filter((b) => b.capabilities.rnd);

export function describeBackends(): string {
  return backends()
    .map(
      (b) =>
        `${b.name}: ${b.available ? `available (${b.implementation ?? '?'}) caps=${JSON.stringify(b.capabilities)}` : `unavailable (${b.reason})`}`,
    )
    .join('\n  ');
}

/**
 * Runs `fn` with `configure({ backend: name })` and returns its result plus how many ML-DSA, SLH-DSA or
 * whole-composite verify and sign calls reached that backend.
 */
export async function onBackend<T>(
  name: BackendName,
  fn: () => Promise<T>,
): Promise<{ result: T; verifyCalls: number; signCalls: number }> {
  const b = getBackend(name);
  // ML-DSA, and where the backend has them SLH-DSA and whole composites (native signs and
  // verifies a composite in one call): any family's work counts.
  const spies = {
    verify: [
      vi.spyOn(b, 'verify'),
      ...(b.slhDsa ? [vi.spyOn(b.slhDsa, 'verify')] : []),
      ...(b.composite ? [vi.spyOn(b.composite, 'verify')] : []),
    ],
    sign: [
      vi.spyOn(b, 'sign'),
      ...(b.slhDsa ? [vi.spyOn(b.slhDsa, 'sign')] : []),
      ...(b.composite ? [vi.spyOn(b.composite, 'sign')] : []),
    ],
  };
  const calls = (s: { mock: { calls: unknown[] } }[]) => s.reduce((n, x) => n + x.mock.calls.length, 0);
  const prev = configure({ backend: name });
  try {
    const result = await fn();
    return { result, verifyCalls: calls(spies.verify), signCalls: calls(spies.sign) };
  } finally {
    configure(prev);
    for (const s of [...spies.verify, ...spies.sign]) s.mockRestore();
  }
}

/** Expects `p` to reject with a PqidError of this code; returns the error. */
export async function rejectsWithCode(p: Promise<unknown>, code: string): Promise<Error & { code?: string }> {
  try {
    await p;
  } catch (e) {
    const err = e as Error & { code?: string };
    if (err.code !== code)
      throw new Error(`expected code ${code}, got ${String(err.code)}: ${err.message}`, { cause: e });
    return err;
  }
  throw new Error(`expected a rejection with code ${code}, but it resolved`);
}

export const flipByte = (b: Uint8Array, i: number): Uint8Array => {
  const c = new Uint8Array(b);
  c[i] = (c[i] as number) ^ 0x01;
  return c;
};
