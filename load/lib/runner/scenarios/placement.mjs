/**
 * The `placement` scenario: a second IdP whose cold-path root is SLH-DSA-SHA2-128s, its cold path
 * measured (re-signing after a rotation, cached fetches), then its hot-path variant driven with
 * relying parties polling the cold objects during every phase.
 */
import { signCostPerAlg, slhDsaSignCost } from '../../bench.mjs';
import { measureColdPath } from '../../cold-path.mjs';
import { COLD_EVERY, PLACEMENT_ALGS, variantsOf } from '../../variants.mjs';
import { measureVariant } from '../phases.mjs';
import { fmt } from '../progress.mjs';
import { PLACEMENT_CONFIG, withServer } from '../servers.mjs';
import { signCostSettings, slhDsaSettings } from './throughput.mjs';

/** @typedef {import('../context.mjs').RunContext} RunContext */

/**
 * @param {RunContext} ctx
 */
export async function placement(ctx) {
  const { opts, results, progress } = ctx;
  for (const v of variantsOf('placement', opts)) {
    await withServer(ctx, v.server, async (placed) => {
      const cold = await measureColdPath(placed, {
        rounds: 3,
        cachedFetches: opts.smoke ? 5 : 50,
      });
      progress.step(
        `cold path: signed JWKS re-signed in ${fmt(cold.objects.signedJwks.resign.cpuMs, 0)} ms CPU, SAML metadata in ${fmt(cold.objects.metadata.resign.cpuMs, 0)} ms CPU (${cold.objects.metadata.resign.signatures} SLH-DSA signatures); cached fetch p50 ${fmt(cold.objects.signedJwks.cached.p50Ms, 2)} ms`,
      );
      await measureVariant(ctx, v, placed);
      // Per-op costs for the model's predictions beside the measured rows.
      results.signCost ??= await signCostPerAlg(['ES256'], signCostSettings(opts.smoke));
      results.slhDsa ??= await slhDsaSignCost(undefined, slhDsaSettings(opts.smoke));
      results.placementRun = {
        algs: PLACEMENT_ALGS,
        config: PLACEMENT_CONFIG,
        coldPath: cold,
        coldTraffic: { every: COLD_EVERY },
      };
      progress.step(
        `placement: ${PLACEMENT_ALGS.join(', ')} on the hot path, SLH-DSA-SHA2-128s on the cold path`,
      );
    });
  }
}
