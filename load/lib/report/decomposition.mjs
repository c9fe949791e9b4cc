/**
 * The client_credentials token taken apart on the running server, from the harness phases of
 * a run (load/lib/idp-server.mjs): HTTP floor, + signature, + storage write, + protocol. Each
 * part is a difference of two targets' server CPU per token (saturate and steady pooled). The
 * saturate phases and the steady phases each give their own estimate of a part; half their
 * disagreement is its `noise`, the spread of one measurement within the run (its phases are
 * minutes apart on a shared machine).
 *
 * Both access-token storage modes are taken apart. The stateless IdP runs the same code on its
 * own process, so its HTTP floor and signature are those the main IdP's harness routes measured;
 * its storage part is none (no write per token), and its protocol is its token endpoint minus
 * the sign floor.
 */
import { FLOOR_ALGS } from '../variants.mjs';
import { f } from './format.mjs';
import { EFFICIENCY_TARGETS, rowName } from './targets.mjs';

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

/** The storage modes taken apart: the token endpoint's target, and what its storage part is. */
const MODES = /** @type {const} */ ([
  { mode: 'stored', target: 'pqid' },
  { mode: 'stateless', target: 'pqid-stateless' },
]);

/**
 * The tightest efficiency target of a (target, alg) whose baseline ran: the smallest CPU budget.
 * @param {Results} results
 * @param {string} target
 * @param {string} alg
 */
function bindingGoal(results, target, alg) {
  let best;
  for (const goal of EFFICIENCY_TARGETS.filter((t) => t.target === target && t.alg === alg)) {
    const base = measure(results, goal.baseline.target, goal.baseline.alg);
    if (!base) continue;
    const budgetMs = base.ms / goal.ratio;
    if (!best || budgetMs < best.budgetMs) best = { goal, baseMs: base.ms, budgetMs };
  }
  return best;
}

/**
 * The decomposition per storage mode and algorithm with floor phases, and its CPU budget where
 * it has an efficiency target (EFFICIENCY_TARGETS) whose baseline ran (the tightest one).
 * @param {Results} results
 * @param {'stored' | 'stateless'} [only] one mode only
 * @returns {Decomposition[]}
 */
export function decomposeToken(results, only) {
  const out = [];
  for (const { mode, target } of MODES.filter((m) => !only || m.mode === only)) {
    for (const alg of FLOOR_ALGS) {
      const floor = measure(results, 'pqid-floor', alg);
      const sign = measure(results, 'pqid-sign-floor', alg);
      const store = mode === 'stored' ? measure(results, 'pqid-store-floor', alg) : sign;
      const token = measure(results, target, alg);
      if (!floor || !sign || !store || !token) continue;
      const goal = bindingGoal(results, target, alg);
      out.push({
        mode,
        alg,
        http: { ms: floor.ms, noise: 0 },
        signature: diff(sign, floor),
        storage: mode === 'stored' ? diff(store, sign) : { ms: 0, noise: 0 },
        protocol: diff(token, store),
        token: { ms: token.ms },
        // What cannot go without dropping a requirement: answering over HTTP, signing, storing.
        irreducible: { ms: store.ms },
        ...(goal
          ? {
              target: {
                ratio: goal.goal.ratio,
                baseline: `${rowName(goal.goal.baseline.target)} ${goal.goal.baseline.alg}`,
                baselineMs: goal.baseMs,
                budgetMs: goal.budgetMs,
                roomMs: goal.budgetMs - store.ms,
                cutMs: token.ms - goal.budgetMs,
              },
            }
          : {}),
      });
    }
  }
  return out;
}

/** A column's name: the mode and the algorithm. @param {Decomposition} d */
const column = (d) => `${d.mode} ${d.alg}`;

/**
 * A part as text: its value, ± its noise, and whether it is inside the noise.
 * @param {Part} p
 */
const part = (p) =>
  p.noise > 0
    ? `${f(p.ms, 3)} ± ${f(p.noise, 3)}${Math.abs(p.ms) <= p.noise ? ' (inside the noise)' : ''}`
    : f(p.ms, 3);

/**
 * One progress line per mode and algorithm: the decomposition as soon as its phases have run.
 * @param {Results} results
 * @param {'stored' | 'stateless'} [only]
 */
export function tokenDecomposition(results, only) {
  return decomposeToken(results, only).map(
    (d) =>
      `${column(d)} token ${f(d.token.ms, 3)} ms CPU = HTTP ${part(d.http)} + signature ${part(d.signature)} + storage ${part(d.storage)} + protocol ${part(d.protocol)}`,
  );
}

/**
 * Whether the floor stops the target: no room left once HTTP, signature and storage are paid.
 * @param {Decomposition} d
 */
const floorVerdict = (d) =>
  !d.target
    ? ''
    : d.target.roomMs < 0
      ? `over the budget by ${f(-d.target.roomMs, 3)} ms before any protocol work: the floor stops this target`
      : `leaving ${f(d.target.roomMs, 3)} ms for the protocol (now ${f(d.protocol.ms, 3)})`;

/**
 * One progress line per algorithm: its budget against its efficiency target, once the baseline has run.
 * @param {Results} results
 */
export function tokenBudget(results) {
  return decomposeToken(results).flatMap((d) =>
    d.target
      ? [
          `${column(d)} ≥ ${d.target.ratio}× ${d.target.baseline} (${f(d.target.baselineMs, 3)} ms) needs ≤ ${f(d.target.budgetMs, 3)} ms per token; HTTP + signature + storage are ${f(d.irreducible.ms, 3)} ms, ${floorVerdict(d)}`,
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
    'Harness routes of the same IdP, driven by the same k6 requests (`load/lib/idp-server.mjs`): `/__load/floor` answers a canned token response, `/__load/sign-floor` signs a fresh access token as the token endpoint does, `/__load/store-floor` also stores its record. The stateless columns are the IdP with `accessTokenStorage: stateless` (its own process, same code): no storage write, its protocol measured against the sign floor. Each part is the difference of two of them; the saturate and the steady phases each give an estimate of a part, and a part no larger than half their disagreement is marked as inside the noise (the phases of one run are minutes apart).',
    '',
    `| part | ${ds.map(column).join(' | ')} |`,
    `|---|${ds.map(() => '---:').join('|')}|`,
    row('HTTP floor: Node HTTP, fastify, hooks, the response bytes', (d) => part(d.http)),
    row('+ signature (sign-floor − floor): claims, JWS, signing', (d) => part(d.signature)),
    row('+ storage write (store-floor − sign-floor): digest, record, SQL; stateless: none', (d) =>
      part(d.storage),
    ),
    row(
      '+ protocol (token − store-floor; stateless: token − sign-floor): body schema, client authentication, grant checks, metrics',
      (d) => part(d.protocol),
    ),
    row('= the token endpoint', (d) => f(d.token.ms, 3)),
    row('HTTP + signature + storage (cannot go without dropping a requirement)', (d) =>
      f(d.irreducible.ms, 3),
    ),
  ];
  if (ds.some((d) => d.target))
    out.push(
      row(
        'tightest target: tokens/core-s against',
        (d) => d.target && `${d.target.ratio}× ${d.target.baseline}`,
      ),
      row('budget per token (baseline ms ÷ target)', (d) => d.target && f(d.target.budgetMs, 3)),
      row('left for the protocol within the budget', (d) => d.target && f(d.target.roomMs, 3)),
      row('still to cut (token − budget)', (d) => d.target && f(Math.max(0, d.target.cutMs), 3)),
      row(
        'what stops it',
        (d) =>
          d.target &&
          (d.target.cutMs <= 0 ? 'nothing (met)' : d.target.roomMs < 0 ? '**the floor**' : 'protocol work'),
      ),
    );
  out.push('');
  return out;
}
