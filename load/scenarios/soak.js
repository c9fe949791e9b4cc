// k6 scenario `soak`: mixed token traffic through the balancer of load/faults.mjs, for the fault
// runs and the soak. Every iteration is one token request: `ccShare` of them client_credentials
// (confidential client, generated secret), the rest refresh_token rotations on the VU's own
// chain. Every request is written as one line to k6's console output file (the runner passes
// --console-output), which the runner parses for error timelines, p99 per window and the
// no-grant-lost/no-grant-duplicated invariant. Tokens are never written: only their SHA-256
// (base64url, the id the IdP stores them under), so the runner can find them in the database.
//
// Line: <t_ms> <vu> <grant r|c> <status> <k6 duration ms> <wall ms> <old_id|-> <new_id|-> <error|->
//
// Refresh chains: each VU has a list of refresh tokens from separate logins (chains[vu-1]).
// After a lost response (502 from the balancer or a transport error) the VU retries with the
// same token; if that token was in fact rotated by an instance that died before answering, the
// retry is a reuse, the IdP revokes the grant (invalid_grant), and the VU moves to its next chain.
//   phase "saturate": ramping-arrival-rate up to `ceiling` (capacity measurement)
//   phase "steady":   constant-arrival-rate at `rate` for `duration` seconds
import crypto from 'k6/crypto';
import encoding from 'k6/encoding';
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter, Rate, Trend } from 'k6/metrics';
import { arrivalScenario } from './lib/arrival.js';

const config = JSON.parse(open(__ENV.LOAD_CONFIG));

const tokenLatency = new Trend('token_latency', true);
const tokensOk = new Counter('tokens_ok');
const tokenErrors = new Rate('token_errors');

export const options = {
  scenarios: { tokens: arrivalScenario(config, { rampShare: 0.3, gracefulStop: '10s' }) },
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'count'],
  discardResponseBodies: false,
  // Requests must not hang: the IdP fails fast when the database is down, so a long wait here
  // would itself be a finding (it shows as a duration near this timeout).
  userAgent: 'pqid-faults/k6',
};

/** @param {string} token */
const id = (token) => crypto.sha256(token, 'base64rawurl');

// Per VU: which chain, and the current link of it.
let chain = 0;
/** @type {string | undefined} */
let refreshToken;
let iteration = 0;

/**
 * The first token of this VU's next chain, or undefined when it has used them all.
 * @param {number} vu
 * @returns {string | undefined}
 */
function nextChain(vu) {
  const mine = config.chains[(vu - 1) % config.chains.length];
  if (chain >= mine.length) return undefined;
  return mine[chain++];
}

export default function () {
  const vu = exec.vu.idInTest;
  iteration++;
  const params = {
    /** @type {Record<string, string>} */
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    tags: { name: 'token' },
    timeout: '30s',
  };
  // Deterministic mix: every k-th iteration of a VU is client_credentials.
  const cc = config.ccShare > 0 && (iteration + vu) % Math.round(1 / config.ccShare) === 0;
  let body;
  let old = '-';
  if (cc) {
    params.headers.authorization = `Basic ${encoding.b64encode(`${config.ccClient.id}:${config.ccClient.secret}`)}`;
    body = 'grant_type=client_credentials&scope=api';
  } else {
    if (refreshToken === undefined) refreshToken = nextChain(vu);
    if (refreshToken === undefined) {
      // every chain of this VU was revoked: nothing left to rotate (reported as an error)
      console.log(`${Date.now()} ${vu} r 0 0 0 - - no_chain_left`);
      tokenErrors.add(true);
      return;
    }
    old = id(refreshToken);
    body = `grant_type=refresh_token&client_id=${encodeURIComponent(config.rpClientId)}&refresh_token=${encodeURIComponent(refreshToken)}`;
  }
  const t0 = Date.now();
  const res = http.post(config.tokenUrl, body, params);
  let ok = res.status === 200;
  let fresh = '-';
  let error = '-';
  let json;
  try {
    json = JSON.parse(/** @type {string} */ (res.body));
  } catch (_e) {
    json = undefined;
  }
  if (ok) {
    ok = typeof json?.access_token === 'string';
    if (!ok) error = 'no_access_token';
    else if (!cc) {
      if (typeof json.refresh_token === 'string') {
        refreshToken = json.refresh_token;
        fresh = id(json.refresh_token);
      } else {
        ok = false;
        error = 'no_refresh_token';
      }
    }
  } else {
    error = (
      json && typeof json.error === 'string'
        ? json.error
        : res.error_code
          ? `k6_${res.error_code}`
          : 'no_body'
    )
      .replace(/\s+/g, '_')
      .slice(0, 40);
    // A rotated-out token: this chain's grant is revoked; continue on the next chain.
    if (!cc && res.status === 400 && error === 'invalid_grant') refreshToken = undefined;
  }
  const wall = Date.now() - t0;
  console.log(
    `${t0} ${vu} ${cc ? 'c' : 'r'} ${res.status} ${res.timings.duration.toFixed(2)} ${wall} ${old} ${fresh} ${error}`,
  );
  tokenErrors.add(!ok);
  if (ok) {
    tokensOk.add(1);
    tokenLatency.add(res.timings.duration);
  }
}

/** @param {unknown} data */
export function handleSummary(data) {
  return { [config.summaryFile]: JSON.stringify(data) };
}
