/**
 * The capacity targets, each a ratio of two rows of the capacity table measured side by side in
 * one run, as report lines. A target line appears only when both of its rows ran.
 */
import { findRow } from './capacity.mjs';
import { f } from './format.mjs';

/** @typedef {import('../types.d.ts').CapacityRow} CapacityRow */
/** @typedef {(capacity: CapacityRow[]) => string[]} TargetLines */

/** @typedef {{ target: string, alg: string }} RowRef */
/** @typedef {{ target: string, alg: string, ratio: number, baseline: RowRef }} EfficiencyTarget */

const OP_ES256 = { target: 'oidc-provider', alg: 'ES256' };
const OP_MLDSA65 = { target: 'oidc-provider', alg: 'ML-DSA-65' };

/**
 * pqid's tokens per core-second against a baseline row, per storage mode (`pqid`: stored access
 * tokens, `pqid-stateless`: no write per token) and algorithm (client_credentials); the
 * decomposition turns each into a CPU budget per token. ML-DSA-65 has two: against
 * node-oidc-provider's ES256 and against its ML-DSA-65 (the same algorithm in both products).
 * @type {EfficiencyTarget[]}
 */
export const EFFICIENCY_TARGETS = [
  { target: 'pqid', alg: 'ML-DSA-65', ratio: 1.1, baseline: OP_ES256 },
  { target: 'pqid', alg: 'ES256', ratio: 1.3, baseline: OP_ES256 },
  { target: 'pqid', alg: 'ML-DSA-65', ratio: 3, baseline: OP_MLDSA65 },
  { target: 'pqid-stateless', alg: 'ML-DSA-65', ratio: 1.1, baseline: OP_ES256 },
  { target: 'pqid-stateless', alg: 'ES256', ratio: 1.3, baseline: OP_ES256 },
  { target: 'pqid-stateless', alg: 'ML-DSA-65', ratio: 3, baseline: OP_MLDSA65 },
];

/** How the report names a row of a target. @param {string} target */
export const rowName = (target) =>
  ({ pqid: 'pqid (stored)', 'pqid-stateless': 'pqid stateless', 'oidc-provider': 'node-oidc-provider' })[
    target
  ] ?? target;

/** @param {boolean} ok */
const met = (ok) => `**${ok ? 'met' : 'not met'}**`;

/** @type {TargetLines} pqid ML-DSA-65 against node-oidc-provider's ES256, per core-second. */
const mlDsaVsProvider = (capacity) => {
  const pqMl = findRow(capacity, 'pqid', 'client_credentials', 'ML-DSA-65');
  const opEs = findRow(capacity, 'oidc-provider', 'client_credentials', 'ES256');
  if (!pqMl || !opEs) return [];
  return [
    `- pqid ML-DSA-65 vs node-oidc-provider ES256 (client_credentials, same k6 script): ${f(pqMl.peakTokensPerSecond)} vs ${f(opEs.peakTokensPerSecond)} tok/s peak; ${f(pqMl.tokensPerCoreSecond, 0)} vs ${f(opEs.tokensPerCoreSecond, 0)} tokens/core-s → ${met(pqMl.tokensPerCoreSecond >= opEs.tokensPerCoreSecond)} (per core-second).`,
  ];
};

/** @type {TargetLines} ML-DSA-65's retained capacity and p99 against pqid's ES256, per grant. */
const mlDsaRetained = (capacity) =>
  ['client_credentials', 'refresh_token'].flatMap((grant) => {
    const ml = findRow(capacity, 'pqid', grant, 'ML-DSA-65');
    return ml
      ? [
          `- pqid ML-DSA-65 keeps ≥ 67% of its ES256 capacity (${grant}): retained ${f(ml.retained * 100, 0)}% (per core-second), ${f(ml.throughputRatio * 100, 0)}% (peak tok/s) → ${met(ml.retained >= 0.67)}; p99 at 70% load ${f(ml.p99Ratio, 2)}× ES256 → ${met(ml.p99Ratio < 2)} (< 2×).`,
        ]
      : [];
  });

/** @param {CapacityRow | undefined} r */
const per = (r) => r?.tokensPerCoreSecond ?? Number.NaN;

/** @param {number} x @param {number} min */
const verdict = (x, min) => `${f(x, 2)} → ${met(x >= min)}`;

/** @type {TargetLines} pqid against node-oidc-provider, per mode and algorithm (EFFICIENCY_TARGETS). */
const againstBaseline = (capacity) =>
  EFFICIENCY_TARGETS.flatMap(({ target, alg, ratio, baseline }) => {
    const r = findRow(capacity, target, 'client_credentials', alg);
    const b = findRow(capacity, baseline.target, 'client_credentials', baseline.alg);
    return r && b
      ? [
          `- ${rowName(target)} ${alg} ≥ ${ratio}× ${rowName(baseline.target)} ${baseline.alg} (client_credentials): ${verdict(per(r) / per(b), ratio)}`,
        ]
      : [];
  });

/** @type {TargetLines} refresh_token: ML-DSA-65 against ES256, two signatures per response. */
const refreshRatio = (capacity) => {
  const ml = findRow(capacity, 'pqid', 'refresh_token', 'ML-DSA-65');
  const es = findRow(capacity, 'pqid', 'refresh_token', 'ES256');
  return ml && es
    ? [`- refresh_token: pqid ML-DSA-65 ≥ 0.9 of pqid ES256: ${verdict(per(ml) / per(es), 0.9)}`]
    : [];
};

/** @type {TargetLines} Each composite against its pure ML-DSA, per grant. */
const composites = (capacity) =>
  ['client_credentials', 'refresh_token'].flatMap((grant) => {
    const parts = capacity
      .filter((r) => r.target === 'pqid' && r.grant === grant && /^ML-DSA-\d+-/.test(r.alg))
      .flatMap((r) => {
        const pure = findRow(capacity, 'pqid', grant, r.alg.slice(0, 9));
        if (!pure) return [];
        const x = per(r) / per(pure);
        return [`${r.alg} ${f(x, 2)}${x >= 0.87 ? '' : ' (not met)'}`];
      });
    return parts.length ? [`- composites ≥ 0.87 of their pure ML-DSA (${grant}): ${parts.join(', ')}`] : [];
  });

/** @type {TargetLines} What the HTTP floor alone costs of each token. */
const httpFloor = (capacity) =>
  capacity
    .filter((x) => x.target === 'pqid-floor')
    .flatMap((r) => {
      const full = findRow(capacity, 'pqid', r.grant, r.alg);
      return full
        ? [
            `- HTTP floor for ${r.alg} (same requests and response bytes, nothing behind them): ${f(r.cpuMsPerToken, 3)} ms of the ${f(full.cpuMsPerToken, 3)} ms per token; the IdP adds ${f(full.cpuMsPerToken - r.cpuMsPerToken, 3)} ms (client authentication, claims, signing, storage).`,
          ]
        : [];
    });

/**
 * The two groups of targets, in report order: a heading, what the targets are, their lines.
 * @type {{ heading: string, definition: string, lines: TargetLines[] }[]}
 */
export const TARGET_GROUPS = [
  {
    heading: '### Targets: what ML-DSA-65 costs against ES256',
    definition:
      "Each target compares two rows of the table above, measured side by side in this run: pqid's ML-DSA-65 against node-oidc-provider's ES256 per core-second; ML-DSA-65's retained capacity against pqid's own ES256 (at least 67%); its p99 at 70% of its own peak against ES256's (under 2×).",
    lines: [mlDsaVsProvider, mlDsaRetained],
  },
  {
    heading: '### Targets: tokens per core-second against node-oidc-provider',
    definition:
      "Tokens per server core-second of one row divided by another's, this run (client_credentials), in both access-token storage modes (stored: a record per token; stateless: none): pqid's ML-DSA-65 at least 1.1× and pqid's ES256 at least 1.3× node-oidc-provider's ES256, pqid's ML-DSA-65 at least 3× node-oidc-provider's ML-DSA-65; refresh_token ML-DSA-65 at least 0.9 of pqid's ES256 (two signatures per response); each composite at least 0.87 of its pure ML-DSA. Where a target is missed, the decomposition below shows whether the floor (HTTP + signature + storage) already exceeds its budget.",
    lines: [againstBaseline, refreshRatio, composites, httpFloor],
  },
];

/**
 * The targets as report lines.
 * @param {CapacityRow[]} capacity
 * @returns {string[]}
 */
export function targetsSection(capacity) {
  return TARGET_GROUPS.flatMap((g) => [
    g.heading,
    '',
    g.definition,
    '',
    ...g.lines.flatMap((l) => l(capacity)),
    '',
  ]);
}
