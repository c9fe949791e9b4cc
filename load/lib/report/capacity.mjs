/**
 * The capacity model, after the method of "Signature Placement in Post-Quantum TLS Certificate
 * Hierarchies: An Experimental Study of ML-DSA and SLH-DSA in TLS 1.3 Authentication"
 * (J. L. Delgado, Universitat Oberta de Catalunya, 2026), applied to tokens: server CPU seconds
 * per token -> tokens per core-second -> retained capacity vs the ES256 baseline ->
 * infrastructure multiplier -> cost per million tokens at a $/vCPU-hour price.
 */

/** @typedef {import('../types.d.ts').Results} Results */
/** @typedef {import('../types.d.ts').ThroughputRow} ThroughputRow */
/** @typedef {import('../types.d.ts').CapacityRow} CapacityRow */

/**
 * @param {ThroughputRow[]} rows
 * @returns {Map<string, ThroughputRow[]>} the phases of each (target, grant, alg), in run order
 */
function byTargetGrantAlg(rows) {
  const groups = new Map();
  for (const r of rows) {
    const k = `${r.target}|${r.grant}|${r.alg}`;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(r);
  }
  return groups;
}

/**
 * One capacity row from the phases of a (target, grant, alg): saturate gives the peak, steady
 * the latency below saturation, all phases together the server CPU per token.
 * @param {ThroughputRow[]} phases
 * @param {number} price $ per vCPU-hour
 * @returns {Omit<CapacityRow, 'retained' | 'infraMultiplier' | 'throughputRatio' | 'p99Ratio'> | undefined}
 */
function pooled(phases, price) {
  const sat = phases.find((p) => p.phase === 'saturate');
  if (!sat) return undefined;
  const steady = phases.find((p) => p.phase === 'steady');
  const tokens = phases.reduce((s, p) => s + p.tokens, 0);
  const cpu = phases.reduce((s, p) => s + p.serverCpuSeconds, 0);
  const perCoreSecond = cpu > 0 ? tokens / cpu : Number.NaN;
  return {
    target: sat.target,
    grant: sat.grant,
    alg: sat.alg,
    peakTokensPerSecond: sat.tokensPerSecond,
    steadyRate: steady?.offeredRate,
    steadyTokensPerSecond: steady?.tokensPerSecond,
    p50: steady?.p50,
    p95: steady?.p95,
    p99: steady?.p99,
    max: steady?.max,
    satP99: sat.p99,
    errorRate: Math.max(sat.errorRate, steady?.errorRate ?? 0),
    jwt: sat.jwtAccessTokens > 0,
    cpuMsPerToken: tokens > 0 ? (cpu / tokens) * 1000 : Number.NaN,
    cpuMsPerTokenByPhase: Object.fromEntries(
      phases.map((p) => [p.phase, p.tokens > 0 ? (p.serverCpuSeconds / p.tokens) * 1000 : Number.NaN]),
    ),
    tokensPerCoreSecond: perCoreSecond,
    tokensPerVcpuHour: perCoreSecond * 3600,
    costPerMillion: (1e6 / (perCoreSecond * 3600)) * price,
    responseBytes: sat.responseBytes,
    idTokenBytes: sat.idTokenBytes,
    ...(sat.idTokenEncryption ? { idTokenEncryption: sat.idTokenEncryption } : {}),
  };
}

/**
 * Capacity model rows from the throughput phases (saturate + steady pooled per alg), each against
 * ES256 of the same target and grant.
 * @param {Results} results
 * @returns {CapacityRow[]}
 */
export function capacityModel(results) {
  const price = results.meta.pricePerVcpuHour;
  /** @type {NonNullable<ReturnType<typeof pooled>>[]} */
  const rows = [];
  for (const [, phases] of byTargetGrantAlg(results.throughput ?? [])) {
    const row = pooled(phases, price);
    if (row) rows.push(row);
  }
  return rows.map((r) => {
    const base = rows.find((b) => b.target === r.target && b.grant === r.grant && b.alg === 'ES256');
    const retained = base ? r.tokensPerCoreSecond / base.tokensPerCoreSecond : Number.NaN;
    return Object.assign(r, {
      retained,
      infraMultiplier: 1 / retained,
      throughputRatio: base ? r.peakTokensPerSecond / base.peakTokensPerSecond : Number.NaN,
      p99Ratio: base && r.p99 && base.p99 ? r.p99 / base.p99 : Number.NaN,
    });
  });
}

/**
 * A capacity row by target, grant and algorithm.
 * @param {CapacityRow[]} capacity
 * @param {string} target
 * @param {string} grant
 * @param {string} alg
 */
export const findRow = (capacity, target, grant, alg) =>
  capacity.find((r) => r.target === target && r.grant === grant && r.alg === alg);
