/**
 * The sizes scenario's encryption part: the ID tokens it measured, encrypted with each JWE
 * configuration (bytes where they travel), and the CPU per token of encrypting next to signing.
 * Both in the runner process: the IdP does not need to encrypt for the bytes or the CPU to be
 * what an encrypting IdP pays.
 */
import { encryptedSizes, encryptionCost } from '../../encryption.mjs';
import { fmt } from '../progress.mjs';
import { signCostSettings } from './throughput.mjs';

/** @typedef {import('../context.mjs').RunContext} RunContext */
/** @typedef {import('../../samples.mjs').SizeItem} SizeItem */

/** The ID token signature the encryption cost is compared with: the recommended default. */
export const ENCRYPTION_SIGN_ALG = 'ML-DSA-65';

/**
 * @param {RunContext} ctx
 * @param {SizeItem[]} items the sizes scenario's token sets
 * @param {{ endSessionEndpoint: string, postLogoutRedirectUri: string }} where
 */
export async function encryption(ctx, items, where) {
  const { opts, results } = ctx;
  const sizes = await encryptedSizes(items, opts.budgets, where);
  const cost = await encryptionCost(ENCRYPTION_SIGN_ALG, signCostSettings(opts.smoke));
  results.encryption = { sizes, cost };
  const sign = cost.cost[`sign ${ENCRYPTION_SIGN_ALG}`]?.usPerOp ?? Number.NaN;
  const xwing = cost.cost['sign + encrypt HPKE-9']?.usPerOp ?? Number.NaN;
  ctx.progress.step(
    `encryption: ${sizes.filter((r) => r.jwe && !r.fitsCookie).length} of ${sizes.filter((r) => r.jwe).length} encrypted ID tokens too big for one cookie; ${ENCRYPTION_SIGN_ALG} sign ${fmt(sign / 1000, 3)} ms, sign + X-Wing encrypt ${fmt(xwing / 1000, 3)} ms`,
  );
}
