/**
 * "Placement study": a slow signer (SLH-DSA) on the hot path (every token) against the cold path
 * (a signed JWKS and SAML metadata, re-signed once an hour) — measured on a running IdP by the
 * placement scenario, or modelled from per-operation costs without it.
 */
import { spreadText } from '../../spread.mjs';
import { f, int } from '../format.mjs';
import { barChart } from '../plots.mjs';

/** @typedef {import('../../types.d.ts').Results} Results */
/** @typedef {import('../../types.d.ts').Derived} Derived */
/** @typedef {import('../../types.d.ts').Section} Section */
/** @typedef {import('../../types.d.ts').Placement} Placement */
/** @typedef {import('../../types.d.ts').ColdObject} ColdObject */

/** The TLS finding the token study carries over, with its public source. */
const PAPER =
  'The signature-placement study of TLS 1.3 ("Signature Placement in Post-Quantum TLS Certificate Hierarchies: An Experimental Study of ML-DSA and SLH-DSA in TLS 1.3 Authentication", J. L. Delgado, 2026) finds that SLH-DSA in the TLS leaf (signed on every handshake) collapses capacity by ~2500×, while SLH-DSA in the root (never signed live) costs little.';

/**
 * @param {Placement} placement
 * @param {string} kind
 * @param {string} caption
 * @param {string} title
 */
const placementChart = (placement, kind, caption, title) => ({
  name: 'placement',
  caption,
  spec: barChart(
    placement.regimes.map((r) => ({
      regime: r.regime,
      value: r.tokensPerCoreSecond,
      kind: kind === 'measured' || r.measured ? 'measured' : 'modelled',
    })),
    { title, x: 'regime', y: 'value', yTitle: 'tokens per core-second', color: 'kind', scale: 'log' },
  ),
});

/**
 * The cold path's objects, measured: re-sign cost (median of the rounds, with their spread) and cached fetches.
 * @param {Placement['cold']} cold
 * @returns {string[]}
 */
function coldPathTable(cold) {
  /** @param {number} n */
  const ms0 = (n) => f(n, 0);
  return [
    '',
    '**Cold path, measured from the running IdP** (median of the rounds, with their range; CPU = server process, only the fetch that signs):',
    '',
    '| object | URL | bytes | signed with | signatures per re-sign | re-sign wall ms | re-sign server CPU ms | CPU ms over the rounds | cached fetch p50 ms | CPU ms per cached fetch |',
    '|---|---|---:|---|---:|---:|---:|---|---:|---:|',
    ...Object.entries(cold ?? {}).map(
      ([name, /** @type {ColdObject} */ o]) =>
        `| ${name === 'signedJwks' ? 'signed JWKS (jwk-set+jwt)' : 'SAML metadata'} | \`${o.path}\` | ${int(o.bytes)} | ${o.signatureAlg ?? '?'} | ${o.resign.signatures} | ${f(o.resign.wallMs, 0)} | ${f(o.resign.cpuMs, 0)} | ${spreadText(o.resign.cpuSpread, ms0)} | ${f(o.cached.p50Ms, 2)} | ${f(o.cached.cpuMsPerFetch, 3)} |`,
    ),
    '',
  ];
}

/**
 * @param {Results} results
 * @param {Placement} placement
 * @returns {Section}
 */
function measured(results, placement) {
  const every = results.placementRun?.coldTraffic.every;
  const md = [
    '## Placement study: slow signer on the hot path vs the cold path (measured)',
    '',
    `${PAPER} The token analogue, served by a second IdP whose cold-path root is **SLH-DSA-SHA2-128s** — it certifies the SAML keys and signs the SAML metadata and the signed JWKS (\`/jwks.jwt\`), which the k6 clients fetch once per ${every} token requests during every phase — and whose clients sign tokens with ES256, ML-DSA-65, SLH-DSA-SHA2-128f or -128s (\`keys.allowSlhDsaHotPath\`). The **hot path** signs every token (${placement.signsPerToken} signatures per ${placement.grant} response). Every row is **measured** (server CPU per token from /proc); the cold path's re-signing after a rotation is measured below and amortised at ${placement.coldSignsPerHour} rotation/hour over the measured ML-DSA-65 rate (${f(placement.operatingRate)} tokens/s). "Model" is the earlier prediction (non-signing CPU + signatures × SLH-DSA per-op cost in the runner) for comparison.`,
    '',
    '| regime | placement | server CPU ms/token | model ms/token | tokens/core-s | retained vs ES256 | infra × | $/M tokens |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...placement.regimes.map(
      (r) =>
        `| ${r.regime} | ${r.placement} | ${f(r.cpuMs, 3)} | ${r.modelCpuMs === undefined ? '–' : f(r.modelCpuMs, 3)} | ${f(r.tokensPerCoreSecond, 1)} | ${f(r.retained, 4)} | ${f(r.infraMultiplier, 1)} | ${f(r.costPerMillion, 4)} |`,
    ),
    ...coldPathTable(placement.cold),
  ];
  const caption =
    'Tokens per server core-second by placement regime (log scale), every regime measured on the running IdP.';
  return { md, charts: [placementChart(placement, 'measured', caption, 'Placement regimes (measured)')] };
}

/**
 * @param {Results} results
 * @param {Placement} placement
 * @returns {Section}
 */
function modelled(results, placement) {
  const costs = Object.entries(results.slhDsa ?? {})
    .map(
      ([k, v]) => `${k} ${f(v.usPerOp / 1000, 1)} ms, ${v.signatureBytes} B signature, ${v.implementation}`,
    )
    .join('; ');
  const md = [
    '## Placement study: slow signer on the hot path vs the cold path (modelled)',
    '',
    `Run the \`placement\` scenario to measure these regimes on a running IdP; without it they are modelled. ${PAPER} The token analogue: the **hot path** signs every token (${placement.signsPerToken} signature${placement.signsPerToken > 1 ? 's' : ''} per ${placement.grant} response); the **cold path** signs rarely (a signed JWKS / metadata statement, here ${placement.coldSignsPerHour}/hour, amortised over ${f(placement.operatingRate)} tokens/s).`,
    '',
    `ES256 and ML-DSA-65 rows are measured (server CPU per token, ${placement.grant} grant). SLH-DSA rows are **modelled**: non-signing CPU per token (${f(placement.restMs, 3)} ms = measured ES256 CPU per token minus its measured sign cost) plus the measured SLH-DSA sign cost per op (${costs}).`,
    '',
    '| regime | placement | measured? | server CPU ms/token | tokens/core-s | retained vs ES256 | infra × | $/M tokens |',
    '|---|---|---|---:|---:|---:|---:|---:|',
    ...placement.regimes.map(
      (r) =>
        `| ${r.regime} | ${r.placement} | ${r.measured ? 'measured' : 'modelled'} | ${f(r.cpuMs, 3)} | ${f(r.tokensPerCoreSecond, 1)} | ${f(r.retained, 4)} | ${f(r.infraMultiplier, 1)} | ${f(r.costPerMillion, 4)} |`,
    ),
    '',
  ];
  const caption =
    'Tokens per server core-second by placement regime (log scale); SLH-DSA rows are modelled from measured per-op cost.';
  return { md, charts: [placementChart(placement, 'by-row', caption, 'Placement regimes')] };
}

/**
 * @param {Results} results
 * @param {Derived} derived
 * @returns {Section}
 */
export function placementSection(results, { placement }) {
  if (!placement) return { md: [], charts: [] };
  return placement.measured ? measured(results, placement) : modelled(results, placement);
}
