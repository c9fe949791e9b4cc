/**
 * The authorization-code flow through the login form, from Node (fetch with a tiny cookie jar):
 * the runner uses it to mint refresh tokens and sample tokens before a k6 phase, so the k6
 * phase itself (and the server CPU time measured around it) holds only the requests under test.
 * load/scenarios/login.js does the same flow in k6.
 */
import { createHash, randomBytes } from 'node:crypto';

const b64u = (b) => Buffer.from(b).toString('base64url');

/** Parse the first form of an HTML page: action and its inputs. */
export function parseForm(html) {
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return undefined;
  const decodeEntities = (s) =>
    s
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>');
  const fields = {};
  for (const m of form[2].matchAll(/<input[^>]*>/gi)) {
    const name = /name="([^"]*)"/.exec(m[0])?.[1];
    const value = /value="([^"]*)"/.exec(m[0])?.[1] ?? '';
    if (name) fields[name] = decodeEntities(value);
  }
  const buttons = [...form[2].matchAll(/<button[^>]*name="([^"]*)"[^>]*value="([^"]*)"/gi)].map((m) => ({
    name: m[1],
    value: m[2],
  }));
  return { action: decodeEntities(form[1]), fields, buttons };
}

class Jar {
  cookies = new Map();
  store(res) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const i = pair.indexOf('=');
      this.cookies.set(pair.slice(0, i).trim(), pair.slice(i + 1).trim());
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * Log in as `username` for `clientId` (a public client with PKCE) and exchange the code.
 * Returns the token response. Bounded: at most 8 hops.
 */
export async function loginFlow({ issuer, clientId, redirectUri, username, password, scope, nonce }) {
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
        return body;
      }
      url = next.href;
      init = { method: 'GET' };
      continue;
    }
    const html = await res.text();
    const form = parseForm(html);
    if (!form) throw new Error(`unexpected page (${res.status}) at ${url}: ${html.slice(0, 200)}`);
    const fields = { ...form.fields };
    if ('username' in fields || /name="password"/.test(html)) {
      fields.username = username;
      fields.password = password;
    } else {
      const allow = form.buttons.find((b) => /allow|yes|accept/i.test(b.value)) ?? form.buttons[0];
      if (allow) fields[allow.name] = allow.value;
    }
    url = new URL(form.action, url).href;
    init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    };
  }
  throw new Error('login flow did not reach the redirect_uri in 8 hops');
}
