/**
 * The authorization-code flow through the login form, from Node (fetch with a tiny cookie jar):
 * the runner uses it to mint refresh tokens and sample tokens before a k6 phase, so the k6
 * phase itself (and the server CPU time measured around it) holds only the requests under test.
 * load/scenarios/login.js does the same flow in k6.
 */
import { createHash, randomBytes } from 'node:crypto';

/** @param {Uint8Array} b */
const b64u = (b) => Buffer.from(b).toString('base64url');

/**
 * @typedef {object} TokenResponse
 * @property {string} id_token
 * @property {string} access_token
 * @property {string} [refresh_token]
 */

/**
 * @typedef {object} Form
 * @property {string} action
 * @property {Record<string, string>} fields
 * @property {{ name: string, value: string }[]} buttons
 */

/**
 * Parse the first form of an HTML page: action and its inputs.
 * @param {string} html
 * @returns {Form | undefined}
 */
export function parseForm(html) {
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return undefined;
  /** @param {string} s */
  const decodeEntities = (s) =>
    s
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>');
  /** @type {Record<string, string>} */
  const fields = {};
  for (const m of (form[2] ?? '').matchAll(/<input[^>]*>/gi)) {
    const name = /name="([^"]*)"/.exec(m[0])?.[1];
    const value = /value="([^"]*)"/.exec(m[0])?.[1] ?? '';
    if (name) fields[name] = decodeEntities(value);
  }
  const buttons = [...(form[2] ?? '').matchAll(/<button[^>]*name="([^"]*)"[^>]*value="([^"]*)"/gi)].map(
    (m) => ({
      name: m[1] ?? '',
      value: m[2] ?? '',
    }),
  );
  return { action: decodeEntities(form[1] ?? ''), fields, buttons };
}

class Jar {
  /** @type {Map<string, string>} */
  cookies = new Map();

  /** @param {Response} res */
  store(res) {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const i = pair.indexOf('=');
      this.cookies.set(pair.slice(0, i).trim(), pair.slice(i + 1).trim());
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * @typedef {object} Login
 * @property {string} issuer
 * @property {string} clientId a public client with PKCE
 * @property {string} redirectUri
 * @property {string} username
 * @property {string} password
 * @property {string} [scope]
 * @property {string} [nonce]
 */

/**
 * The code and the PKCE verifier it was asked with, exchanged at the token endpoint.
 * @param {Login} login
 * @param {string} code
 * @param {string} verifier
 * @returns {Promise<TokenResponse>}
 */
async function exchange({ issuer, clientId, redirectUri }, code, verifier) {
  const tokenRes = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: clientId,
    }),
  });
  const body = await tokenRes.json();
  if (!tokenRes.ok) throw new Error(`token exchange failed: ${JSON.stringify(body)}`);
  return /** @type {TokenResponse} */ (body);
}

/**
 * The POST that answers a page's form: the credentials on the login page, otherwise the
 * consent button that allows.
 * @param {Login} login
 * @param {string} html
 * @param {string} url the page's URL
 * @param {number} status
 */
function answerForm({ username, password }, html, url, status) {
  const form = parseForm(html);
  if (!form) throw new Error(`unexpected page (${status}) at ${url}: ${html.slice(0, 200)}`);
  const fields = { ...form.fields };
  if ('username' in fields || /name="password"/.test(html)) {
    fields.username = username;
    fields.password = password;
  } else {
    const allow = form.buttons.find((b) => /allow|yes|accept/i.test(b.value)) ?? form.buttons[0];
    if (allow) fields[allow.name] = allow.value;
  }
  return {
    url: new URL(form.action, url).href,
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    },
  };
}

/**
 * Log in as `username` for `clientId` (a public client with PKCE) and exchange the code.
 * Returns the token response. Bounded: at most 8 hops.
 * @param {Login} login
 * @returns {Promise<TokenResponse>}
 */
export async function loginFlow(login) {
  const { issuer, clientId, redirectUri, scope, nonce } = login;
  const jar = new Jar();
  const verifier = b64u(randomBytes(32));
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const q = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    scope: scope ?? 'openid profile email offline_access',
    redirect_uri: redirectUri,
    state: b64u(randomBytes(8)),
    nonce: nonce ?? b64u(randomBytes(8)),
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  let url = `${issuer}/authorize?${q}`;
  /** @type {{ method: string, headers?: Record<string, string>, body?: string }} */
  let init = { method: 'GET' };
  for (let hop = 0; hop < 8; hop++) {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers ?? {}), cookie: jar.header() },
    });
    jar.store(res);
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.href.startsWith(redirectUri)) {
        const code = next.searchParams.get('code');
        if (!code) throw new Error(`authorization failed: ${next.search}`);
        return exchange(login, code, verifier);
      }
      url = next.href;
      init = { method: 'GET' };
      continue;
    }
    ({ url, init } = answerForm(login, await res.text(), url, res.status));
  }
  throw new Error('login flow did not reach the redirect_uri in 8 hops');
}
