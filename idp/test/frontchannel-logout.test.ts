/**
 * OpenID Connect Front-Channel Logout 1.0, driven with fastify inject: client metadata accepted
 * and refused through every way in (RFC 7591 POST, RFC 7592 PUT, `pqid clients add`), discovery,
 * and the signed-out page — one hidden iframe per front-channel client of the ended session
 * (never another session's), `iss` and `sid` appended to the registered query, everything
 * escaped, a CSP whose `frame-src` is exactly those origins, and the back channel unchanged
 * beside it (a real loopback RP receives the logout tokens).
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { createLocalJWKSet, verifyJwt } from '@pqid/jose';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerClient } from '../src/app.ts';
import { clients as clientsCommand } from '../src/cli/clients.ts';
import { runCli } from '../src/cli/run.ts';
import { tokenId } from '../src/crypto/secrets.ts';
import { frontchannelLogoutUrl } from '../src/oidc/logout/frontchannel.ts';
import { basicAuth, browserLogin, captureOutput, form, KEK, pkce, startTestIdp, tempDir } from './helpers.ts';

const ISSUER = 'http://localhost:3000';
const IAT = 'initial-access-token-frontchannel';
const A = {
  redirect: 'https://rp-a.example/cb',
  // A registered query, kept byte for byte (%20 stays %20, the order stays).
  logout: 'https://rp-a.example/logout?app=a&q=%20x',
  bye: 'https://rp-a.example/bye',
  name: 'RP "A" <&> \'quoted\'',
};
const B = { redirect: 'https://rp-b.example:8443/cb', logout: 'https://rp-b.example:8443/fc' };

/** What an RP's back-channel endpoint received: one logout token per POST, by path. */
class BackchannelRp {
  readonly tokens = new Map<string, string[]>();
  readonly #server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const list = this.tokens.get(req.url ?? '') ?? [];
      list.push(new URLSearchParams(body).get('logout_token') ?? '');
      this.tokens.set(req.url ?? '', list);
      res.writeHead(200).end();
    });
  });
  base = '';
  async start(): Promise<this> {
    await new Promise<void>((r) => this.#server.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.#server.address() as { port: number }).port}`;
    return this;
  }
  close(): Promise<void> {
    return new Promise((r) => this.#server.close(() => r()));
  }
}

const fromHtml = (s: string) =>
  s.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] as string,
  );

/** The iframes of a page: their title and (unescaped) src. */
function framesOf(html: string): Array<{ title: string; src: string }> {
  return [...html.matchAll(/<iframe hidden title="([^"]*)" src="([^"]*)"><\/iframe>/g)].map((m) => ({
    title: fromHtml(m[1] as string),
    src: fromHtml(m[2] as string),
  }));
}

/** The page's CSP as directive → sources. */
function csp(r: LightMyRequestResponse): Map<string, string[]> {
  const header = r.headers['content-security-policy'] as string;
  return new Map(
    header.split(';').map((d) => {
      const [name, ...sources] = d.trim().split(/\s+/);
      return [name as string, sources];
    }),
  );
}

const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1] as string, 'base64url').toString()) as Record<string, unknown>;

describe('front-channel logout', () => {
  let t: Awaited<ReturnType<typeof startTestIdp>>;
  let app: FastifyInstance;
  let rp: BackchannelRp;
  const secrets = new Map<string, string>();
  const redirects = new Map<string, string>();
  const logs: string[] = [];

  beforeAll(async () => {
    rp = await new BackchannelRp().start();
    t = await startTestIdp(
      { logLevel: 'info', registration: { mode: 'token', initialAccessToken: IAT } },
      { PQID_KEK: KEK },
      { logStream: { write: (m) => void logs.push(m) } },
    );
    app = t.idp.app;
    const both = { redirect: `${rp.base}/cb`, logout: `${rp.base}/fc` };
    const clients = [
      {
        client_id: 'fc-a',
        client_name: A.name,
        redirect_uris: [A.redirect],
        post_logout_redirect_uris: [A.bye],
        frontchannel_logout_uri: A.logout,
        frontchannel_logout_session_required: true,
      },
      { client_id: 'fc-b', redirect_uris: [B.redirect], frontchannel_logout_uri: B.logout },
      {
        client_id: 'fc-bc',
        redirect_uris: [both.redirect],
        frontchannel_logout_uri: both.logout,
        backchannel_logout_uri: `${rp.base}/bc/fc-bc`,
        id_token_signed_response_alg: 'ML-DSA-44',
      },
      {
        client_id: 'bc',
        redirect_uris: ['https://rp-c.example/cb'],
        backchannel_logout_uri: `${rp.base}/bc/bc`,
      },
      {
        client_id: 'plain',
        redirect_uris: ['https://rp-d.example/cb'],
        post_logout_redirect_uris: ['https://rp-d.example/bye'],
      },
    ];
    for (const c of clients) {
      const { clientSecret } = await registerClient(t.idp.ctx, {
        id_token_signed_response_alg: 'ES256',
        ...c,
      });
      secrets.set(c.client_id, clientSecret as string);
      redirects.set(c.client_id, c.redirect_uris[0] as string);
    }
  });
  afterAll(async () => {
    await t?.close();
    await rp?.close();
  });

  /** One browser session in which each client gets a code; the first one's ID token too. */
  async function sessionWith(clientIds: string[], creds?: { username: string; password: string }) {
    let cookie = '';
    let idToken = '';
    for (const clientId of clientIds) {
      const { verifier, challenge } = pkce();
      const query = {
        client_id: clientId,
        redirect_uri: redirects.get(clientId) as string,
        response_type: 'code',
        scope: 'openid',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      };
      let location: URL;
      if (!cookie) {
        const login = await browserLogin(app, query, creds);
        cookie = login.sessionCookie as string;
        location = login.location;
      } else {
        const r = await app.inject({ url: `/authorize?${new URLSearchParams(query)}`, headers: { cookie } });
        location = new URL(r.headers.location as string);
      }
      const code = location.searchParams.get('code');
      expect(code, clientId).toBeTruthy();
      if (idToken) continue;
      const tokens = await app.inject({
        method: 'POST',
        url: '/token',
        ...form(
          {
            grant_type: 'authorization_code',
            code: code as string,
            redirect_uri: query.redirect_uri,
            code_verifier: verifier,
          },
          { authorization: basicAuth(clientId, secrets.get(clientId) as string) },
        ),
      });
      expect(tokens.statusCode, tokens.body).toBe(200);
      idToken = tokens.json().id_token;
    }
    return { cookie, idToken, sid: claimsOf(idToken).sid as string };
  }

  const endSession = (params: Record<string, string>, cookie: string) =>
    app.inject({ url: `/end_session?${new URLSearchParams(params)}`, headers: { cookie } });

  async function confirm(page: LightMyRequestResponse, cookie: string) {
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] as string;
    const logoutCookie = page.cookies.find((c) => c.name === 'pqid_logout');
    return app.inject({
      method: 'POST',
      url: '/end_session/confirm',
      ...form({ csrf, logout: 'yes' }, { cookie: `${cookie}; pqid_logout=${logoutCookie?.value}` }),
    });
  }

  async function stillSignedIn(cookie: string): Promise<boolean> {
    const q = {
      client_id: 'plain',
      redirect_uri: redirects.get('plain') as string,
      response_type: 'code',
      scope: 'openid',
      prompt: 'none',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    };
    const r = await app.inject({ url: `/authorize?${new URLSearchParams(q)}`, headers: { cookie } });
    return new URL(r.headers.location as string).searchParams.has('code');
  }

  /** The src each front-channel client must get: its registered URI, then iss and sid. */
  const expectedSrc = (uri: string, sid: string) =>
    `${uri}${uri.includes('?') ? '&' : '?'}iss=${encodeURIComponent(ISSUER)}&sid=${sid}`;

  it('advertises front-channel logout with iss and sid', async () => {
    const doc = (await app.inject('/.well-known/openid-configuration')).json();
    expect(doc).toMatchObject({
      frontchannel_logout_supported: true,
      frontchannel_logout_session_supported: true,
    });
    expect(doc.claims_supported).toContain('sid');
  });

  it('renders one hidden iframe per front-channel client of the session, then continues', async () => {
    const s = await sessionWith(['fc-a', 'fc-b', 'fc-bc', 'bc', 'plain']);
    expect(s.sid).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const before = {
      fcbc: rp.tokens.get('/bc/fc-bc')?.length ?? 0,
      bc: rp.tokens.get('/bc/bc')?.length ?? 0,
    };
    const state = 'st"<a>&b';
    const r = await endSession(
      { id_token_hint: s.idToken, post_logout_redirect_uri: A.bye, state },
      s.cookie,
    );
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers.location).toBeUndefined();
    expect(await stillSignedIn(s.cookie)).toBe(false);

    // Exactly the session's front-channel clients, each with this issuer and this session's sid.
    const frames = framesOf(r.body);
    expect(frames.map((f) => f.src).sort()).toEqual(
      [
        expectedSrc(A.logout, s.sid),
        expectedSrc(B.logout, s.sid),
        expectedSrc(`${rp.base}/fc`, s.sid),
      ].sort(),
    );
    for (const f of frames) {
      const url = new URL(f.src);
      expect(url.searchParams.get('iss')).toBe(ISSUER);
      expect(url.searchParams.get('sid')).toBe(s.sid);
    }
    expect(new URL(frames.find((f) => f.src.startsWith(A.logout))?.src as string).searchParams.get('q')).toBe(
      ' x',
    );
    expect(frames.map((f) => f.title).sort()).toEqual(
      [`Signing out of ${A.name}`, 'Signing out of fc-b', 'Signing out of fc-bc'].sort(),
    );
    // Escaped wherever it is written: the name (list and title) and the src's '&'.
    expect(r.body).not.toContain('<&>');
    expect(r.body).toContain('<li>RP &quot;A&quot; &lt;&amp;&gt; &#39;quoted&#39;</li>');
    expect(r.body).toContain('logout?app=a&amp;q=%20x&amp;iss=');

    // Then on to the registered post-logout URI with the state, by link, script and refresh.
    const continueTo = `${A.bye}?${new URLSearchParams({ state })}`;
    const href = /<a id="continue" href="([^"]*)"/.exec(r.body)?.[1] as string;
    expect(fromHtml(href)).toBe(continueTo);
    expect(r.body).toContain(`<meta http-equiv="refresh" content="0;url=${href}">`);

    // The CSP: frame-src is exactly the three origins, the one script is allowed by its hash.
    const policy = csp(r);
    expect(policy.get('frame-src')?.sort()).toEqual(
      ['https://rp-a.example', 'https://rp-b.example:8443', rp.base].sort(),
    );
    const script = /<script>([^<]*)<\/script>/.exec(r.body)?.[1] as string;
    expect(policy.get('script-src')).toEqual([
      `'sha256-${createHash('sha256').update(script).digest('base64')}'`,
    ]);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('child-src')).toBeUndefined();

    // The back channel is told as before: both back-channel clients, this sid, once.
    await t.idp.app.backchannelLogout.idle();
    expect(rp.tokens.get('/bc/fc-bc')?.length).toBe(before.fcbc + 1);
    expect(rp.tokens.get('/bc/bc')?.length).toBe(before.bc + 1);
    const jwks = await createLocalJWKSet((await app.inject('/jwks')).json());
    const { claims } = await verifyJwt(rp.tokens.get('/bc/fc-bc')?.at(-1) as string, jwks, {
      algorithms: ['ML-DSA-44'],
      issuer: ISSUER,
      audience: 'fc-bc',
      typ: 'logout+jwt',
    });
    expect(claims.sid).toBe(s.sid);

    // Told once: the session and its client list are gone.
    const again = await endSession({ id_token_hint: s.idToken, post_logout_redirect_uri: A.bye }, s.cookie);
    expect(again.statusCode).toBe(303);
  });

  it('remembers front-channel clients in the back-channel record, and no client with neither URI', async () => {
    const store = t.idp.ctx.storage.adapter('SessionClients');
    const recordOf = (sid: string) => store.find(tokenId(`sid\0${sid}`));
    const plain = await sessionWith(['plain']);
    expect(await recordOf(plain.sid)).toBeUndefined();
    const s = await sessionWith(['plain', 'fc-b', 'bc', 'fc-bc']);
    expect(await recordOf(s.sid)).toMatchObject({ clients: ['fc-b', 'bc', 'fc-bc'] });
  });

  it('leaves out the clients of another session, even of the same user', async () => {
    const one = await sessionWith(['fc-a']);
    const two = await sessionWith(['fc-b', 'fc-a']);
    expect(two.sid).not.toBe(one.sid);
    const r1 = await endSession({ id_token_hint: one.idToken }, one.cookie);
    expect(framesOf(r1.body).map((f) => f.src)).toEqual([expectedSrc(A.logout, one.sid)]);
    expect(csp(r1).get('frame-src')).toEqual(['https://rp-a.example']);
    expect(await stillSignedIn(two.cookie)).toBe(true);
    const r2 = await endSession({ id_token_hint: two.idToken }, two.cookie);
    expect(
      framesOf(r2.body)
        .map((f) => f.src)
        .sort(),
    ).toEqual([expectedSrc(A.logout, two.sid), expectedSrc(B.logout, two.sid)].sort());
  });

  it('after the confirmation page too, with or without a place to continue to', async () => {
    const s = await sessionWith(['fc-b', 'plain']);
    const ask = await endSession({}, s.cookie);
    expect(ask.body).toContain('Sign out?');
    expect(framesOf(ask.body)).toEqual([]);
    expect(csp(ask).get('frame-src')).toBeUndefined();
    const r = await confirm(ask, s.cookie);
    expect(r.statusCode, r.body).toBe(200);
    expect(framesOf(r.body).map((f) => f.src)).toEqual([expectedSrc(B.logout, s.sid)]);
    expect(csp(r).get('frame-src')).toEqual(['https://rp-b.example:8443']);
    // Nowhere to go: no link, no refresh, no script (and none allowed).
    expect(r.body).toContain('You can close this page.');
    expect(r.body).not.toMatch(/<script|http-equiv|id="continue"/);
    expect(csp(r).get('script-src')).toBeUndefined();

    const s2 = await sessionWith(['fc-a']);
    const ask2 = await endSession(
      { client_id: 'fc-a', post_logout_redirect_uri: A.bye, state: 'x' },
      s2.cookie,
    );
    expect(ask2.body).toContain('Sign out?');
    const r2 = await confirm(ask2, s2.cookie);
    expect(framesOf(r2.body).map((f) => f.src)).toEqual([expectedSrc(A.logout, s2.sid)]);
    expect(fromHtml(/<a id="continue" href="([^"]*)"/.exec(r2.body)?.[1] as string)).toBe(`${A.bye}?state=x`);
  });

  it('a session without front-channel clients: no frames, the answers of before', async () => {
    const s = await sessionWith(['plain', 'bc']);
    const before = rp.tokens.get('/bc/bc')?.length ?? 0;
    const r = await endSession(
      { id_token_hint: s.idToken, post_logout_redirect_uri: 'https://rp-d.example/bye' },
      s.cookie,
    );
    expect(r.statusCode).toBe(303);
    expect(r.headers.location).toBe('https://rp-d.example/bye');
    await t.idp.app.backchannelLogout.idle();
    expect(rp.tokens.get('/bc/bc')?.length).toBe(before + 1);

    const s2 = await sessionWith(['plain']);
    const page = await endSession({ id_token_hint: s2.idToken }, s2.cookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('You are signed out.');
    expect(framesOf(page.body)).toEqual([]);
    expect(page.body).not.toContain('<iframe');
    expect(csp(page).get('frame-src')).toBeUndefined();
  });

  it('signs the user out even when the session clients cannot be read (logged, no frames)', async () => {
    const s = await sessionWith(['fc-b']);
    const ask = await endSession({}, s.cookie);
    const find = vi.spyOn(t.idp.ctx.clients, 'find').mockRejectedValueOnce(new Error('storage down'));
    try {
      const r = await confirm(ask, s.cookie);
      expect(r.statusCode).toBe(200);
      expect(r.body).toContain('You are signed out.');
      expect(framesOf(r.body)).toEqual([]);
      expect(csp(r).get('frame-src')).toBeUndefined();
    } finally {
      find.mockRestore();
    }
    expect(await stillSignedIn(s.cookie)).toBe(false);
    expect(logs.join('')).toContain('logout: could not read the session clients');
  });

  it('skips a stored URI that cannot be written into the CSP (one that bypassed validation)', async () => {
    // Written straight to storage, as a record from before validation or edited by hand would be.
    const bad = 'https://a;script-src.example/fc';
    await t.idp.ctx.storage.adapter('Client').upsert('fc-bad', {
      ...((await t.idp.ctx.clients.find('fc-b')) as object),
      client_id: 'fc-bad',
      redirect_uris: [B.redirect],
      frontchannel_logout_uri: bad,
    });
    secrets.set('fc-bad', secrets.get('fc-b') as string);
    redirects.set('fc-bad', B.redirect);
    const s = await sessionWith(['fc-b', 'fc-bad']);
    const r = await endSession({ id_token_hint: s.idToken }, s.cookie);
    expect(framesOf(r.body).map((f) => f.src)).toEqual([expectedSrc(B.logout, s.sid)]);
    expect(r.headers['content-security-policy']).not.toContain('script-src');
    expect(csp(r).get('frame-src')).toEqual(['https://rp-b.example:8443']);
    expect(logs.join('')).toContain('front-channel logout: unusable URI, skipped');
  });

  describe('client metadata', () => {
    const register = (body: unknown) =>
      app.inject({
        method: 'POST',
        url: '/register',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${IAT}` },
        payload: JSON.stringify(body),
      });
    const RP = 'https://rp.example/cb';
    const ok = 'https://rp.example/fc?tenant=t1';

    /** Each breaks one rule; the rest of the registration is valid. */
    const bad: Array<[string, Record<string, unknown>]> = [
      ['not a string', { frontchannel_logout_uri: 42 }],
      ['empty', { frontchannel_logout_uri: '' }],
      ['relative', { frontchannel_logout_uri: '/fc' }],
      ['a fragment', { frontchannel_logout_uri: 'https://rp.example/fc#x' }],
      ['an empty fragment', { frontchannel_logout_uri: 'https://rp.example/fc#' }],
      ['http, not loopback', { frontchannel_logout_uri: 'http://rp.example/fc' }],
      ['javascript:', { frontchannel_logout_uri: 'javascript:alert(1)' }],
      ['another host', { frontchannel_logout_uri: 'https://other.example/fc' }],
      ['another port', { frontchannel_logout_uri: 'https://rp.example:8443/fc' }],
      [
        'another scheme',
        { frontchannel_logout_uri: 'http://127.0.0.1:4000/fc', redirect_uris: ['https://127.0.0.1:4000/cb'] },
      ],
      [
        'a host CSP cannot name',
        { frontchannel_logout_uri: 'https://a;b.example/fc', redirect_uris: ['https://a;b.example/cb'] },
      ],
      [
        'an IPv6 literal',
        { frontchannel_logout_uri: 'http://[::1]:4000/fc', redirect_uris: ['http://[::1]:4000/cb'] },
      ],
      ['credentials', { frontchannel_logout_uri: 'https://u:p@rp.example/fc' }],
      ['its own sid', { frontchannel_logout_uri: 'https://rp.example/fc?sid=1' }],
      ['its own iss', { frontchannel_logout_uri: 'https://rp.example/fc?a=1&iss=x' }],
      [
        'session_required not a boolean',
        { frontchannel_logout_uri: ok, frontchannel_logout_session_required: 'true' },
      ],
    ];

    it.each(bad)('RFC 7591 refuses %s with invalid_client_metadata', async (_why, extra) => {
      const r = await register({ redirect_uris: [RP], ...extra });
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json().error).toBe('invalid_client_metadata');
      expect(r.json().error_description).toMatch(/frontchannel_logout_(uri|session_required)/);
    });

    it('RFC 7591 accepts and echoes it; RFC 7592 PUT validates and echoes it again', async () => {
      const reg = await register({
        redirect_uris: [RP],
        frontchannel_logout_uri: ok,
        frontchannel_logout_session_required: true,
      });
      expect(reg.statusCode, reg.body).toBe(201);
      expect(reg.json()).toMatchObject({
        frontchannel_logout_uri: ok,
        frontchannel_logout_session_required: true,
      });
      const { client_id, registration_access_token } = reg.json();
      const put = (body: Record<string, unknown>) =>
        app.inject({
          method: 'PUT',
          url: `/register/${client_id}`,
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${registration_access_token}`,
          },
          payload: JSON.stringify({ client_id, redirect_uris: [RP], ...body }),
        });
      for (const [why, extra] of bad) {
        const r = await put(extra);
        expect(r.statusCode, why).toBe(400);
        expect(r.json().error, why).toBe('invalid_client_metadata');
      }
      const loopback = 'http://127.0.0.1:4000/fc';
      const r = await put({ redirect_uris: ['http://127.0.0.1:4000/cb'], frontchannel_logout_uri: loopback });
      expect(r.statusCode, r.body).toBe(200);
      // Defaults to false when not given; a PUT replaces, so the earlier `true` is gone.
      expect(r.json()).toMatchObject({
        frontchannel_logout_uri: loopback,
        frontchannel_logout_session_required: false,
      });
      const read = await app.inject({
        url: `/register/${client_id}`,
        headers: { authorization: `Bearer ${registration_access_token}` },
      });
      expect(read.json().frontchannel_logout_uri).toBe(loopback);
      // Without a front-channel URI the flag is not stored on its own (as for back-channel).
      const none = await register({ redirect_uris: [RP], frontchannel_logout_session_required: true });
      expect(none.json().frontchannel_logout_session_required).toBeUndefined();
    });

    it('`pqid clients add` refuses what registration refuses, with the same message; its flag works', async () => {
      const dir = tempDir();
      const saved = { ...process.env };
      Object.assign(process.env, { PQID_DATA_DIR: dir.dir, PQID_KEK: KEK, PQID_DEMO: 'false' });
      delete process.env.PQID_CONFIG;
      delete process.env.PQID_DATABASE_URL;
      const cli = async (args: string[]) => {
        const {
          result: code,
          stdout,
          stderr,
        } = await captureOutput(() => runCli(['clients', 'add', ...args], [clientsCommand]));
        return { code, stderr, stdout };
      };
      try {
        const file = join(dir.dir, 'client.json');
        for (const [why, extra] of bad) {
          const metadata = { redirect_uris: [RP], ...extra };
          const viaApi = (await register(metadata)).json().error_description as string;
          writeFileSync(file, JSON.stringify(metadata));
          const viaCli = await cli(['--metadata', file]);
          expect(viaCli.code, why).toBe(2);
          expect(viaCli.stderr, why).toContain(viaApi);
        }
        const added = await cli(['--redirect-uri', RP, '--frontchannel-logout-uri', ok]);
        expect(added.code, added.stderr).toBe(0);
        expect(JSON.parse(added.stdout)).toMatchObject({
          frontchannel_logout_uri: ok,
          frontchannel_logout_session_required: false,
        });
      } finally {
        process.env = saved;
        dir.cleanup();
      }
    });
  });

  it('appends iss and sid to the registered query as it is', () => {
    const iss = 'https://idp.example/t 1';
    expect(frontchannelLogoutUrl('https://rp.example/fc', iss, 'S')).toBe(
      'https://rp.example/fc?iss=https%3A%2F%2Fidp.example%2Ft+1&sid=S',
    );
    expect(frontchannelLogoutUrl('https://rp.example/fc?', iss, 'S')).toBe(
      'https://rp.example/fc?iss=https%3A%2F%2Fidp.example%2Ft+1&sid=S',
    );
    expect(frontchannelLogoutUrl('https://rp.example/fc?a=%20b&c', 'i', 'S')).toBe(
      'https://rp.example/fc?a=%20b&c&iss=i&sid=S',
    );
    expect(frontchannelLogoutUrl('https://rp.example/fc?a=1&', 'i', 'S')).toBe(
      'https://rp.example/fc?a=1&iss=i&sid=S',
    );
  });
});
