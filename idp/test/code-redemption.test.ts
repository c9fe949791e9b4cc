/**
 * An authorization code is spent only by a redemption that would succeed: the client it was
 * issued to, the redirect_uri of the request, the PKCE verifier (and the DPoP key of dpop_jkt,
 * in dpop.test.ts). Someone who saw only the code — a referrer, a log, the browser history —
 * cannot burn it for the client. A code that was spent stays spent: its replay is refused and
 * revokes what it issued (RFC 6749 §4.1.2). Across instances: test/multi-instance.test.ts.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../src/app.ts';
import { basicAuth, browserLogin, form, pkce, startTestIdp } from './helpers.ts';

const RP = 'https://rp.example/cb';

describe('redeeming an authorization code', () => {
  let t: Awaited<ReturnType<typeof startTestIdp>>;
  let app: FastifyInstance;
  let otherSecret = '';

  beforeAll(async () => {
    t = await startTestIdp();
    app = t.idp.app;
    await registerClient(t.idp.ctx, {
      client_id: 'spa',
      token_endpoint_auth_method: 'none',
      redirect_uris: [RP, 'https://rp.example/other'],
    });
    otherSecret = (await registerClient(t.idp.ctx, { client_id: 'other', redirect_uris: [RP] }))
      .clientSecret as string;
  });
  afterAll(() => t.close());

  async function codeFor(clientId = 'spa') {
    const { verifier, challenge } = pkce();
    const { location } = await browserLogin(app, {
      client_id: clientId,
      redirect_uri: RP,
      response_type: 'code',
      scope: 'openid offline_access',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    return { code: location.searchParams.get('code') as string, verifier };
  }
  const redeem = (data: Record<string, string>, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/token',
      ...form({ grant_type: 'authorization_code', redirect_uri: RP, ...data }, headers),
    });

  it('is not spent by attempts that fail; the real redemption then succeeds', async () => {
    const { code, verifier } = await codeFor();
    const attempts: Array<[string, Record<string, string>, Record<string, string>?]> = [
      [
        'another redirect_uri',
        { client_id: 'spa', code, code_verifier: verifier, redirect_uri: 'https://rp.example/other' },
      ],
      ['a wrong verifier', { client_id: 'spa', code, code_verifier: pkce().verifier }],
      ['no verifier', { client_id: 'spa', code }],
      ['a malformed verifier', { client_id: 'spa', code, code_verifier: 'short' }],
      [
        'another client',
        { code, code_verifier: verifier },
        { authorization: basicAuth('other', otherSecret) },
      ],
    ];
    for (const [why, data, headers] of attempts) {
      const r = await redeem(data, headers);
      expect(r.statusCode, why).toBe(400);
      expect(r.json().error, why).toBe('invalid_grant');
      expect(r.json().error_description, why).not.toMatch(/already been used/);
    }
    const ok = await redeem({ client_id: 'spa', code, code_verifier: verifier });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().refresh_token).toBeTruthy();
  });

  it('is spent once; a replay, by anyone, is refused and revokes the grant', async () => {
    const { code, verifier } = await codeFor();
    const first = await redeem({ client_id: 'spa', code, code_verifier: verifier });
    expect(first.statusCode, first.body).toBe(200);
    // Even a replay that would fail for other reasons counts: the code leaked.
    const replay = await redeem({ client_id: 'spa', code, code_verifier: pkce().verifier });
    expect(replay.json()).toMatchObject({ error: 'invalid_grant' });
    expect(replay.json().error_description).toMatch(/already been used/);
    const refresh = await app.inject({
      method: 'POST',
      url: '/token',
      ...form({ grant_type: 'refresh_token', refresh_token: first.json().refresh_token, client_id: 'spa' }),
    });
    expect(refresh.json().error).toBe('invalid_grant');
    const info = await app.inject({
      url: '/userinfo',
      headers: { authorization: `Bearer ${first.json().access_token}` },
    });
    expect(info.statusCode).toBe(401);
  });

  it('is spent exactly once when right and wrong redemptions race', async () => {
    for (let round = 0; round < 5; round++) {
      const { code, verifier } = await codeFor();
      const wrong = Array.from({ length: 4 }, () =>
        redeem({ client_id: 'spa', code, code_verifier: pkce().verifier }),
      );
      const right = [0, 1].map(() => redeem({ client_id: 'spa', code, code_verifier: verifier }));
      const results = await Promise.all([...wrong, ...right]);
      // The wrong ones never win; of the two right ones exactly one does, the other is a replay.
      expect(results.slice(0, 4).every((r) => r.statusCode === 400)).toBe(true);
      expect(
        results
          .slice(4)
          .map((r) => r.statusCode)
          .sort(),
      ).toEqual([200, 400]);
    }
  });
});
