/**
 * What a typical ID token costs the CPU, measured in this process: signing it alone, signing then
 * encrypting it to each chosen JWE `alg`/`enc` (what the IdP spends per encrypted ID token), and
 * decrypting that JWE (what the relying party spends before it verifies the signature inside).
 *
 * Process CPU (`process.cpuUsage`: the event loop and the libuv pool, where native signing runs),
 * one call at a time. The rounds take turns across the operations, so a busy moment of a shared
 * machine falls on all of them rather than on one; each figure is the median over the rounds and
 * the ratios divide by signing alone from the same run. A measurement, not a benchmark: the load
 * report and `npm run bench -- --jwe` give figures from a quiet machine.
 */
import { decryptCompact, type PrivateKey } from '@pqid/jose';
import { CliError } from './common.ts';
import { type Encryption, type EncryptionKeyPair, encryptAs } from './encrypted-fit.ts';
import { signTypical } from './token-fit.ts';

export interface CpuCost {
  /** Process CPU per token, µs: the median over the rounds. */
  us: number;
  /** The middle half of the rounds' range (interquartile) ÷ the median: how steady the machine was. */
  spread: number;
  /** Calls measured, all rounds together. */
  calls: number;
}

export interface EncryptedCost {
  /** Signing then encrypting one token: the IdP's cost. */
  signAndEncrypt: CpuCost;
  /** Decrypting the JWE: the relying party's. */
  decrypt: CpuCost;
}

export interface TokenCost {
  sign: CpuCost;
  encrypted: EncryptedCost[];
  rounds: number;
  /** The wall time the measured loops were given, all together. */
  budgetMs: number;
}

type Op = () => Promise<unknown>;

const WARM_UP_CALLS = 3;

/** Process CPU per call of `op` over one slice: at least two calls, until `ms` have passed. */
async function slice(op: Op, ms: number): Promise<{ us: number; calls: number }> {
  const end = performance.now() + ms;
  const start = process.cpuUsage();
  let calls = 0;
  do {
    await op();
    calls++;
  } while (calls < 2 || performance.now() < end);
  const used = process.cpuUsage(start);
  return { us: (used.user + used.system) / calls, calls };
}

/** The `p` quantile of sorted `s`, interpolated between neighbours. */
function quantile(s: readonly number[], p: number): number {
  const at = (s.length - 1) * p;
  const lo = s[Math.floor(at)] as number;
  return lo + ((s[Math.ceil(at)] as number) - lo) * (at - Math.floor(at));
}

function summary(samples: number[], calls: number): CpuCost {
  const s = [...samples].sort((a, b) => a - b);
  const us = quantile(s, 0.5);
  return { us, spread: (quantile(s, 0.75) - quantile(s, 0.25)) / us, calls };
}

/** CPU per call of each op: `rounds` rounds taking turns across the ops, sharing `budgetMs`. */
export async function cpuPerCall(ops: readonly Op[], budgetMs: number, rounds: number): Promise<CpuCost[]> {
  for (const op of ops) for (let i = 0; i < WARM_UP_CALLS; i++) await op();
  const ms = budgetMs / (rounds * ops.length);
  const samples = ops.map(() => [] as number[]);
  const calls = ops.map(() => 0);
  for (let r = 0; r < rounds; r++)
    for (const [i, op] of ops.entries()) {
      const s = await slice(op, ms);
      samples[i]?.push(s.us);
      calls[i] = (calls[i] ?? 0) + s.calls;
    }
  return samples.map((xs, i) => summary(xs, calls[i] ?? 0));
}

/** One encryption to measure: its configuration, its key pair, and a JWE made with that pair. */
export interface CostCase {
  encryption: Encryption;
  keys: EncryptionKeyPair;
  jwe: string;
  signedJwt: string;
}

/** The RP's decryption of `c.jwe`, checked once to give back the signed token (or it measures nothing). */
async function decryptOp(c: CostCase): Promise<Op> {
  const opts = {
    keyManagementAlgorithms: [c.encryption.alg],
    contentEncryptionAlgorithms: c.encryption.enc ? [c.encryption.enc] : [],
  };
  const op = () => decryptCompact(c.jwe, c.keys.privateKey, opts);
  const { plaintext } = await op();
  if (Buffer.from(plaintext).toString('utf8') !== c.signedJwt)
    throw new CliError(
      'ERR_MEASUREMENT',
      `decrypting the ${c.encryption.alg} JWE did not give back the signed token`,
    );
  return op;
}

/** Measures signing alone, and signing then encrypting and decrypting for each case. */
export async function tokenCost(opts: {
  signer: PrivateKey;
  claims: Record<string, unknown>;
  cases: readonly CostCase[];
  budgetMs: number;
  rounds: number;
}): Promise<TokenCost> {
  const { signer, claims, cases, budgetMs, rounds } = opts;
  const sign: Op = () => signTypical(signer, claims);
  const ops: Op[] = [sign];
  for (const c of cases)
    ops.push(
      async () => encryptAs(await signTypical(signer, claims), c.encryption, c.keys.publicKey),
      await decryptOp(c),
    );
  const [signCost, ...rest] = await cpuPerCall(ops, budgetMs, rounds);
  const encrypted: EncryptedCost[] = cases.map((_, i) => ({
    signAndEncrypt: rest[2 * i] as CpuCost,
    decrypt: rest[2 * i + 1] as CpuCost,
  }));
  return { sign: signCost as CpuCost, encrypted, rounds, budgetMs };
}

/** One row's CPU figures, as `pqid token-fit` shows them. */
export interface TokenCpu {
  /** µs per token: signing alone on the signed token's row, signing then encrypting on the others. */
  us: number;
  /** `us` ÷ signing alone. */
  ratio: number;
  /** The RP's decryption, µs per token; null on the signed token's row. */
  decryptUs: number | null;
  /** `decryptUs` ÷ signing alone; null on the signed token's row. */
  decryptRatio: number | null;
  /** The larger spread of the row's measurements. */
  spread: number;
}

/** The rows' CPU figures: the signed token first, then one per encryption, in order. */
export function tokenCpu(cost: TokenCost): TokenCpu[] {
  const sign = cost.sign.us;
  return [
    { us: sign, ratio: 1, decryptUs: null, decryptRatio: null, spread: cost.sign.spread },
    ...cost.encrypted.map((e) => ({
      us: e.signAndEncrypt.us,
      ratio: e.signAndEncrypt.us / sign,
      decryptUs: e.decrypt.us,
      decryptRatio: e.decrypt.us / sign,
      spread: Math.max(e.signAndEncrypt.spread, e.decrypt.spread),
    })),
  ];
}
