// k6 scenario `throughput`: the token endpoint under load, one algorithm (one client) per run.
// The runner (load/run.mjs, lib/runner/phases.mjs) writes a JSON config and runs this script once per
// (target, grant, algorithm, phase), reading the server's CPU time around each run.
//   phase "saturate": ramping-arrival-rate up to a ceiling the VUs cannot reach, so the
//                     achieved rate is the server's peak for this algorithm on this machine;
//   phase "steady":   constant-arrival-rate at a fixed rate (the runner uses 70% of the peak),
//                     for p50/p95/p99/max latency below saturation.
// Grants: client_credentials (client_secret_basic) and refresh_token (public client, a
// refresh token per VU minted by the runner, rotated on every call).
// Optional `idTokenJwe` (a JWE alg): every response's id_token must be a compact JWE (five parts)
// whose protected header names that alg; the runner decrypts a sample itself before the phase.
// Optional `coldUrls` + `coldEvery`: every coldEvery-th iteration of a VU also fetches one of
// these (the signed JWKS, the SAML metadata), as relying parties polling the cold path do.
import encoding from 'k6/encoding';
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter, Rate, Trend } from 'k6/metrics';
import { arrivalScenario } from './lib/arrival.js';

const config = JSON.parse(open(__ENV.LOAD_CONFIG));

const tokenLatency = new Trend('token_latency', true);
const tokensOk = new Counter('tokens_ok');
const tokenErrors = new Rate('token_errors');
const jwtAccessTokens = new Counter('jwt_access_tokens');
const tokenBytes = new Trend('token_response_bytes');
const idTokenBytes = new Trend('id_token_bytes');
const coldLatency = new Trend('cold_fetch_latency', true);
const coldErrors = new Rate('cold_fetch_errors');

export const options = {
  scenarios: { tokens: arrivalScenario(config, { rampShare: 0.2, gracefulStop: '5s' }) },
  thresholds: {
    // Errors are real failures here; the runner reports them and the phase fails above the budget.
    token_errors: [`rate<=${config.maxErrorRate}`],
  },
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'count'],
  discardResponseBodies: false,
  noCookiesReset: false,
  userAgent: 'pqid-load/k6',
};

/** @type {string | undefined} per VU: the current link of this VU's rotation chain */
let refreshToken;

export default function () {
  const params = {
    /** @type {Record<string, string>} */
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    tags: { name: 'token' },
  };
  let body;
  if (config.grant === 'client_credentials') {
    params.headers.authorization = `Basic ${encoding.b64encode(`${config.clientId}:${config.secret}`)}`;
    body = 'grant_type=client_credentials&scope=api';
  } else {
    if (refreshToken === undefined) {
      refreshToken = config.refreshTokens[(exec.vu.idInTest - 1) % config.refreshTokens.length];
    }
    body = `grant_type=refresh_token&client_id=${encodeURIComponent(config.clientId)}&refresh_token=${encodeURIComponent(refreshToken ?? '')}`;
  }
  const res = http.post(config.tokenUrl, body, params);
  const text = /** @type {string} */ (res.body ?? '');
  let ok = res.status === 200;
  if (ok) {
    try {
      const json = JSON.parse(text);
      ok = typeof json.access_token === 'string';
      if (ok && json.access_token.split('.').length === 3) jwtAccessTokens.add(1);
      if (json.refresh_token) refreshToken = json.refresh_token;
      if (ok && typeof json.id_token === 'string') {
        if (config.idTokenJwe) ok = isJweOf(json.id_token, config.idTokenJwe);
        idTokenBytes.add(json.id_token.length);
      } else if (config.idTokenJwe) ok = false;
    } catch (_e) {
      ok = false;
    }
  }
  tokenErrors.add(!ok);
  if (ok) {
    tokensOk.add(1);
    tokenLatency.add(res.timings.duration);
    tokenBytes.add(text.length);
  }
  if (config.coldUrls?.length && exec.vu.iterationInScenario % config.coldEvery === 0) {
    const url =
      config.coldUrls[Math.floor(exec.vu.iterationInScenario / config.coldEvery) % config.coldUrls.length];
    const cold = http.get(url, { tags: { name: 'cold' } });
    coldErrors.add(cold.status !== 200);
    coldLatency.add(cold.timings.duration);
  }
}

/**
 * A compact JWE whose protected header says `alg` (not decrypted: the runner opens a sample).
 * @param {string} token
 * @param {string} alg
 */
function isJweOf(token, alg) {
  const parts = token.split('.');
  if (parts.length !== 5) return false;
  return JSON.parse(encoding.b64decode(parts[0] ?? '', 'rawurl', 's')).alg === alg;
}

/** @param {unknown} data */
export function handleSummary(data) {
  return { [config.summaryFile]: JSON.stringify(data) };
}
