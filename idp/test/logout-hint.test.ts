/**
 * `id_token_hint` at the end-session endpoint (OpenID Connect RP-Initiated Logout 1.0 §2–§4,
 * §6): only an ID token this provider issued counts, and only one naming the signed-in user and
 * session lets the sign-out skip the confirmation page (otherwise anyone holding some token could
 * sign a victim out: logout CSRF). Each hint below breaks one condition; the rest of it is valid.
 */
import {
  encryptJwt,
  generateEncryptionKeyPair,
  generateKeyPair,
  importEncryptionKey,
  importJWK,
  type Jwk,
  type JwtClaims,
  type PrivateKey,
  signJwt,
} from '@pqid/jose';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../src/app.ts';
import { basicAuth, browserLogin, form, redeemCode, startTestIdp } from './helpers.ts';

const ISSUER = 'http://localhost:3000';
const RP = 'https://rp.example/cb';
const AFTER = 'https://rp.example/bye';
const MALLORY = { username: 'mallory', password: 'mallory pass phrase' };

describe('RP-initiated logout: id_token_hint', () => {
  let t: Awaited<ReturnType<typeof startTestIdp>>;
  let app: FastifyInstance;
  let idpKey: PrivateKey;
  const secrets = new Map<string, string>();

  beforeAll(async () => {
    t = await startTestIdp();
    app = t.idp.app;
    for (const [id, extra] of [
      ['rp', {}],
      ['rp2', {}],
      ['jwt-at', { access_token_format: 'jwt' as const, access_token_signed_response_alg: 'ES256' }],
      ['signed-ui', { userinfo_signed_response_alg: 'ES256' }],
      ['pq', { id_token_signed_response_alg: 'ML-DSA-65' }],
    ] as const) {
      const { clientSecret } = await registerClient(t.idp.ctx, {
        client_id: id,
        redirect_uris: [RP],
        post_logout_redirect_uris: [AFTER],
        require_pkce: false,
        id_token_signed_response_alg: 'ES256',
        ...extra,
      });
      secrets.set(id, clientSecret as string);
    }
    await t.idp.ctx.accounts.create(MALLORY);
    // The provider's own ID-token key: forged hints below are signed by it, so each is refused
    // for the one claim or header it gets wrong, never for its signature.
    idpKey = await t.idp.ctx.keys.signerFor('id_token', 'ES256');
  });
  afterAll(() => t.close());

  /** A sign-in in a fresh browser: its session cookie and the client's tokens. */
  async function signIn(clientId = 'rp', creds?: typeof MALLORY) {
    const q = { client_id: clientId, redirect_uri: RP, response_type: 'code', scope: 'openid', nonce: 'n' };
    const { location, sessionCookie } = await browserLogin(app, q, creds);
    const r = await redeemCode(app, location, RP, {
      headers: { authorization: basicAuth(clientId, secrets.get(clientId) as string) },
    });
    expect(r.statusCode, r.body).toBe(200);
    const tokens = r.json() as { access_token: string; id_token: string };
    return { ...tokens, cookie: sessionCookie as string, claims: claimsOf(tokens.id_token) };
  }

  const claimsOf = (jwt: string) =>
    JSON.parse(Buffer.from(jwt.split('.')[1] as string, 'base64url').toString()) as JwtClaims;

  const endSession = (params: Record<string, string>, cookie?: string) =>
    app.inject({
      url: `/end_session?${new URLSearchParams(params)}`,
      ...(cookie ? { headers: { cookie } } : {}),
    });

  async function stillSignedIn(cookie: string): Promise<boolean> {
    const q = { client_id: 'rp', redirect_uri: RP, response_type: 'code', scope: 'openid', prompt: 'none' };
    const r = await app.inject({ url: `/authorize?${new URLSearchParams(q)}`, headers: { cookie } });
    return new URL(r.headers.location as string).searchParams.has('code');
  }

  /** The claims of a genuine ID token of `victim`, changed by `edit`, signed by the IdP's key. */
  async function forge(
    victim: { claims: JwtClaims },
    edit: (c: JwtClaims) => JwtClaims = (c) => c,
    { typ = 'JWT', key = idpKey }: { typ?: string; key?: PrivateKey } = {},
  ): Promise<string> {
    return signJwt(edit({ ...victim.claims }), key, { typ, issuedAt: false });
  }

  /** Refused with a 400 error page, no redirect, and the session untouched. */
  async function expectRefused(
    hint: string,
    cookie: string,
    message: RegExp,
    extra: Record<string, string> = {},
  ) {
    const r = await endSession({ id_token_hint: hint, post_logout_redirect_uri: AFTER, ...extra }, cookie);
    expect(r.statusCode, r.body).toBe(400);
    expect(r.headers.location).toBeUndefined();
    expect(r.headers['content-type']).toMatch(/text\/html/);
    expect(r.body).toMatch(message);
    expect(r.body).toContain('invalid_request');
    expect(await stillSignedIn(cookie)).toBe(true);
  }

  /** The confirmation page instead of a silent sign-out; the session is still there. */
  async function expectConfirmation(hint: string, cookie: string) {
    const r = await endSession({ id_token_hint: hint, post_logout_redirect_uri: AFTER, state: 's' }, cookie);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.body).toContain('Sign out?');
    expect(r.headers.location).toBeUndefined();
    expect(await stillSignedIn(cookie)).toBe(true);
    return r;
  }

  it('a valid hint for the signed-in user and session: signed out at once, back to the registered URI', async () => {
    const me = await signIn();
    expect(me.claims.sid).toEqual(expect.any(String));
    const r = await endSession(
      { id_token_hint: me.id_token, post_logout_redirect_uri: AFTER, state: 'bye' },
      me.cookie,
    );
    expect(r.statusCode).toBe(303);
    expect(r.headers.location).toBe(`${AFTER}?state=bye`);
    expect(await stillSignedIn(me.cookie)).toBe(false);
    // post_logout_redirect_uri rules are unchanged: exact match only, for the hint's client.
    const other = await signIn();
    const wrong = await endSession(
      { id_token_hint: other.id_token, post_logout_redirect_uri: `${AFTER}/x` },
      other.cookie,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.headers.location).toBeUndefined();
    expect(await stillSignedIn(other.cookie)).toBe(true);
  });

  it('an ML-DSA-65 hint sent as a POST form (it does not fit a conservative URL)', async () => {
    const me = await signIn('pq');
    expect(JSON.parse(Buffer.from(me.id_token.split('.')[0] as string, 'base64url').toString()).alg).toBe(
      'ML-DSA-65',
    );
    const r = await app.inject({
      method: 'POST',
      url: '/end_session',
      ...form(
        { id_token_hint: me.id_token, post_logout_redirect_uri: AFTER, state: 'pq' },
        { cookie: me.cookie },
      ),
    });
    expect(r.statusCode, r.body).toBe(303);
    expect(r.headers.location).toBe(`${AFTER}?state=pq`);
    expect(await stillSignedIn(me.cookie)).toBe(false);
  });

  it('an ID token re-encrypted to the provider’s key is a hint (§2); one encrypted to the RP is refused, saying what to send', async () => {
    const me = await signIn();
    const published = t.idp.ctx.keys.jwks().keys.find((k) => k.use === 'enc' && k.alg === 'HPKE-9') as Jwk;
    const toProvider = await encryptJwt(me.id_token, await importEncryptionKey(published));
    const r = await endSession(
      { id_token_hint: toProvider, post_logout_redirect_uri: AFTER, state: 'bye' },
      me.cookie,
    );
    expect(r.statusCode, r.body).toBe(303);
    expect(r.headers.location).toBe(`${AFTER}?state=bye`);
    expect(await stillSignedIn(me.cookie)).toBe(false);

    // The JWE the provider sent an RP that asked for encrypted ID tokens: only the RP can open it.
    const other = await signIn();
    const rpKey = await generateEncryptionKeyPair('HPKE-9');
    const toRp = await encryptJwt(other.id_token, await importEncryptionKey(rpKey.publicJwk));
    await expectRefused(
      toRp,
      other.cookie,
      /encrypted, but not to a key of this provider: send the signed ID token/,
    );
    // Encryption vouches for nothing: a token this provider did not sign, encrypted to it.
    const stranger = (await importJWK((await generateKeyPair('ES256')).privateJwk)) as PrivateKey;
    const forged = await signJwt({ ...other.claims }, stranger, { typ: 'JWT', issuedAt: false });
    await expectRefused(
      await encryptJwt(forged, await importEncryptionKey(published)),
      other.cookie,
      /not a valid ID token/,
    );
  });

  it('an expired hint still identifies the session (§2: exp need not be in the future)', async () => {
    const me = await signIn();
    const now = Math.floor(Date.now() / 1000);
    const expired = await forge(me, (c) => ({ ...c, iat: now - 900, exp: now - 600 }));
    const r = await endSession({ id_token_hint: expired, post_logout_redirect_uri: AFTER }, me.cookie);
    expect(r.statusCode, r.body).toBe(303);
    expect(await stillSignedIn(me.cookie)).toBe(false);
  });

  it('without a session a valid hint just returns to the registered URI', async () => {
    const me = await signIn();
    const r = await endSession({ id_token_hint: me.id_token, post_logout_redirect_uri: AFTER, state: 'x' });
    expect(r.statusCode).toBe(303);
    expect(r.headers.location).toBe(`${AFTER}?state=x`);
  });

  describe('a hint naming someone else: confirmation, not a silent sign-out (logout CSRF)', () => {
    it("another user's ID token", async () => {
      const victim = await signIn();
      const attacker = await signIn('rp', MALLORY);
      expect(attacker.claims.sub).not.toBe(victim.claims.sub);
      await expectConfirmation(attacker.id_token, victim.cookie);
    });

    it("the same user's ID token from another session (its sid is not this session's)", async () => {
      const elsewhere = await signIn();
      const here = await signIn();
      expect(elsewhere.claims.sid).not.toBe(here.claims.sid);
      const page = await expectConfirmation(elsewhere.id_token, here.cookie);
      // The user can still confirm, and then goes back to the registered URI.
      const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] as string;
      const logoutCookie = page.cookies.find((c) => c.name === 'pqid_logout');
      const ok = await app.inject({
        method: 'POST',
        url: '/end_session/confirm',
        ...form({ csrf, logout: 'yes' }, { cookie: `${here.cookie}; pqid_logout=${logoutCookie?.value}` }),
      });
      expect(ok.statusCode).toBe(303);
      expect(ok.headers.location).toBe(`${AFTER}?state=s`);
      expect(await stillSignedIn(here.cookie)).toBe(false);
    });
  });

  describe('refused: not an ID token this provider issued to a registered client', () => {
    it('an RFC 9068 access token (at+jwt) signed by the same key', async () => {
      const me = await signIn('jwt-at');
      expect(me.access_token.split('.')).toHaveLength(3);
      await expectRefused(me.access_token, me.cookie, /not a valid ID token/);
      // Even one shaped exactly like an ID token for a registered client: the type tells.
      await expectRefused(await forge(me, undefined, { typ: 'at+jwt' }), me.cookie, /not a valid ID token/);
    });

    it('a logout token (logout+jwt, events) and a signed userinfo response', async () => {
      const me = await signIn('signed-ui');
      const events = { 'http://schemas.openid.net/event/backchannel-logout': {} };
      const logoutToken = await forge(me, (c) => ({ ...c, events }), { typ: 'logout+jwt' });
      await expectRefused(logoutToken, me.cookie, /not a valid ID token/);
      // Typed JWT but carrying a logout token's events claim (Back-Channel Logout §2.4).
      await expectRefused(await forge(me, (c) => ({ ...c, events })), me.cookie, /not a valid ID token/);
      const ui = await app.inject({
        url: '/userinfo',
        headers: { authorization: `Bearer ${me.access_token}` },
      });
      expect(ui.headers['content-type']).toMatch(/application\/jwt/);
      expect(claimsOf(ui.body)).toMatchObject({ iss: ISSUER, aud: 'signed-ui', sub: me.claims.sub });
      await expectRefused(ui.body, me.cookie, /not a valid ID token/);
    });

    it('each required ID token claim missing (OIDC Core §2)', async () => {
      const me = await signIn();
      for (const claim of ['iss', 'sub', 'aud', 'exp', 'iat', 'auth_time']) {
        const hint = await forge(me, ({ [claim]: _, ...rest }) => rest);
        await expectRefused(hint, me.cookie, /not a valid ID token/);
      }
    });

    it('another issuer, and a key this provider does not publish', async () => {
      const me = await signIn();
      await expectRefused(
        await forge(me, (c) => ({ ...c, iss: 'https://evil.example' })),
        me.cookie,
        /not a valid ID token/,
      );
      const stranger = (await importJWK((await generateKeyPair('ES256')).privateJwk)) as PrivateKey;
      await expectRefused(await forge(me, undefined, { key: stranger }), me.cookie, /not a valid ID token/);
    });

    it('an audience that is not one registered client', async () => {
      const me = await signIn();
      await expectRefused(await forge(me, (c) => ({ ...c, aud: 'nobody' })), me.cookie, /not registered/);
      await expectRefused(await forge(me, (c) => ({ ...c, aud: ISSUER })), me.cookie, /not registered/);
      await expectRefused(
        await forge(me, (c) => ({ ...c, aud: ['rp', 'rp2'] })),
        me.cookie,
        /not a valid ID token/,
      );
      await expectRefused(await forge(me, (c) => ({ ...c, aud: [] })), me.cookie, /not a valid ID token/);
      await expectRefused(
        await forge(me, (c) => ({ ...c, aud: 42 as never })),
        me.cookie,
        /not a valid ID token/,
      );
      await expectRefused(await forge(me, (c) => ({ ...c, sid: 42 })), me.cookie, /not a valid ID token/);
    });

    it('client_id differing from the hint’s audience (§2: it must match)', async () => {
      const me = await signIn();
      await expectRefused(me.id_token, me.cookie, /client_id does not match/, { client_id: 'rp2' });
      await expectRefused(me.id_token, me.cookie, /client_id does not match/, { client_id: 'unknown' });
      // The matching client_id is fine.
      const r = await endSession({ id_token_hint: me.id_token, client_id: 'rp' }, me.cookie);
      expect(r.statusCode).toBe(200);
      expect(r.body).toContain('Signed out');
    });

    it('a hint older than any session could be', async () => {
      const me = await signIn();
      const longAgo = Math.floor(Date.now() / 1000) - t.idp.ctx.config.ttl.session - 3600;
      const stale = await forge(me, (c) => ({ ...c, iat: longAgo - 600, exp: longAgo }));
      await expectRefused(stale, me.cookie, /not a valid ID token/);
    });

    it.each([
      ['not a JWT', 'not.a.jwt'],
      ['two segments', 'eyJhbGciOiJFUzI1NiJ9.e30'],
      ['garbage base64url', '%%%.%%%.%%%'],
      ['a JSON array payload', `eyJhbGciOiJFUzI1NiJ9.${Buffer.from('[1]').toString('base64url')}.AAAA`],
      [
        'alg none',
        `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"demo"}').toString('base64url')}.`,
      ],
      ['empty', ''],
    ])('malformed: %s → a clear 400 page', async (_name, hint) => {
      const me = await signIn();
      const r = await endSession({ id_token_hint: hint }, me.cookie);
      if (hint === '') {
        // An empty hint is no hint: the user is asked.
        expect(r.statusCode).toBe(200);
        expect(r.body).toContain('Sign out?');
      } else {
        expect(r.statusCode).toBe(400);
        expect(r.body).toContain('not a valid ID token');
      }
      expect(await stillSignedIn(me.cookie)).toBe(true);
    });
  });
});
