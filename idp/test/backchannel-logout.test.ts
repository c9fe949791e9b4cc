/**
 * `sid` in ID tokens and OpenID Connect Back-Channel Logout 1.0. The IdP is driven with fastify
 * inject; the relying parties are real HTTP servers on loopback, as the logout POSTs are real.
 * Logout tokens are verified with @pqid/jose and, for ML-DSA-65, with the jose package. Also:
 * the sign-out page never waits for an RP, delivery concurrency is bounded, retries and final
 * failures are counted in /metrics and logged.
 */
import { createLocalJWKSet, decodeProtectedHeader, verifyJwt } from '@pqid/jose';
import type { FastifyInstance } from 'fastify';
import * as jose from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdp, type Idp, registerClient } from '../src/app.ts';
import { BACKCHANNEL_LOGOUT_EVENT } from '../src/oidc/logout/logout-token.ts';
import { type DeliveryRecord, deliveryId } from '../src/oidc/logout/outbox.ts';
import { basicAuth, browserLogin, form, KEK, pkce, redeemCode, tempDir, testConfig } from './helpers.ts';
import { RpStub } from './rp-stub.ts';

const ISSUER = 'http://localhost:3000';
const RP = 'https://rp.example/cb';

/** Shared across RpStubs: how many POSTs are being held right now, over all of them. */
const concurrent = (stubs: RpStub[]) => stubs.reduce((n, s) => n + s.inFlight, 0);

describe('sid and back-channel logout', () => {
  let idp: Idp;
  let app: FastifyInstance;
  let cleanup: () => void;
  const logs: string[] = [];
  const secrets = new Map<string, string>();
  const stubs = new Map<string, RpStub>();

  beforeAll(async () => {
    const dir = tempDir();
    cleanup = dir.cleanup;
    idp = await createIdp(
      testConfig(dir.dir, {
        logLevel: 'info',
        backchannelLogout: { concurrency: 2, attempts: 3, retryDelay: 0.02, timeout: 2 },
      }),
      { env: { PQID_KEK: KEK }, warn: () => {}, logStream: { write: (m) => void logs.push(m) } },
    );
    app = idp.app;
    const clients: Array<[string, string, boolean]> = [
      ['rp-a', 'ML-DSA-65', true],
      ['rp-b', 'ML-DSA-87-Ed448', true],
      ['rp-c', 'ES256', false],
    ];
    for (const [id, alg, backchannel] of clients) {
      const stub = backchannel ? await new RpStub().start() : undefined;
      if (stub) stubs.set(id, stub);
      const { clientSecret } = await registerClient(idp.ctx, {
        client_id: id,
        redirect_uris: [RP],
        id_token_signed_response_alg: alg,
        post_logout_redirect_uris: ['https://rp.example/bye'],
        ...(stub ? { backchannel_logout_uri: stub.url, backchannel_logout_session_required: true } : {}),
      });
      secrets.set(id, clientSecret as string);
    }
  });
  afterAll(async () => {
    await idp?.close();
    for (const s of stubs.values()) await s.close();
    cleanup?.();
  });

  /** Sign in once, then get codes for `clientIds` in that same browser session; their ID tokens. */
  async function sessionWith(clientIds: string[]) {
    let cookie: string | undefined;
    const idTokens = new Map<string, string>();
    const refreshTokens = new Map<string, string>();
    for (const clientId of clientIds) {
      const { verifier, challenge } = pkce();
      const query = {
        client_id: clientId,
        redirect_uri: RP,
        response_type: 'code',
        scope: 'openid',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      };
      let location: URL;
      if (!cookie) {
        const login = await browserLogin(app, query);
        cookie = login.sessionCookie as string;
        location = login.location;
      } else {
        const r = await app.inject({ url: `/authorize?${new URLSearchParams(query)}`, headers: { cookie } });
        location = new URL(r.headers.location as string);
      }
      const tokens = await redeemCode(app, location, RP, {
        verifier,
        headers: { authorization: basicAuth(clientId, secrets.get(clientId) as string) },
      });
      expect(tokens.statusCode, tokens.body).toBe(200);
      idTokens.set(clientId, tokens.json().id_token);
      if (tokens.json().refresh_token) refreshTokens.set(clientId, tokens.json().refresh_token);
    }
    return { cookie: cookie as string, idTokens, refreshTokens };
  }
  const claims = (jwt: string) =>
    JSON.parse(Buffer.from(jwt.split('.')[1] as string, 'base64url').toString());
  const logout = (cookie: string, idTokenHint: string) =>
    app.inject({
      url: `/end_session?${new URLSearchParams({ id_token_hint: idTokenHint, post_logout_redirect_uri: 'https://rp.example/bye' })}`,
      headers: { cookie },
    });

  it('advertises back-channel logout with sessions, and sid', async () => {
    const doc = (await app.inject('/.well-known/openid-configuration')).json();
    expect(doc).toMatchObject({
      backchannel_logout_supported: true,
      backchannel_logout_session_supported: true,
    });
    expect(doc.claims_supported).toContain('sid');
  });

  it('puts one sid per browser session in every ID token of that session', async () => {
    const first = await sessionWith(['rp-a', 'rp-c']);
    const sid = claims(first.idTokens.get('rp-a') as string).sid;
    expect(sid).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(claims(first.idTokens.get('rp-c') as string).sid).toBe(sid);
    const second = await sessionWith(['rp-a']);
    expect(claims(second.idTokens.get('rp-a') as string).sid).not.toBe(sid);
  });

  it('sends each back-channel client a logout token signed with its ID-token algorithm', async () => {
    const a = stubs.get('rp-a') as RpStub;
    const b = stubs.get('rp-b') as RpStub;
    const [beforeA, beforeB] = [a.received.length, b.received.length];
    const { cookie, idTokens } = await sessionWith(['rp-a', 'rp-b', 'rp-c']);
    const sid = claims(idTokens.get('rp-a') as string).sid;
    const sub = claims(idTokens.get('rp-a') as string).sub;
    const out = await logout(cookie, idTokens.get('rp-a') as string);
    expect(out.statusCode).toBe(303);
    await Promise.all([a.got(beforeA + 1), b.got(beforeB + 1)]);
    await app.backchannelLogout.idle();
    const jwks = await createLocalJWKSet((await app.inject('/jwks')).json());
    for (const [clientId, stub, alg] of [
      ['rp-a', a, 'ML-DSA-65'],
      ['rp-b', b, 'ML-DSA-87-Ed448'],
    ] as const) {
      const delivery = stub.received.at(-1) as { contentType: string; token: string };
      expect(delivery.contentType).toBe('application/x-www-form-urlencoded');
      expect(decodeProtectedHeader(delivery.token)).toMatchObject({ alg, typ: 'logout+jwt' });
      const { claims: c } = await verifyJwt(delivery.token, jwks, {
        algorithms: [alg],
        issuer: ISSUER,
        audience: clientId,
        typ: 'logout+jwt',
        requiredClaims: ['iat', 'exp', 'jti', 'events', 'sid', 'sub'],
      });
      expect(c).toMatchObject({ sub, sid, events: { [BACKCHANNEL_LOGOUT_EVENT]: {} } });
      expect(c.nonce).toBeUndefined();
      expect((c.exp as number) - (c.iat as number)).toBeLessThanOrEqual(120);
    }
    // The jose package (WebCrypto ML-DSA) verifies the ML-DSA-65 one too.
    const verified = await jose.jwtVerify(
      a.received.at(-1)?.token as string,
      jose.createLocalJWKSet((await app.inject('/jwks')).json()),
      {
        issuer: ISSUER,
        audience: 'rp-a',
        typ: 'logout+jwt',
        algorithms: ['ML-DSA-65'],
      },
    );
    expect(verified.payload.sid).toBe(sid);
    // Told once: the session's client list went with it.
    expect(a.received.length).toBe(beforeA + 1);
  });

  it('answers the user before any RP does, and keeps at most `concurrency` POSTs in flight', async () => {
    const a = stubs.get('rp-a') as RpStub;
    const b = stubs.get('rp-b') as RpStub;
    const sessions = [await sessionWith(['rp-a', 'rp-b']), await sessionWith(['rp-a', 'rp-b'])];
    a.answers.push('hold', 'hold');
    b.answers.push('hold', 'hold');
    const [beforeA, beforeB] = [a.received.length, b.received.length];
    for (const s of sessions) {
      const out = await logout(s.cookie, s.idTokens.get('rp-a') as string);
      // The sign-out answered while every RP still holds its request (or has not got it yet).
      expect(out.statusCode).toBe(303);
      expect(a.held.length + b.held.length).toBeLessThanOrEqual(2);
    }
    // Four deliveries are due. Wait until every POST the IdP has in flight is held by an RP:
    // with concurrency 2 that is two of them, the other two still queued.
    await new Promise<void>((resolve) => {
      const check = () =>
        concurrent([a, b]) > 0 && concurrent([a, b]) === app.backchannelLogout.inFlight
          ? resolve()
          : setImmediate(check);
      check();
    });
    expect(concurrent([a, b])).toBe(2);
    expect(a.received.length + b.received.length - beforeA - beforeB).toBe(2);
    a.release();
    b.release();
    await Promise.all([a.got(beforeA + 2), b.got(beforeB + 2)]);
    a.release();
    b.release();
    await app.backchannelLogout.idle();
    expect(Math.max(a.maxInFlight, b.maxInFlight, concurrent([a, b]))).toBeLessThanOrEqual(2);
  });

  it('retries on 5xx, gives up on 4xx and after the last attempt; counted and logged', async () => {
    const a = stubs.get('rp-a') as RpStub;
    const b = stubs.get('rp-b') as RpStub;
    const metric = async (outcome: string) => {
      const text = (await app.inject('/metrics')).body;
      const m = new RegExp(`pqid_backchannel_logout_deliveries_total\\{outcome="${outcome}"\\} (\\d+)`).exec(
        text,
      );
      return Number(m?.[1] ?? 0);
    };
    const [delivered, retried, failed] = [
      await metric('delivered'),
      await metric('retry'),
      await metric('failed'),
    ];
    // rp-a: 503 then 200 (one retry, delivered); rp-b: 500, 500, 500 (two retries, failed).
    a.answers.push(503, 200);
    b.answers.push(500, 500, 500);
    const s = await sessionWith(['rp-a', 'rp-b']);
    const [beforeA, beforeB] = [a.received.length, b.received.length];
    await logout(s.cookie, s.idTokens.get('rp-a') as string);
    await Promise.all([a.got(beforeA + 2), b.got(beforeB + 3)]);
    await app.backchannelLogout.idle();
    expect(await metric('delivered')).toBe(delivered + 1);
    expect(await metric('retry')).toBe(retried + 3);
    expect(await metric('failed')).toBe(failed + 1);
    expect(a.received.at(-1)?.token).toBe(a.received.at(-2)?.token); // a retry resends the same token
    // A 400 is the RP's final word: no retry.
    a.answers.push(400);
    const s2 = await sessionWith(['rp-a']);
    const before = a.received.length;
    await logout(s2.cookie, s2.idTokens.get('rp-a') as string);
    await a.got(before + 1);
    await app.backchannelLogout.idle();
    expect(a.received.length).toBe(before + 1);
    expect(await metric('failed')).toBe(failed + 2);
    const lines = logs
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(
      lines.some(
        (l) => l.msg === 'back-channel logout failed; giving up' && l.clientId === 'rp-b' && l.attempt === 3,
      ),
    ).toBe(true);
    expect(
      lines.some((l) => l.msg === 'back-channel logout failed; will retry' && l.clientId === 'rp-a'),
    ).toBe(true);
    expect(
      lines.some(
        (l) => l.msg === 'back-channel logout delivered' && l.clientId === 'rp-a' && l.attempt === 2,
      ),
    ).toBe(true);
    // No token in the logs.
    expect(logs.join('')).not.toContain(a.received.at(-1)?.token.split('.')[2]);
  });

  it('stores each notice in the outbox before the sign-out answers, and removes it once final', async () => {
    const a = stubs.get('rp-a') as RpStub;
    const b = stubs.get('rp-b') as RpStub;
    const outbox = idp.ctx.storage.adapter('LogoutDelivery');
    const s = await sessionWith(['rp-a', 'rp-b', 'rp-c']);
    const sid = claims(s.idTokens.get('rp-a') as string).sid;
    a.answers.push('hold');
    b.answers.push('hold');
    const [beforeA, beforeB] = [a.received.length, b.received.length];
    const out = await logout(s.cookie, s.idTokens.get('rp-a') as string);
    expect(out.statusCode).toBe(303);
    // Read at once: the answer came after the records were written (rp-c has no back channel).
    const pending = (await outbox.list()).map((r) => r.payload as unknown as DeliveryRecord);
    expect(
      pending
        .filter((r) => r.sid === sid)
        .map((r) => r.clientId)
        .sort(),
    ).toEqual(['rp-a', 'rp-b']);
    expect(await outbox.find(deliveryId(sid, 'rp-a'))).toMatchObject({
      attempt: 1,
      sub: claims(s.idTokens.get('rp-a') as string).sub,
    });
    // Signed and stored before it is sent: what the RP holds is the stored token.
    await Promise.all([a.got(beforeA + 1), b.got(beforeB + 1)]);
    const stored = (await outbox.find(deliveryId(sid, 'rp-a'))) as unknown as DeliveryRecord;
    expect(stored.token).toBe(a.received.at(-1)?.token);
    // Delivered (200) and final (400): both records go.
    a.release(200);
    b.release(400);
    await app.backchannelLogout.idle();
    expect(await outbox.find(deliveryId(sid, 'rp-a'))).toBeUndefined();
    expect(await outbox.find(deliveryId(sid, 'rp-b'))).toBeUndefined();
    expect(b.received.length).toBe(beforeB + 1);
  });

  it('keeps sid on refreshed ID tokens', async () => {
    const { clientSecret } = await registerClient(idp.ctx, {
      client_id: 'rp-offline',
      redirect_uris: [RP],
      require_pkce: false,
      id_token_signed_response_alg: 'ML-DSA-44',
    });
    const { location } = await browserLogin(app, {
      client_id: 'rp-offline',
      redirect_uri: RP,
      response_type: 'code',
      scope: 'openid offline_access',
    });
    const auth = basicAuth('rp-offline', clientSecret as string);
    const first = await redeemCode(app, location, RP, { headers: { authorization: auth } });
    const refreshed = await app.inject({
      method: 'POST',
      url: '/token',
      ...form(
        { grant_type: 'refresh_token', refresh_token: first.json().refresh_token },
        { authorization: auth },
      ),
    });
    expect(claims(refreshed.json().id_token).sid).toBe(claims(first.json().id_token).sid);
  });
});
