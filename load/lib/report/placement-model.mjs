/**
 * The placement study's numbers: what signing the hot path (every token) with a slow signer
 * does, against using it only on the cold path (a signed JWKS, SAML metadata, re-signed once an
 * hour). `measuredPlacement` reads the placement scenario's phases (every regime served by an
 * IdP); `placementModel` is the fallback without it (SLH-DSA regimes modelled from per-op costs).
 */
import { f } from './format.mjs';

/** @typedef {import('../types.d.ts').Results} Results */
/** @typedef {import('../types.d.ts').CapacityRow} CapacityRow */
/** @typedef {import('../types.d.ts').Placement} Placement */
/** @typedef {import('../types.d.ts').PlacementRegime} PlacementRegime */
/** @typedef {Omit<PlacementRegime, 'tokensPerCoreSecond' | 'retained' | 'infraMultiplier' | 'costPerMillion'>} Regime */

/** Rotations of the cold-path objects per hour: each one re-signs them once. */
const COLD_SIGNS_PER_HOUR = 1;

/**
 * Capacity figures of each regime against the baseline's CPU per token.
 * @param {Regime[]} regimes
 * @param {number} baselineCpuMs
 * @param {number} price $ per vCPU-hour
 * @returns {PlacementRegime[]}
 */
function priced(regimes, baselineCpuMs, price) {
  return regimes.map((r) =>
    Object.assign(r, {
      tokensPerCoreSecond: 1000 / r.cpuMs,
      retained: baselineCpuMs / r.cpuMs,
      infraMultiplier: r.cpuMs / baselineCpuMs,
      costPerMillion: (r.cpuMs / 1000 / 3600) * 1e6 * price,
    }),
  );
}

/**
 * Modelled placement, from the throughput scenario alone: ES256 and ML-DSA-65 rows are measured;
 * SLH-DSA rows are MODELLED from the measured per-token non-signing CPU and SLH-DSA's measured
 * per-op sign cost — the IdP does not serve them here.
 * @param {Results} results
 * @param {CapacityRow[]} capacity
 * @returns {Placement | undefined}
 */
export function placementModel(results, capacity) {
  const grant = capacity.some((r) => r.target === 'pqid' && r.grant === 'refresh_token')
    ? 'refresh_token'
    : 'client_credentials';
  // refresh_token signs an ID token and a JWT access token; client_credentials one access token.
  const signsPerToken = grant === 'refresh_token' ? 2 : 1;
  /** @param {string} alg */
  const row = (alg) => capacity.find((r) => r.target === 'pqid' && r.grant === grant && r.alg === alg);
  const es = row('ES256');
  const ml = row('ML-DSA-65');
  const sc = results.signCost ?? {};
  const slh = results.slhDsa ?? {};
  const s128sCost = slh['slh-dsa-sha2-128s'];
  if (!es || !ml || !sc.ES256 || !s128sCost) return undefined;
  const esCpu = es.cpuMsPerToken;
  // Everything that is not signing: HTTP, routing, storage, JSON, the refresh-token rotation.
  const rest = Math.max(esCpu - (signsPerToken * sc.ES256.usPerOp) / 1000, esCpu * 0.1);
  const rate = ml.peakTokensPerSecond; // the operating point the cold-path signature is amortised over
  const s128s = s128sCost.usPerOp / 1000;
  const s128f = (slh['slh-dsa-sha2-128f']?.usPerOp ?? Number.NaN) / 1000;
  /** @type {Regime[]} */
  const regimes = [
    { regime: 'ES256 everywhere (baseline)', placement: 'hot: ES256', measured: true, cpuMs: esCpu },
    { regime: 'ML-DSA-65 hot path', placement: 'hot: ML-DSA-65', measured: true, cpuMs: ml.cpuMsPerToken },
    {
      regime: 'ML-DSA-65 hot + SLH-DSA-128s cold path',
      placement: 'hot: ML-DSA-65, cold: SLH-DSA-SHA2-128s (1 signature/hour)',
      measured: false,
      cpuMs: ml.cpuMsPerToken + (s128s * COLD_SIGNS_PER_HOUR) / (rate * 3600),
    },
    ...(Number.isFinite(s128f)
      ? [
          {
            regime: 'SLH-DSA-128f hot path',
            placement: `hot: SLH-DSA-SHA2-128f (${signsPerToken} signatures/token)`,
            measured: false,
            cpuMs: rest + signsPerToken * s128f,
          },
        ]
      : []),
    {
      regime: 'SLH-DSA-128s hot path',
      placement: `hot: SLH-DSA-SHA2-128s (${signsPerToken} signatures/token)`,
      measured: false,
      cpuMs: rest + signsPerToken * s128s,
    },
  ];
  return {
    grant,
    signsPerToken,
    restMs: rest,
    coldSignsPerHour: COLD_SIGNS_PER_HOUR,
    operatingRate: rate,
    regimes: priced(regimes, esCpu, results.meta.pricePerVcpuHour),
  };
}

/**
 * The SLH-DSA hot-path regimes the placement scenario serves: [regime, client alg, sign-cost variant].
 * @type {[string, string, string][]}
 */
const SLH_HOT = [
  ['SLH-DSA-128f hot path', 'SLH-DSA-SHA2-128f', 'slh-dsa-sha2-128f'],
  ['SLH-DSA-128s hot path', 'SLH-DSA-SHA2-128s', 'slh-dsa-sha2-128s'],
];

/**
 * Placement study from the placement scenario (load/lib/runner/placement.mjs): every regime
 * MEASURED on an IdP whose cold-path root is SLH-DSA-SHA2-128s (it signs the SAML certificates
 * and metadata and the signed JWKS, which relying parties fetch during the phases) and whose
 * clients sign their tokens with ES256, ML-DSA-65, SLH-DSA-SHA2-128f or -128s. The cold path's
 * re-signing after a rotation is measured too (server CPU around the fetch that signs) and
 * amortised at one rotation an hour. The model's prediction (non-signing CPU + signatures ×
 * per-op cost) is kept beside each SLH-DSA row as a check on both.
 * @param {Results} results
 * @param {CapacityRow[]} capacity
 * @returns {Placement | undefined}
 */
export function measuredPlacement(results, capacity) {
  const run = results.placementRun;
  const grant = 'refresh_token';
  const signsPerToken = 2;
  /** @param {string} alg */
  const row = (alg) =>
    capacity.find((r) => r.target === 'pqid-placement' && r.grant === grant && r.alg === alg);
  const es = row('ES256');
  const ml = row('ML-DSA-65');
  if (!run || !es || !ml) return undefined;
  const cold = run.coldPath.objects;
  const coldCpuMs = cold.signedJwks.resign.cpuMs + cold.metadata.resign.cpuMs;
  const rate = ml.peakTokensPerSecond;
  const esSign = results.signCost?.ES256?.usPerOp;
  // The model's non-signing CPU per token, for the predictions beside the measured SLH-DSA rows.
  const rest =
    esSign !== undefined ? Math.max(es.cpuMsPerToken - (signsPerToken * esSign) / 1000, 0) : undefined;
  /** @param {string} variant */
  const predict = (variant) => {
    const cost = results.slhDsa?.[variant];
    return rest !== undefined && cost ? rest + (signsPerToken * cost.usPerOp) / 1000 : undefined;
  };
  /** @type {Regime[]} */
  const regimes = [
    {
      regime: 'ES256 everywhere (baseline)',
      placement: 'hot: ES256 (cold path: SLH-DSA-SHA2-128s root)',
      measured: true,
      cpuMs: es.cpuMsPerToken,
    },
    {
      regime: 'ML-DSA-65 hot + SLH-DSA-128s cold path',
      placement: `hot: ML-DSA-65; cold: SLH-DSA-SHA2-128s re-signing the JWKS statement and the SAML metadata once an hour (${f(coldCpuMs, 0)} ms CPU each time)`,
      measured: true,
      cpuMs: ml.cpuMsPerToken + (coldCpuMs * COLD_SIGNS_PER_HOUR) / (rate * 3600),
      hotCpuMs: ml.cpuMsPerToken,
    },
  ];
  for (const [regime, alg, variant] of SLH_HOT) {
    const r = row(alg);
    if (r)
      regimes.push({
        regime,
        placement: `hot: ${alg} (${signsPerToken} signatures/token)`,
        measured: true,
        cpuMs: r.cpuMsPerToken,
        modelCpuMs: predict(variant),
        peakTokensPerSecond: r.peakTokensPerSecond,
        p99: r.p99,
      });
  }
  return {
    grant,
    signsPerToken,
    coldSignsPerHour: COLD_SIGNS_PER_HOUR,
    operatingRate: rate,
    coldCpuMs,
    cold,
    regimes: priced(regimes, es.cpuMsPerToken, results.meta.pricePerVcpuHour),
    measured: true,
  };
}
