/**
 * The `throughput` scenario: every throughput variant (lib/variants.mjs) in table order — pqid's
 * token endpoint, its harness parts, the stateless IdP, node-oidc-provider — then the
 * per-operation sign costs.
 */
import { signCostPerAlg, slhDsaSignCost } from '../../bench.mjs';
import { tokenBudget, tokenDecomposition } from '../../report/decomposition.mjs';
import { variantsOf } from '../../variants.mjs';
import { measureVariant } from '../phases.mjs';
import { fmt } from '../progress.mjs';
import { withServer } from '../servers.mjs';

/** @typedef {import('../../types.d.ts').Results} Results */
/** @typedef {import('../../types.d.ts').Server} Server */
/** @typedef {import('../context.mjs').RunContext} RunContext */

/**
 * Progress lines that become possible once a variant has run: the token's parts after the last
 * harness part, its budget after the baseline it is measured against.
 * @type {Record<string, (results: Results) => string[]>}
 */
const NOTES_AFTER = {
  'pqid-store-floor': (results) => tokenDecomposition(results, 'stored'),
  'pqid-stateless': (results) => tokenDecomposition(results, 'stateless'),
  'oidc-provider': tokenBudget,
};

/**
 * The sign-cost benchmark's settings: short loops in a smoke run, always repeated.
 * @param {boolean} smoke
 */
export const signCostSettings = (smoke) =>
  smoke ? { repeats: 3, minOps: 3, minMs: 10 } : { repeats: 5, minOps: 4, minMs: 40 };

/**
 * SLH-DSA's: one signature per -128s loop (a third of a second or more), five per -128f loop.
 * @param {boolean} smoke
 */
export const slhDsaSettings = (smoke) => ({ repeats: smoke ? 3 : 5, ops: 1 });

/**
 * @param {RunContext} ctx
 * @param {Server} idp the main IdP (variants whose server is `idp`)
 */
export async function throughput(ctx, idp) {
  const { opts, results, progress } = ctx;
  for (const v of variantsOf('throughput', opts)) {
    if (v.server === 'idp') await measureVariant(ctx, v, idp);
    else await withServer(ctx, v.server, (server) => measureVariant(ctx, v, server));
    for (const line of NOTES_AFTER[v.target]?.(results) ?? []) progress.note(line);
  }
  // Per-operation sign costs (placement study, and to split token CPU into signing and the rest).
  results.signCost = await signCostPerAlg(opts.algs, signCostSettings(opts.smoke));
  results.slhDsa = await slhDsaSignCost(undefined, slhDsaSettings(opts.smoke));
  progress.step(
    `sign cost per op: ${Object.entries(results.signCost)
      .map(([a, c]) => `${a} ${fmt(c.usPerOp / 1000, 3)} ms`)
      .join(
        ', ',
      )}; SLH-DSA-SHA2-128s ${fmt((results.slhDsa['slh-dsa-sha2-128s']?.usPerOp ?? Number.NaN) / 1000)} ms`,
  );
}
