// k6 scenario `sizes`: where pqid's tokens travel, in bytes, for every algorithm x claim profile,
// as k6 metrics with thresholds against configurable budgets. The runner (lib/runner/scenarios/sizes.mjs) passes
// the tokens in: the minimal profile is what the IdP actually issued (ID token and RFC 9068 JWT
// access token from a real login), typical/rich are the same claims plus profile, group and role
// claims, signed by the runner with @pqid/jose under the same algorithm; DPoP proofs are built
// with @pqid/jose around the client's public key. This script measures the lines each token
// becomes, fetches the live JWKS, and replays the IdP-issued access token in a real
// Authorization header to /userinfo (Node's 16 KiB header limit answers 431 when it is exceeded).
// It also sends each DPoP proof to the token endpoint (a client_credentials grant bound to the
// proof's key), and pushes each request object (JAR, signed by the IdP's JAR client of that
// algorithm) to the PAR endpoint: the authorization URL carrying the object by value is measured
// against the one PAR leaves (client_id and request_uri).
//
// Budgets (k6 thresholds; a crossed threshold is a finding, not a failure of the run):
//   cookie 4096 (RFC 6265 §6.1: name + value + attributes), header line 8190 (nginx/Apache
//   default), Node's total header limit 16384, URLs 2048 (conservative) and 8000 (RFC 9110 §4.1).
//   SAML POST-form and Redirect-binding sizes: config.saml, from the IdP's samlSizes() (the runner).
import encoding from 'k6/encoding';
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';

const config = JSON.parse(open(__ENV.LOAD_CONFIG));
const b = config.budgets;
const COOKIE_ATTRS = '; Path=/; Secure; HttpOnly; SameSite=Lax';

const metrics = {
  id_token: new Trend('size_id_token'),
  access_token: new Trend('size_access_token'),
  authorization_header: new Trend('size_authorization_header'),
  set_cookie: new Trend('size_set_cookie'),
  set_cookie_line: new Trend('size_set_cookie_line'),
  logout_url: new Trend('size_logout_url'),
  dpop_header: new Trend('size_dpop_header'),
  jwks: new Trend('size_jwks'),
  saml_post_form: new Trend('size_saml_post_form'),
  saml_redirect_url: new Trend('size_saml_redirect_url'),
  authorization_url_jar: new Trend('size_authorization_url_jar'),
  authorization_url_par: new Trend('size_authorization_url_par'),
};
const transport = new Counter('transport_status');
const dpopStatus = new Counter('dpop_status');
const parStatus = new Counter('par_status');
/** @param {{ id: string, secret: string }} c */
const basic = (c) =>
  `Basic ${encoding.b64encode(`${encodeURIComponent(c.id)}:${encodeURIComponent(c.secret)}`)}`;

/** @type {Record<string, string[]>} */
const budgetsFor = {
  set_cookie: [`max<=${b.cookie}`],
  authorization_header: [`max<=${b.headerLine}`, `max<=${b.nodeHeaders}`],
  set_cookie_line: [`max<=${b.headerLine}`],
  logout_url: [`max<=${b.urlConservative}`, `max<=${b.url}`],
  dpop_header: [`max<=${b.headerLine}`, `max<=${b.nodeHeaders}`],
  saml_redirect_url: [`max<=${b.urlConservative}`, `max<=${b.url}`],
  authorization_url_jar: [`max<=${b.urlConservative}`, `max<=${b.url}`],
  authorization_url_par: [`max<=${b.urlConservative}`, `max<=${b.url}`],
  // Sizes without a transport budget still get a (never failing) threshold so the summary keeps
  // their per-algorithm sub-metrics.
  id_token: ['max>=0'],
  access_token: ['max>=0'],
  jwks: ['max>=0'],
  saml_post_form: ['max>=0'],
};

/** @type {Record<string, string[]>} */
const thresholds = {};
/** @param {string} kind @param {string} alg @param {string} profile */
const add = (kind, alg, profile) => {
  thresholds[`size_${kind}{alg:${alg},profile:${profile}}`] = budgetsFor[kind] ?? [];
};
for (const item of config.items) {
  for (const kind of [
    'id_token',
    'access_token',
    'authorization_header',
    'set_cookie',
    'set_cookie_line',
    'logout_url',
  ])
    add(kind, item.alg, item.profile);
  if (item.dpopProof) add('dpop_header', item.alg, item.profile);
  if (item.requestObject) {
    add('authorization_url_jar', item.alg, item.profile);
    add('authorization_url_par', item.alg, item.profile);
  }
}
for (const alg of Object.keys(config.jwks)) add('jwks', alg, 'single-key');
add('jwks', 'all', 'live');
for (const s of config.saml ?? []) {
  add('saml_post_form', s.alg, s.profile);
  add('saml_redirect_url', s.alg, s.profile);
}
for (const item of config.items.filter((/** @type {{ source: string }} */ i) => i.source === 'idp')) {
  thresholds[`transport_status{alg:${item.alg},status:200}`] = ['count>=0'];
  if (item.dpopProof) thresholds[`dpop_status{alg:${item.alg},status:200}`] = ['count>=0'];
  if (item.requestObject) thresholds[`par_status{alg:${item.alg},status:201}`] = ['count>=0'];
}

export const options = {
  scenarios: { sizes: { executor: 'shared-iterations', vus: 1, iterations: 1, maxDuration: '60s' } },
  thresholds,
  summaryTrendStats: ['min', 'max', 'count'],
  userAgent: 'pqid-load/k6',
};

/** @param {string} s */
const bytes = (s) => {
  // UTF-8 length; every token and URL here is ASCII, but keep it honest.
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
};

export default function () {
  for (const item of config.items) {
    const tags = { alg: item.alg, profile: item.profile };
    const cookie = `id_token=${item.idToken}${COOKIE_ATTRS}`;
    metrics.id_token.add(bytes(item.idToken), tags);
    metrics.access_token.add(bytes(item.accessToken), tags);
    metrics.authorization_header.add(bytes(`Authorization: Bearer ${item.accessToken}`), tags);
    metrics.set_cookie.add(bytes(cookie), tags);
    metrics.set_cookie_line.add(bytes(`Set-Cookie: ${cookie}`), tags);
    metrics.logout_url.add(
      bytes(
        `${config.endSessionEndpoint}?id_token_hint=${item.idToken}&post_logout_redirect_uri=${encodeURIComponent(config.postLogoutRedirectUri)}&state=af0ifjsldkj`,
      ),
      tags,
    );
    if (item.dpopProof) metrics.dpop_header.add(bytes(`DPoP: ${item.dpopProof}`), tags);
    if (item.source === 'idp') {
      // The real thing: the IdP-issued JWT access token as a bearer header at /userinfo.
      const res = http.get(config.userinfoEndpoint, {
        headers: { authorization: `Bearer ${item.accessToken}` },
        tags: { name: 'userinfo' },
      });
      transport.add(1, { alg: item.alg, status: String(res.status) });
    }
    if (item.dpopProof && item.ccClient) {
      // The proof as the IdP sees it: a client_credentials grant bound to the proof's key.
      const res = http.post(
        config.tokenEndpoint,
        { grant_type: 'client_credentials' },
        {
          headers: { authorization: basic(item.ccClient), dpop: item.dpopProof },
          tags: { name: 'token_dpop' },
        },
      );
      const bound = res.status === 200 && res.json('token_type') === 'DPoP';
      dpopStatus.add(1, { alg: item.alg, status: bound ? '200' : String(res.status) });
    }
    if (item.requestObject) {
      const client = item.jarClient.id;
      metrics.authorization_url_jar.add(
        bytes(
          `${config.authorizationEndpoint}?client_id=${encodeURIComponent(client)}&request=${item.requestObject}`,
        ),
        tags,
      );
      const res = http.post(
        config.parEndpoint,
        { client_id: client, request: item.requestObject },
        { headers: { authorization: basic(item.jarClient) }, tags: { name: 'par' } },
      );
      parStatus.add(1, { alg: item.alg, status: String(res.status) });
      const requestUri =
        res.status === 201
          ? /** @type {string} */ (res.json('request_uri'))
          : 'urn:ietf:params:oauth:request_uri:(refused)';
      metrics.authorization_url_par.add(
        bytes(
          `${config.authorizationEndpoint}?client_id=${encodeURIComponent(client)}&request_uri=${encodeURIComponent(requestUri)}`,
        ),
        tags,
      );
    }
  }
  for (const [alg, n] of Object.entries(config.jwks)) metrics.jwks.add(n, { alg, profile: 'single-key' });
  const live = http.get(config.jwksUri, { tags: { name: 'jwks' } });
  metrics.jwks.add(live.body ? bytes(/** @type {string} */ (live.body)) : 0, { alg: 'all', profile: 'live' });
  for (const s of config.saml ?? []) {
    metrics.saml_post_form.add(s.postFormBytes, { alg: s.alg, profile: s.profile });
    metrics.saml_redirect_url.add(s.redirectUrlBytes, { alg: s.alg, profile: s.profile });
  }
}

/** @param {unknown} data */
export function handleSummary(data) {
  return { [config.summaryFile]: JSON.stringify(data) };
}
