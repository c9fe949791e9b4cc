/**
 * Per-operation signing cost, measured in the runner process (CPU time, not wall time, so a
 * busy machine inflates it less): every algorithm through @pqid/jose's signJwt with a typical ID
 * token's claims, and SLH-DSA (FIPS 205) for the placement study. SLH-DSA is not in @pqid/jose
 * yet: it is signed with Node 24's node:crypto (OpenSSL 3.5), or @noble/post-quantum where the
 * runtime lacks it.
 *
 * Every figure is the median of `repeats` timed loops, and the loops of different algorithms
 * take turns (round 1 of every algorithm, then round 2, …), so a burst of other work on the
 * machine lands in one loop of several algorithms instead of in every loop of one; the loops'
 * spread is kept beside the median.
 */
import crypto from 'node:crypto';
import { generateKeyPair, signJwt } from '@pqid/jose';
import { importPrivateJwk } from './samples.mjs';
import { spreadOf } from './spread.mjs';

/** @typedef {import('./types.d.ts').SignCost} SignCost */

/** @param {NodeJS.CpuUsage} start */
const cpuMicros = (start) => {
  const u = process.cpuUsage(start);
  return u.user + u.system;
};

/** A typical ID token's claims: what every per-operation cost here signs. */
export const CLAIMS = {
  iss: 'https://idp.example.com',
  sub: '248289761001',
  aud: 'client-app',
  auth_time: 1700000000,
  nonce: 'n-0S6_WzA2Mj',
};

/**
 * One timed loop: at least `minOps` operations and `minMs` of CPU time (at most 100,000 ops).
 * @param {() => Promise<unknown> | unknown} op
 * @param {number} minOps
 * @param {number} minMs
 */
async function loop(op, minOps, minMs) {
  let ops = 0;
  const start = process.cpuUsage();
  const wall = performance.now();
  while (ops < minOps || cpuMicros(start) < minMs * 1000) {
    await op();
    ops++;
    if (ops > 100_000) break;
  }
  return { us: cpuMicros(start) / ops, wallUs: ((performance.now() - wall) * 1000) / ops, ops };
}

/**
 * Loops of every operation taking turns, `repeats` rounds; the median loop per operation.
 * @param {[string, () => Promise<unknown> | unknown][]} ops
 * @param {{ repeats: number, minOps: number, minMs: number }} settings
 * @returns {Promise<Record<string, SignCost>>}
 */
export async function interleaved(ops, { repeats, minOps, minMs }) {
  /** @type {Record<string, { us: number, wallUs: number, ops: number }[]>} */
  const loops = Object.fromEntries(ops.map(([name]) => [name, []]));
  for (let i = 0; i < repeats; i++)
    for (const [name, op] of ops) loops[name]?.push(await loop(op, minOps, minMs));
  return Object.fromEntries(
    Object.entries(loops).map(([name, ls]) => {
      const spread = spreadOf(ls.map((l) => l.us));
      const median = ls.find((l) => l.us === spread.median) ?? ls[0];
      return [
        name,
        {
          usPerOp: spread.median,
          wallUsPerOp: median?.wallUs ?? Number.NaN,
          ops: ls.reduce((n, l) => n + l.ops, 0),
          samples: ls.map((l) => l.us),
          spread,
        },
      ];
    }),
  );
}

/**
 * CPU µs per signJwt for each algorithm: the median of `repeats` loops of at least `minOps` ops
 * and `minMs` of CPU time each.
 * @param {string[]} algs
 * @param {{ repeats?: number, minOps?: number, minMs?: number }} [settings]
 */
export async function signCostPerAlg(algs, { repeats = 5, minOps = 4, minMs = 40 } = {}) {
  /** @type {[string, () => Promise<string>][]} */
  const ops = [];
  for (const alg of algs) {
    const { privateJwk } = await generateKeyPair(alg);
    const key = await importPrivateJwk(privateJwk);
    const sign = () => signJwt(CLAIMS, key, { expiresIn: 600 });
    await sign(); // warm-up
    ops.push([alg, sign]);
  }
  return interleaved(ops, { repeats, minOps, minMs });
}

/**
 * One SLH-DSA parameter set's signing function, with where it comes from.
 * @param {string} variant e.g. `slh-dsa-sha2-128s`
 * @param {Buffer} message
 */
async function slhDsaSigner(variant, message) {
  try {
    const { privateKey } = crypto.generateKeyPairSync(/** @type {'ed25519'} */ (variant));
    const sign = () => crypto.sign(null, message, privateKey);
    return { sign, signatureBytes: sign().length, implementation: 'node:crypto (OpenSSL)' };
  } catch {
    const mod =
      /** @type {Record<string, { keygen: () => { secretKey: Uint8Array }, sign: (m: Uint8Array, k: Uint8Array) => Uint8Array }>} */ (
        /** @type {unknown} */ (await import('@noble/post-quantum/slh-dsa.js'))
      );
    const impl = mod[variant.replace(/-/g, '_')];
    if (!impl) throw new Error(`no SLH-DSA parameter set ${variant}`);
    const { secretKey } = impl.keygen();
    const sign = () => impl.sign(message, secretKey);
    return { sign, signatureBytes: sign().length, implementation: '@noble/post-quantum' };
  }
}

/**
 * SLH-DSA sign cost per op (CPU µs), for the placement model: the median of `repeats` loops of
 * `ops` signatures (-128s) or five times as many (-128f, twenty times faster).
 * @param {string[]} [variants]
 * @param {{ repeats?: number, ops?: number }} [settings]
 * @returns {Promise<Record<string, SignCost>>}
 */
export async function slhDsaSignCost(
  variants = ['slh-dsa-sha2-128s', 'slh-dsa-sha2-128f'],
  { repeats = 5, ops = 1 } = {},
) {
  const message = Buffer.from(JSON.stringify(CLAIMS));
  /** @type {Record<string, SignCost>} */
  const out = {};
  for (const variant of variants) {
    const { sign, signatureBytes, implementation } = await slhDsaSigner(variant, message); // the first signature warms up
    const n = variant.endsWith('s') ? ops : ops * 5;
    const cost = (await interleaved([[variant, sign]], { repeats, minOps: n, minMs: 0 }))[variant];
    if (cost) out[variant] = { ...cost, signatureBytes, implementation };
  }
  return out;
}
