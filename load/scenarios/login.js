// k6 scenario `login`: the full authorization-code flow through the login form, per algorithm.
// Each iteration picks the next algorithm (round robin, so every algorithm sees the same machine
// conditions), clears the VU's cookie jar, and walks: GET /authorize (PKCE S256) -> login page
// -> POST username/password with the CSRF field -> (consent page -> allow) -> redirect with
// code -> POST /token. Latency of the whole flow and of the code exchange (where the ID token
// and the JWT access token are signed) is recorded per algorithm.
import crypto from 'k6/crypto';
import encoding from 'k6/encoding';
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter, Rate, Trend } from 'k6/metrics';

const config = JSON.parse(open(__ENV.LOAD_CONFIG));
const flowMs = new Trend('login_flow_ms', true);
const exchangeMs = new Trend('login_token_exchange_ms', true);
const flowsOk = new Counter('login_ok');
const flowErrors = new Rate('login_errors');

/** @type {Record<string, string[]>} */
const thresholds = { login_errors: [`rate<=${config.maxErrorRate}`] };
for (const { alg } of config.clients) {
  // Per-algorithm thresholds make k6 keep per-algorithm sub-metrics in the summary.
  thresholds[`login_flow_ms{alg:${alg}}`] = [`p(99)<${config.flowBudgetMs}`];
  thresholds[`login_token_exchange_ms{alg:${alg}}`] = [`p(99)<${config.flowBudgetMs}`];
  thresholds[`login_errors{alg:${alg}}`] = [`rate<=${config.maxErrorRate}`];
}

export const options = {
  scenarios: {
    login: {
      executor: 'constant-arrival-rate',
      rate: config.rate,
      timeUnit: '1s',
      duration: `${config.duration}s`,
      preAllocatedVUs: config.vus,
      maxVUs: config.vus,
      gracefulStop: '10s',
    },
  },
  thresholds,
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'count'],
  userAgent: 'pqid-load/k6',
};

/** @param {Record<string, string>} obj */
const formUrlEncode = (obj) =>
  Object.keys(obj)
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(obj[k])}`)
    .join('&');

/**
 * A Location header resolved against the URL it answered.
 * @param {string} location
 * @param {string} base
 */
function resolve(location, base) {
  if (/^https?:\/\//.test(location)) return location;
  const origin = /^(https?:\/\/[^/]+)/.exec(base)?.[1] ?? '';
  return location.startsWith('/') ? `${origin}${location}` : `${base.replace(/[^/]*$/, '')}${location}`;
}

/**
 * One login: authorize, the login form, consent when asked, the code exchange.
 * @param {{ alg: string, clientId: string }} client
 * @param {string} username
 */
function flow(client, username) {
  const verifier = encoding.b64encode(crypto.randomBytes(32), 'rawurl');
  const challenge = crypto.sha256(verifier, 'base64rawurl');
  const q = formUrlEncode({
    client_id: client.clientId,
    response_type: 'code',
    scope: 'openid profile email offline_access',
    redirect_uri: config.redirectUri,
    state: encoding.b64encode(crypto.randomBytes(8), 'rawurl'),
    nonce: encoding.b64encode(crypto.randomBytes(8), 'rawurl'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const tags = { alg: client.alg };
  let res = http.get(`${config.issuer}/authorize?${q}`, {
    redirects: 0,
    tags: { ...tags, name: 'authorize' },
  });
  let url = `${config.issuer}/authorize`;
  for (let hop = 0; hop < 8; hop++) {
    const location = res.headers.Location || res.headers.location;
    if (location) {
      const next = resolve(location, url);
      if (next.startsWith(config.redirectUri)) {
        const code = /[?&]code=([^&]+)/.exec(next);
        if (!code) return false;
        const token = http.post(
          `${config.issuer}/token`,
          formUrlEncode({
            grant_type: 'authorization_code',
            code: decodeURIComponent(code[1]),
            redirect_uri: config.redirectUri,
            code_verifier: verifier,
            client_id: client.clientId,
          }),
          {
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            tags: { ...tags, name: 'token' },
          },
        );
        exchangeMs.add(token.timings.duration, tags);
        return token.status === 200 && /** @type {string} */ (token.body).indexOf('"id_token"') >= 0;
      }
      url = next;
      res = http.get(url, { redirects: 0, tags: { ...tags, name: 'interaction' } });
      continue;
    }
    if (res.status !== 200) return false;
    const doc = res.html();
    const form = doc.find('form').first();
    if (form.size() === 0) return false;
    /** @type {Record<string, string>} */
    const fields = {};
    form.find('input').each((_i, el) => {
      const name = el.attributes().name?.value;
      if (name) fields[name] = el.attributes().value?.value ?? '';
    });
    if (form.find('input[name=password]').size() > 0) {
      fields.username = username;
      fields.password = config.password;
    } else {
      const button = form.find('button[name]').first();
      if (button.size() > 0)
        fields[String(button.attr('name'))] = /** @type {string} */ (button.attr('value'));
    }
    url = resolve(/** @type {string} */ (form.attr('action')), url);
    res = http.post(url, formUrlEncode(fields), {
      redirects: 0,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      tags: { ...tags, name: 'form' },
    });
  }
  return false;
}

export default function () {
  const i = exec.scenario.iterationInTest;
  const client = config.clients[i % config.clients.length];
  const username = config.users[i % config.users.length];
  http.cookieJar().clear(config.issuer);
  const start = Date.now();
  const ok = flow(client, username);
  const tags = { alg: client.alg };
  flowErrors.add(!ok, tags);
  if (ok) {
    flowsOk.add(1, tags);
    flowMs.add(Date.now() - start, tags);
  }
}

/** @param {unknown} data */
export function handleSummary(data) {
  return { [config.summaryFile]: JSON.stringify(data) };
}
