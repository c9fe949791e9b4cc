/**
 * Per-operation signing cost, measured in the runner process (CPU time, not wall time, so a
 * busy machine inflates it less): every algorithm through @pqid/jose's signJwt with a typical ID
 * token's claims, and SLH-DSA (FIPS 205) for the placement study. SLH-DSA is not in @pqid/jose
 * yet: it is signed with Node 24's node:crypto (OpenSSL 3.5), or @noble/post-quantum where the
 * runtime lacks it.
 */
import crypto from 'node:crypto';
import { generateKeyPair, importJWK, signJwt } from '@pqid/jose';

const cpuMicros = (start) => {
  const u = process.cpuUsage(start);
  return u.user + u.system;
};

const CLAIMS = {
  iss: 'https://idp.example.com',
  sub: '248289761001',
  aud: 'client-app',
  auth_time: 1700000000,
  nonce: 'n-0S6_WzA2Mj',
};

/** CPU µs per signJwt for each algorithm: at least `minOps` ops and `minMs` of CPU time. */
export async function signCostPerAlg(algs, { minOps = 20, minMs = 200 } = {}) {
  const out = {};
  for (const alg of algs) {
    const { privateJwk } = await generateKeyPair(alg);
    const key = await importJWK(privateJwk);
    await signJwt(CLAIMS, key, { expiresIn: 600 }); // warm-up
    let ops = 0;
    const start = process.cpuUsage();
    const wall = performance.now();
    while (ops < minOps || cpuMicros(start) < minMs * 1000) {
      await signJwt(CLAIMS, key, { expiresIn: 600 });
      ops++;
      if (ops > 100_000) break;
    }
    out[alg] = {
      usPerOp: cpuMicros(start) / ops,
      wallUsPerOp: ((performance.now() - wall) * 1000) / ops,
      ops,
    };
  }
  return out;
}

/** SLH-DSA sign cost per op (CPU µs), for the placement model. */
export async function slhDsaSignCost(
  variants = ['slh-dsa-sha2-128s', 'slh-dsa-sha2-128f'],
  { ops = 2 } = {},
) {
  const out = {};
  const message = Buffer.from(JSON.stringify(CLAIMS));
  for (const variant of variants) {
    const n = variant.endsWith('s') ? ops : ops * 5;
    try {
      const { privateKey } = crypto.generateKeyPairSync(variant);
      crypto.sign(null, message, privateKey); // warm-up
      const start = process.cpuUsage();
      let sig;
      for (let i = 0; i < n; i++) sig = crypto.sign(null, message, privateKey);
      out[variant] = {
        usPerOp: cpuMicros(start) / n,
        ops: n,
        signatureBytes: sig.length,
        implementation: 'node:crypto (OpenSSL)',
      };
    } catch {
      const mod = await import('@noble/post-quantum/slh-dsa.js');
      const impl = mod[variant.replace(/-/g, '_')];
      const { secretKey } = impl.keygen();
      const start = process.cpuUsage();
      let sig;
      for (let i = 0; i < n; i++) sig = impl.sign(message, secretKey);
      out[variant] = {
        usPerOp: cpuMicros(start) / n,
        ops: n,
        signatureBytes: sig.length,
        implementation: '@noble/post-quantum',
      };
    }
  }
  return out;
}
