/** randomToken draws from a pooled CSPRNG buffer: no handle may repeat, across pool refills too. */
import { describe, expect, it } from 'vitest';
import { randomToken } from '../src/crypto/secrets.ts';

describe('randomToken', () => {
  it('gives distinct handles of the asked size across several pool refills', () => {
    const seen = new Set<string>();
    // 4 KiB pools: 2000 × (32 + 16) bytes is more than 23 refills, with odd sizes in between.
    for (let i = 0; i < 2000; i++) {
      for (const bytes of [32, 16, 7]) {
        const t = randomToken(bytes);
        expect(Buffer.from(t, 'base64url')).toHaveLength(bytes);
        seen.add(t);
      }
    }
    expect(seen.size).toBe(6000);
  });

  it('serves large requests straight from the CSPRNG', () => {
    const a = randomToken(1024);
    expect(Buffer.from(a, 'base64url')).toHaveLength(1024);
    expect(a).not.toBe(randomToken(1024));
  });
});
