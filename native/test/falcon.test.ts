// Falcon (experimental): minimal roundtrip through liboqs' public OQS_SIG API.
import { describe, expect, it } from 'vitest';
import { falcon512, falcon1024, LiboqsError, scheme } from '../index.js';
import { flip } from './helpers.ts';

describe('Falcon smoke', () => {
  for (const s of [falcon512, falcon1024]) {
    it(`${s.algorithm}: keygen/sign/verify, tamper fails`, async () => {
      const { publicKey, secretKey } = s.keygen();
      expect(publicKey.length).toBe(s.publicKeyBytes);
      const msg = new TextEncoder().encode('falcon smoke test');
      const sig = s.sign(secretKey, msg);
      expect(sig.length).toBeLessThanOrEqual(s.signatureBytes);
      expect(s.verify(publicKey, msg, sig)).toBe(true);
      const bad = Uint8Array.from(sig);
      flip(bad, bad.length >> 1);
      expect(s.verify(publicKey, msg, bad)).toBe(false);
      expect(s.verify(publicKey, new TextEncoder().encode('other'), sig)).toBe(false);
      expect(await s.verifyAsync(publicKey, msg, await s.signAsync(secretKey, msg))).toBe(true);
      // No seed, context, rnd or forced ref for Falcon.
      const code = (f: () => unknown) => {
        try {
          f();
        } catch (e) {
          expect(e).toBeInstanceOf(LiboqsError);
          return (e as LiboqsError).code;
        }
        return 'no error';
      };
      expect(code(() => s.keygen(new Uint8Array(32)))).toBe('ERR_UNSUPPORTED');
      expect(code(() => s.sign(secretKey, msg, { context: new Uint8Array(1) }))).toBe('ERR_UNSUPPORTED');
      expect(code(() => s.sign(secretKey, msg, { deterministic: true }))).toBe('ERR_UNSUPPORTED');
      expect(code(() => s.verify(publicKey, msg, sig, new Uint8Array(1)))).toBe('ERR_UNSUPPORTED');
      expect(code(() => scheme(s.algorithm, { implementation: 'ref' }))).toBe('ERR_UNSUPPORTED');
      expect(code(() => s.verify(publicKey, msg, new Uint8Array(s.signatureBytes + 1)))).toBe(
        'ERR_INVALID_SIGNATURE_LENGTH',
      );
      expect(code(() => s.importSecretKey(new Uint8Array(5)))).toBe('ERR_INVALID_KEY_LENGTH');
    });
  }
});
