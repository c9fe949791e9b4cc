/**
 * The client_credentials token taken apart on the running server, from the harness phases of
 * a run (load/lib/idp-server.mjs): HTTP floor, + signature, + storage write, + protocol. Each
 * part is a difference of two targets' server CPU per token (saturate and steady pooled). The
 * saturate phases and the steady phases each give their own estimate of a part; half their
 * disagreement is its `noise`, the spread of one measurement within the run (its phases are
 * minutes apart on a shared machine).
 */
import { FLOOR_ALGS } from '../variants.mjs';
import { f } from './format.mjs';
import { EFFICIENCY_TARGETS } from './targets.mjs';

/** @typedef {import('../types.d.ts').Results} Results */
/** @typedef {import('../types.d.ts').Part} Part */
/** @typedef {import('../types.d.ts').Decomposition} Decomposition */
/** @typedef {{ ms: number, saturate: number, steady: number }} Measure */

/**
 * Server CPU ms per client_credentials token of one target and algorithm: pooled, and per phase.
 * @param {Results} results
 * @param {string} target
 * @param {string} alg
 * @returns {Measure | undefined}
 */
function measure(results, target, alg) {
  const ph = (results.throughput ?? []).filter(
    (r) => r.target === target && r.grant === 'client_credentials' && r.alg === alg,
  );
  const tokens = ph.reduce((n, r) => n + r.tokens, 0);
  if (!ph.length || tokens === 0) return undefined;
  /** @param {string} name */
  const of = (name) => {
    const r = ph.find((x) => x.phase === name);
    return r && r.tokens > 0 ? (r.serverCpuSeconds / r.tokens) * 1000 : Number.NaN;
  };
  return {
    ms: (ph.reduce((c, r) => c + r.serverCpuSeconds, 0) / tokens) * 1000,
    saturate: of('saturate'),
    steady: of('steady'),
  };
}

/**
 * The part between two measures, with half the disagreement of its phase estimates as noise.
 * @param {Measure} a
 * @param {Measure} b
 * @returns {Part}
 */
function diff(a, b) {
  const noise = Math.abs(a.saturate - b.saturate - (a.steady - b.steady)) / 2;
  return { ms: a.ms - b.ms, noise: Number.isFinite(noise) ? noise : 0 };
}

/**
 * The decomposition per algorithm with floor phases, and its CPU budget where the algorithm has
 * an efficiency target (EFFICIENCY_TARGETS) and its baseline ran.
 * @param {Results} results
 * @returns {Decomposition[]}
 */
export function decomposeToken(results) {
  const out = [];
  for (const alg of FLOOR_ALGS) {
    const floor = measure(results, 'pqid-floor', alg);
    const sign = measure(results, 'pqid-sign-floor', alg);
    const store = measure(results, 'pqid-store-floor', alg);
    const token = measure(results, 'pqid', alg);
    const goal = EFFICIENCY_TARGETS.find((t) => t.alg === alg);
    if (!floor || !sign || !store || !token || !goal) continue;
    const base = measure(results, goal.baseline.target, goal.baseline.alg);
    const budget = base ? base.ms / goal.ratio : Number.NaN;
    out.push({
      alg,
      http: { ms: floor.ms, noise: 0 },
      signature: diff(sign, floor),
      storage: diff(store, sign),
      protocol: diff(token, store),
      token: { ms: token.ms },
      // What cannot go without dropping a requirement: answering over HTTP, signing, storing.
      irreducible: { ms: store.ms },
      ...(base
        ? {
            target: {
              ratio: goal.ratio,
              opEsMs: base.ms,
              budgetMs: budget,
              roomMs: budget - store.ms,
              cutMs: token.ms - budget,
            },
          }
        : {}),
    });
  }
  return out;
}

/**
 * A part as text: its value, ± its noise, and whether it is inside the noise.
 * @param {Part} p
 */
const part = (p) =>
  p.noise > 0
    ? `${f(p.ms, 3)} ± ${f(p.noise, 3)}${Math.abs(p.ms) <= p.noise ? ' (inside the noise)' : ''}`
    : f(p.ms, 3);

/**
 * One progress line per algorithm: the decomposition as soon as its phases have run.
 * @param {Results} results
 */
export function tokenDecomposition(results) {
  return decomposeToken(results).map(
    (d) =>
      `${d.alg} token ${f(d.token.ms, 3)} ms CPU = HTTP ${part(d.http)} + signature ${part(d.signature)} + storage ${part(d.storage)} + protocol ${part(d.protocol)}`,
  );
}

/**
 * One progress line per algorithm: its budget against its efficiency target, once the baseline has run.
 * @param {Results} results
 */
export function tokenBudget(results) {
  return decomposeToken(results).flatMap((d) =>
    d.target
      ? [
          `${d.alg} ≥ ${d.target.ratio}× node-oidc-provider ES256 (${f(d.target.opEsMs, 3)} ms) needs ≤ ${f(d.target.budgetMs, 3)} ms per token; HTTP + signature + storage are ${f(d.irreducible.ms, 3)} ms, leaving ${f(d.target.roomMs, 3)} ms for the protocol (now ${f(d.protocol.ms, 3)})`,
        ]
      : [],
  );
}

/**
 * The decomposition as a report section (markdown lines; none without the harness phases).
 * @param {Decomposition[]} ds
 * @returns {string[]}
 */
export function decompositionSection(ds) {
  if (!ds.length) return [];
  /** @param {string} label @param {(d: Decomposition) => string | undefined} get */
  const row = (label, get) => `| ${label} | ${ds.map((d) => get(d) ?? '–').join(' | ')} |`;
  const out = [
    '### Where a client_credentials token goes (server CPU ms per token, this run)',
    '',
    'Harness routes of the same IdP, driven by the same k6 requests (`load/lib/idp-server.mjs`): `/__load/floor` answers a canned token response, `/__load/sign-floor` signs a fresh access token as the token endpoint does, `/__load/store-floor` also stores its record. Each part is the difference of two of them; the saturate and the steady phases each give an estimate of a part, and a part no larger than half their disagreement is marked as inside the noise (the phases of one run are minutes apart).',
    '',
    `| part | ${ds.map((d) => d.alg).join(' | ')} |`,
    `|---|${ds.map(() => '---:').join('|')}|`,
    row('HTTP floor: Node HTTP, fastify, hooks, the response bytes', (d) => part(d.http)),
    row('+ signature (sign-floor − floor): claims, JWS, signing', (d) => part(d.signature)),
    row('+ storage write (store-floor − sign-floor): digest, record, SQL', (d) => part(d.storage)),
    row('+ protocol (token − store-floor): body schema, client authentication, grant checks, metrics', (d) =>
      part(d.protocol),
    ),
    row('= the token endpoint', (d) => f(d.token.ms, 3)),
    row('HTTP + signature + storage (cannot go without dropping a requirement)', (d) =>
      f(d.irreducible.ms, 3),
    ),
  ];
  if (ds.some((d) => d.target))
    out.push(
      row('target: × node-oidc-provider ES256 tokens/core-s', (d) => d.target && `${d.target.ratio}×`),
      row(
        'budget per token (node-oidc-provider ES256 ms ÷ target)',
        (d) => d.target && f(d.target.budgetMs, 3),
      ),
      row('left for the protocol within the budget', (d) => d.target && f(d.target.roomMs, 3)),
      row('still to cut (token − budget)', (d) => d.target && f(Math.max(0, d.target.cutMs), 3)),
    );
  out.push('');
  return out;
}
