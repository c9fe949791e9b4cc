/** The start banner's key lines: one per key, aligned, each marked new or reused. */
import { describe, expect, it } from 'vitest';
import { keyLines } from '../src/banner.ts';

describe('keyLines', () => {
  it('marks the keys this start made new and every other key reused', () => {
    const keys = [
      { set: 'oidc', alg: 'ML-DSA-65', kid: 'aaaaaaaaaaaaaaaaaaaa' },
      { set: 'root', alg: 'SLH-DSA-SHA2-128s', kid: 'bbbbbbbbbbbbbbbbbbbb' },
      { set: 'oidc', alg: 'ML-DSA-44', kid: 'cccccccccccccccccccc' },
    ];
    expect(keyLines(keys, ['cccccccccccccccccccc'])).toEqual([
      '  keys:        oidc ML-DSA-65          aaaaaaaaaaaa…  reused',
      '               root SLH-DSA-SHA2-128s  bbbbbbbbbbbb…  reused',
      '               oidc ML-DSA-44          cccccccccccc…  new',
    ]);
  });
});
