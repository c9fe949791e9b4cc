/**
 * One k6 run of the fault script: refresh-token chains minted through the login form first, then
 * load/scenarios/soak.js with fault actions scheduled at offsets from its start, then the grant
 * invariant checked against the database.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loginFlow } from '../flow.mjs';
import { CC_CLIENT, REDIRECT_URI, RP_CLIENT } from './cluster.mjs';
import { checkGrants } from './grants.mjs';
import { parseLines, runSoakK6 } from './soak-k6.mjs';

/** @typedef {import('./cluster.mjs').Cluster} Cluster */
/** @typedef {import('./types.d.ts').FaultEvent} FaultEvent */
/** @typedef {import('./types.d.ts').RunSpec} RunSpec */
/** @typedef {import('./types.d.ts').RunOutcome} RunOutcome */
/** @typedef {import('./types.d.ts').Action} Action */
/** @typedef {import('./types.d.ts').Mark} Mark */

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Chains of refresh tokens: one login each (6 at a time), `perVu` per VU, each found in the
 * database with its own grant.
 * @param {Cluster} c
 * @param {number} vus
 * @param {number} perVu
 */
async function mint(c, vus, perVu) {
  /** @type {string[]} */
  const tokens = [];
  const n = vus * perVu;
  for (let i = 0; i < n; i += 6) {
    const got = await Promise.all(
      Array.from({ length: Math.min(6, n - i) }, (_, j) =>
        loginFlow({
          issuer: c.issuer,
          clientId: RP_CLIENT,
          redirectUri: REDIRECT_URI,
          username: c.users[(i + j) % c.users.length] ?? '',
          password: c.password,
        }),
      ),
    );
    for (const t of got) tokens.push(t.refresh_token ?? '');
  }
  const chains = Array.from({ length: vus }, (_, v) =>
    tokens.slice(v * perVu, (v + 1) * perVu).map((token) => ({
      token,
      id: createHash('sha256').update(token).digest('base64url'),
    })),
  );
  const ids = chains.flat().map((x) => x.id);
  const { rows } = await /** @type {import('pg').Pool} */ (c.pool).query(
    `SELECT id, grant_id FROM "${c.schema}".records WHERE model = 'RefreshToken' AND id = ANY($1)`,
    [ids],
  );
  const grantOf = new Map(rows.map((r) => [String(r.id), String(r.grant_id)]));
  if (grantOf.size !== ids.length)
    throw new Error(`minted ${ids.length} refresh tokens, found ${grantOf.size}`);
  if (new Set(grantOf.values()).size !== ids.length) throw new Error('two logins share a grant');
  return { chains, grantOf };
}

/**
 * Run the actions at their offsets from `start`, in order.
 * @param {Action[]} actions
 * @param {number} start
 * @param {Mark} mark
 */
async function schedule(actions, start, mark) {
  for (const a of actions) {
    const wait = start + a.at * 1000 - Date.now();
    if (wait > 0) await sleep(wait);
    await a.run(mark);
  }
}

/**
 * One k6 run with fault actions scheduled at offsets (seconds) from its start.
 * @param {Cluster} c
 * @param {{ k6: string, work: string, log: import('node:stream').Writable }} env
 * @param {string} name
 * @param {RunSpec} spec
 * @returns {Promise<RunOutcome>}
 */
export async function k6Run(
  c,
  { k6, work, log },
  name,
  { rate, duration, vus, phase = 'steady', ceiling, actions = [] },
) {
  const minted = await mint(c, vus, phase === 'steady' ? 2 : 1);
  const consoleFile = join(work, `${name}.lines`);
  const configPath = join(work, `${name}.config.json`);
  writeFileSync(
    configPath,
    JSON.stringify({
      tokenUrl: `${c.issuer}/token`,
      phase,
      rate,
      ceiling,
      duration,
      vus,
      ccShare: 0.05,
      ccClient: { id: CC_CLIENT, secret: c.clientSecret },
      rpClientId: RP_CLIENT,
      chains: minted.chains.map((x) => x.map((y) => y.token)),
      summaryFile: join(work, `${name}.summary.json`),
    }),
  );
  /** @type {FaultEvent[]} */
  const events = [];
  /** @type {Mark} */
  const mark = (what, extra = {}) => {
    const e = { what, t: Date.now(), ...extra };
    events.push(e);
    return e;
  };
  log.write(`\n=== ${name}\n`);
  const start = mark('k6 start');
  const [{ code, output }] = await Promise.all([
    runSoakK6(k6, configPath, consoleFile, log),
    schedule(actions, start.t, mark),
  ]);
  const end = mark('k6 end');
  if (code !== 0) throw new Error(`k6 ${name} failed with exit ${code}:\n${output.slice(-2000)}`);
  const rows = parseLines(consoleFile);
  const grants = await checkGrants({
    pool: /** @type {import('pg').Pool} */ (c.pool),
    schema: c.schema,
    chains: minted.chains,
    rows,
    balancerUrl: c.issuer,
    rpClientId: RP_CLIENT,
    grantOf: minted.grantOf,
  });
  return { rows, events, start: start.t, end: end.t, grants };
}

/**
 * The events of a run with their offsets in seconds, as the report lists them.
 * @param {RunOutcome} r
 */
export const eventsOf = (r) => r.events.map((e) => ({ ...e, s: (e.t - r.start) / 1000 }));
