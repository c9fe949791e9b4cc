// RFC 9964 (ML-DSA for JOSE) examples: seed → public key, and the deterministic JWS signature.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mlDsa44, mlDsa65, mlDsa87 } from '../index.js';
import { hex, readJson, toHex, VECTORS } from './helpers.ts';

interface JoseExample {
  priv: string;
  raw_public_key: string;
  raw_to_be_signed: string;
  raw_signature: string;
}

const CASES = [
  ['44', mlDsa44],
  ['65', mlDsa65],
  ['87', mlDsa87],
] as const;

describe('RFC 9964 JOSE examples', () => {
  for (const [level, s] of CASES) {
    it(`ML-DSA-${level}: keygen(priv) = raw_public_key, deterministic sign = raw_signature`, () => {
      const v = readJson<JoseExample>(join(VECTORS, 'ietf-cose-dilithium/jose', `ML_DSA_${level}.jose.json`));
      const { publicKey, secretKey } = s.keygen(hex(v.priv));
      expect(toHex(publicKey)).toBe(v.raw_public_key.toUpperCase());
      const msg = hex(v.raw_to_be_signed);
      const sig = s.sign(secretKey, msg, { deterministic: true, context: new Uint8Array(0) });
      expect(toHex(sig)).toBe(v.raw_signature.toUpperCase());
      expect(s.verify(publicKey, msg, sig)).toBe(true);
      expect(s.verify(publicKey, msg, hex(v.raw_signature), new Uint8Array(0))).toBe(true);
    });
  }
});
