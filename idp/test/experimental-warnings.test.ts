/**
 * The entry points drop exactly Node's WebCrypto ML-DSA, ML-KEM and SHA-3 ExperimentalWarnings (the
 * passkey library verifies ML-DSA only through WebCrypto; HPKE reaches ML-KEM and SHA-3 there) and let every other warning through. Run in a
 * child process: Node prints each experimental warning once per process.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isExpectedExperimentalWarning } from '../src/experimental-warnings.ts';

const MODULE = fileURLToPath(new URL('../src/experimental-warnings.ts', import.meta.url));

function run(install: boolean): string {
  const script = `
    import { dropExpectedExperimentalWarnings } from ${JSON.stringify(MODULE)};
    ${install ? 'dropExpectedExperimentalWarnings();' : ''}
    SubtleCrypto.supports('verify', 'ML-DSA-44');
    for (const alg of ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87']) await crypto.subtle.generateKey(alg, false, ['sign', 'verify']);
    for (const alg of ['ML-KEM-768', 'ML-KEM-1024']) await crypto.subtle.generateKey(alg, false, ['encapsulateBits', 'decapsulateBits']);
    await crypto.subtle.digest('SHA3-256', new Uint8Array(1));
    process.emitWarning('The Frobnicate API is an experimental feature', 'ExperimentalWarning');
    process.emitWarning('a plain warning');
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stderr;
}

describe('dropExpectedExperimentalWarnings', () => {
  it('Node prints the WebCrypto ML-DSA warnings without it', () => {
    const stderr = run(false);
    expect(stderr).toMatch(/ExperimentalWarning: The supports Web Crypto API method/);
    for (const alg of ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87', 'ML-KEM-768', 'ML-KEM-1024', 'SHA3-256'])
      expect(stderr).toContain(`ExperimentalWarning: The ${alg} Web Crypto API algorithm`);
  });

  it('drops exactly those, and prints every other warning', () => {
    const stderr = run(true);
    expect(stderr).not.toContain('Web Crypto API');
    expect(stderr).toContain('ExperimentalWarning: The Frobnicate API is an experimental feature');
    expect(stderr).toContain('Warning: a plain warning');
  });

  it('matches on the type as well as the text', () => {
    const text =
      'The ML-DSA-65 Web Crypto API algorithm is an experimental feature and might change at any time';
    expect(isExpectedExperimentalWarning(text, 'ExperimentalWarning')).toBe(true);
    expect(isExpectedExperimentalWarning(text, { type: 'ExperimentalWarning' })).toBe(true);
    expect(isExpectedExperimentalWarning(text)).toBe(false);
    expect(isExpectedExperimentalWarning(text, 'DeprecationWarning')).toBe(false);
    expect(
      isExpectedExperimentalWarning(text.replace('ML-DSA-65', 'ML-KEM-768'), 'ExperimentalWarning'),
    ).toBe(true);
    expect(isExpectedExperimentalWarning(text.replace('ML-DSA-65', 'ML-DSA-99'), 'ExperimentalWarning')).toBe(
      false,
    );
  });
});
