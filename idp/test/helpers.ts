/** Test helpers: a provider on a throw-away data directory, and a browser-like login via inject. */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { vi } from 'vitest';
import { createIdp } from '../src/app.ts';
import { type Config, type LoadConfigOptions, loadConfig } from '../src/config/index.ts';

export const KEK = randomBytes(32).toString('base64');

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'pqid-idp-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A test configuration. The cold-path root is pinned to ML-DSA-87 (the root before SLH-DSA):
 * an SLH-DSA-SHA2-128s root costs a few hundred milliseconds per key and per certificate, which
 * every IdP a test starts would pay, and doubles the suite's time. The SLH-DSA default
 * (`keys.placement.cold: auto`) has tests of its own (cold-path.test.ts, key-sets.test.ts): pass
 * `keys: { placement: { cold: 'auto' } }` to get it.
 */
export function testConfig(dataDir: string, overrides: LoadConfigOptions['overrides'] = {}): Config {
  const keys = overrides.keys;
  return loadConfig({
    env: {},
    cwd: dataDir,
    overrides: {
      dataDir,
      logLevel: 'silent',
      issuer: 'http://localhost:3000',
      ...overrides,
      // saml.rootAlg (the older name) is an explicit cold path as well.
      keys: overrides.saml?.rootAlg
        ? (keys ?? {})
        : { ...keys, placement: { cold: 'ML-DSA-87', ...keys?.placement } },
    },
  });
}

export async function startTestIdp(
  overrides: LoadConfigOptions['overrides'] = {},
  env: Record<string, string> = { PQID_KEK: KEK },
  opts: { logStream?: { write(msg: string): void } } = {},
) {
  const { dir, cleanup } = tempDir();
  const idp = await createIdp(testConfig(dir, overrides), { env, warn: () => {}, ...opts });
  return {
    idp,
    dir,
    async close() {
      await idp.close();
      cleanup();
    },
  };
}

export const b64u = (b: Buffer) => b.toString('base64url');

export function pkce() {
  const verifier = b64u(randomBytes(32));
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function cookieHeader(cookies: Array<{ name: string; value: string }>): string {
  return cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

export interface LoginResult {
  location: URL;
  sessionCookie?: string;
}

/** Drive authorize → login page → form post the way a browser would. */
export async function browserLogin(
  app: FastifyInstance,
  query: Record<string, string>,
  creds: { username: string; password: string } = { username: 'demo', password: 'demo' },
  opts: { consent?: 'allow' | 'deny' } = {},
): Promise<LoginResult> {
  const r1 = await app.inject({ method: 'GET', url: `/authorize?${new URLSearchParams(query)}` });
  if (r1.statusCode !== 303) throw new Error(`authorize: ${r1.statusCode} ${r1.body}`);
  const loginUrl = r1.headers.location as string;
  const cookie = cookieHeader(r1.cookies);
  const r2 = await app.inject({ method: 'GET', url: loginUrl, headers: { cookie } });
  if (r2.statusCode !== 200) throw new Error(`login page: ${r2.statusCode}`);
  const csrf = /name="csrf" value="([^"]+)"/.exec(r2.body)?.[1] as string;
  const r3 = await app.inject({
    method: 'POST',
    url: `${loginUrl}/login`,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ csrf, ...creds }).toString(),
  });
  if (r3.statusCode !== 303) throw new Error(`login post: ${r3.statusCode} ${r3.body}`);
  const session = r3.cookies.find((c) => c.name === 'pqid_session');
  let location = r3.headers.location as string;
  // offline_access (first time) and prompt=consent lead to the consent page: answer it, with the
  // cookies a browser sends there (the question belongs to the session just made).
  if (location.startsWith('/interaction/')) {
    const next = cookieHeader(
      r3.cookies.filter((c) => c.name === 'pqid_interaction' || c.name === 'pqid_session'),
    );
    location = await answerConsent(app, location, next, opts.consent ?? 'allow');
  }
  return {
    location: new URL(location),
    ...(session ? { sessionCookie: `pqid_session=${session.value}` } : {}),
  };
}

export const DEMO_REDIRECT = 'http://localhost:3001/callback';
export const basicAuth = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

export function form(data: Record<string, string>, headers: Record<string, string> = {}) {
  return {
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(data).toString(),
  };
}

/** GET the consent page and post a decision; returns the redirect location. */
export async function answerConsent(
  app: FastifyInstance,
  consentUrl: string,
  cookie: string,
  decision: 'allow' | 'deny',
): Promise<string> {
  const page = await app.inject({ method: 'GET', url: consentUrl, headers: { cookie } });
  if (page.statusCode !== 200) throw new Error(`consent page: ${page.statusCode}`);
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] as string;
  const r = await app.inject({
    method: 'POST',
    url: `${consentUrl}/consent`,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ csrf, decision }).toString(),
  });
  if (r.statusCode !== 303) throw new Error(`consent post: ${r.statusCode} ${r.body}`);
  return r.headers.location as string;
}

/** Run `fn` (a CLI command) with stdout and stderr captured instead of printed. */
export async function captureOutput<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => {
    stdout += String(s);
    return true;
  });
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
    stderr += String(s);
    return true;
  });
  try {
    const result = await fn();
    return { result, stdout, stderr };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

/** Redeem the code in an authorization response at /token (authorization_code grant). */
export function redeemCode(
  app: FastifyInstance,
  location: URL,
  redirectUri: string,
  { verifier, headers = {} }: { verifier?: string; headers?: Record<string, string> } = {},
) {
  return app.inject({
    method: 'POST',
    url: '/token',
    ...form(
      {
        grant_type: 'authorization_code',
        code: location.searchParams.get('code') as string,
        redirect_uri: redirectUri,
        ...(verifier !== undefined ? { code_verifier: verifier } : {}),
      },
      headers,
    ),
  });
}

/** Dynamic registration over inject: RFC 7591 with an initial access token, RFC 7592 updates. */
export function dynamicRegistration(app: FastifyInstance, initialAccessToken: string) {
  const json = (method: 'POST' | 'PUT', url: string, token: string, body: Record<string, unknown>) =>
    app.inject({
      method,
      url,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      payload: JSON.stringify(body),
    });
  return {
    register: (body: Record<string, unknown>) => json('POST', '/register', initialAccessToken, body),
    /** Replace the metadata of a registered client (its `client_id` is added to `body`). */
    update: (
      client: { client_id: string; registration_access_token: string },
      body: Record<string, unknown>,
    ) =>
      json('PUT', `/register/${client.client_id}`, client.registration_access_token, {
        client_id: client.client_id,
        ...body,
      }),
  };
}
