/**
 * Pushed authorization requests (RFC 9126) and signed request objects (RFC 9101), fastify
 * inject: request objects signed with ML-DSA, composites and classical keys, by value and
 * pushed; one-time short-lived request_uris; per-client and global requirements; every
 * request-object check refused alone; DPoP at the PAR endpoint binding the code.
 */
import { randomUUID } from 'node:crypto';
import {
  calculateThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type Jwk,
  type PrivateKey,
  signDpopProof,
  signJwt,
} from '@pqid/jose';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerClient } from '../src/app.ts';
import { basicAuth, cookieHeader, form, pkce, startTestIdp } from './helpers.ts';

const ISSUER = 'http://localhost:3000';
const RP = 'https://rp.example/cb';
const ALGS = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87', 'ML-DSA-87-Ed448', 'ML-DSA-65-ES256', 'ES256', 'EdDSA'];

describe('PAR and JAR (inject)', () => {
  let t: Awaited<ReturnType<typeof startTestIdp>>;
  let app: FastifyInstance;
  const secrets = new Map<string, string>();
  const keys = new Map<string, PrivateKey>();
  const auth = (id: string) => basicAuth(id, secrets.get(id) as string);

  beforeAll(async () => {
    t = await startTestIdp();
    app = t.idp.app;
    const publics: Jwk[] = [];
    for (const alg of [...ALGS, 'ML-DSA-44-Ed25519']) {
      const pair = await generateKeyPair(alg);
      keys.set(alg, (await importJWK(pair.privateJwk)) as PrivateKey);
      if (alg !== 'ML-DSA-44-Ed25519') publics.push(pair.publicJwk);
    }
    const reg = async (id: string, extra: Record<string, unknown> = {}) => {
      const { clientSecret } = await registerClient(t.idp.ctx, {
        client_id: id,
        redirect_uris: [RP],
        scope: 'openid profile offline_access',
        ...extra,
      });
      if (clientSecret !== undefined) secrets.set(id, clientSecret);
    };
    await reg('rp');
    await reg('jar', { jwks: { keys: publics } });
    await reg('jar-pinned', { jwks: { keys: publics }, request_object_signing_alg: 'ML-DSA-44' });
    await reg('par-only', { require_pushed_authorization_requests: true });
    await reg('signed-only', { jwks: { keys: publics }, require_signed_request_object: true });
    await reg('public', { token_endpoint_auth_method: 'none' });
  });
  afterAll(() => t.close());
  afterEach(() => vi.useRealTimers());

  const base = (clientId: string, extra: Record<string, string> = {}) => {
    const { challenge, verifier } = pkce();
    return {
      verifier,
      params: {
        client_id: clientId,
        redirect_uri: RP,
        response_type: 'code',
        scope: 'openid profile',
        state: 'st',
        nonce: 'nn',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        ...extra,
      },
    };
  };
  const push = (clientId: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/par',
      ...form(body, { ...(secrets.has(clientId) ? { authorization: auth(clientId) } : {}), ...headers }),
    });
  const requestObject = (
    alg: string,
    claims: Record<string, unknown>,
    opts: {
      clientId?: string;
      typ?: string;
      audience?: string;
      expiresIn?: number;
      jti?: string | null;
    } = {},
  ) =>
    signJwt(
      { ...claims, ...(opts.jti === null ? {} : { jti: opts.jti ?? randomUUID() }) },
      keys.get(alg) as PrivateKey,
      {
        typ: opts.typ ?? 'oauth-authz-req+jwt',
        issuer: opts.clientId ?? 'jar',
        audience: opts.audience ?? ISSUER,
        ...(opts.expiresIn === 0 ? {} : { expiresIn: opts.expiresIn ?? 300 }),
      },
    );

  /** GET /authorize, sign in, return the callback URL (or the first non-303 response). */
  async function authorize(query: Record<string, string>) {
    const r1 = await app.inject(`/authorize?${new URLSearchParams(query)}`);
    if (r1.statusCode !== 303 || !(r1.headers.location as string).startsWith('/interaction/'))
      return { response: r1 };
    const cookie = cookieHeader(r1.cookies);
    const loginUrl = r1.headers.location as string;
    const page = await app.inject({ url: loginUrl, headers: { cookie } });
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] as string;
    const r3 = await app.inject({
      method: 'POST',
      url: `${loginUrl}/login`,
      ...form({ csrf, username: 'demo', password: 'demo' }, { cookie }),
    });
    return { response: r3, location: new URL(r3.headers.location as string) };
  }
  const redeem = (clientId: string, location: URL, verifier: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/token',
      ...form(
        {
          grant_type: 'authorization_code',
          code: location.searchParams.get('code') as string,
          redirect_uri: RP,
          code_verifier: verifier,
          ...(secrets.has(clientId) ? {} : { client_id: clientId }),
        },
        { ...(secrets.has(clientId) ? { authorization: auth(clientId) } : {}), ...headers },
      ),
    });
  it('advertises PAR and JAR with every registry algorithm', async () => {
    const doc = (await app.inject('/.well-known/openid-configuration')).json();
    expect(doc).toMatchObject({
      pushed_authorization_request_endpoint: `${ISSUER}/par`,
      require_pushed_authorization_requests: false,
      request_parameter_supported: true,
      request_uri_parameter_supported: false,
    });
    expect(doc.request_object_signing_alg_values_supported).toEqual(
      expect.arrayContaining(['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87', 'ML-DSA-87-Ed448', 'ES256']),
    );
    expect(doc.request_object_signing_alg_values_supported).not.toContain('none');
  });

  describe('PAR', () => {
    it('pushes, then authorizes with client_id and a one-time request_uri', async () => {
      const { params, verifier } = base('rp');
      const r = await push('rp', params);
      expect(r.statusCode, r.body).toBe(201);
      expect(r.headers['cache-control']).toBe('no-store');
      const { request_uri, expires_in } = r.json();
      expect(request_uri).toMatch(/^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43}$/);
      expect(expires_in).toBe(60);
      const { location } = await authorize({ client_id: 'rp', request_uri });
      expect(location?.searchParams.get('state')).toBe('st');
      const tokens = await redeem('rp', location as URL, verifier);
      expect(tokens.statusCode, tokens.body).toBe(200);
      // Used once: a second authorization with it is refused.
      const again = await app.inject(`/authorize?${new URLSearchParams({ client_id: 'rp', request_uri })}`);
      expect(again.statusCode).toBe(400);
      expect(again.body).toContain('invalid_request_uri');
    });

    it('ignores parameters outside the request_uri (only the pushed ones count)', async () => {
      const { params, verifier } = base('rp', { scope: 'openid' });
      const { request_uri } = (await push('rp', params)).json();
      const { location } = await authorize({
        client_id: 'rp',
        request_uri,
        scope: 'openid profile offline_access',
        state: 'outer',
      });
      expect(location?.searchParams.get('state')).toBe('st');
      expect((await redeem('rp', location as URL, verifier)).json().scope).toBe('openid');
    });

    it('refuses expired, foreign, non-PAR and doubled request_uris with an error page', async () => {
      const { params } = base('rp');
      const { request_uri } = (await push('rp', params)).json();
      const ask = (q: Record<string, string>) => app.inject(`/authorize?${new URLSearchParams(q)}`);
      const foreign = await ask({ client_id: 'jar', request_uri });
      expect(foreign.statusCode).toBe(400);
      expect(foreign.body).toContain('invalid_request_uri');
      expect((await ask({ request_uri })).body).toContain('invalid_request');
      expect((await ask({ client_id: 'rp', request_uri: 'https://rp.example/request.jwt' })).body).toContain(
        'invalid_request_uri',
      );
      expect((await ask({ client_id: 'rp', request_uri, request: 'x.y.z' })).body).toContain(
        'invalid_request',
      );
      vi.useFakeTimers({ now: Date.now() + 61_000, toFake: ['Date'] });
      const late = await ask({ client_id: 'rp', request_uri });
      expect(late.body).toContain('invalid_request_uri');
    });

    it('answers bad pushes with JSON errors', async () => {
      const { params } = base('rp');
      const noAuth = await app.inject({ method: 'POST', url: '/par', ...form(params) });
      expect(noAuth.statusCode).toBe(401);
      expect(noAuth.json().error).toBe('invalid_client');
      const cases: Array<[Record<string, string>, string]> = [
        [{ ...params, request_uri: 'urn:ietf:params:oauth:request_uri:abc' }, 'invalid_request'],
        [{ ...params, redirect_uri: 'https://evil.example/cb' }, 'invalid_request'],
        [{ ...params, response_type: 'token' }, 'unsupported_response_type'],
        [{ ...params, resource: 'https://unknown.example/' }, 'invalid_target'],
        [{ ...params, scope: 'profile' }, 'invalid_scope'],
      ];
      for (const [body, error] of cases) {
        const r = await push('rp', body);
        expect(r.statusCode, JSON.stringify(body)).toBe(400);
        expect(r.json().error, JSON.stringify(body)).toBe(error);
      }
      const json = await app.inject({
        method: 'POST',
        url: '/par',
        headers: { 'content-type': 'application/json', authorization: auth('rp') },
        payload: JSON.stringify(params),
      });
      expect(json.statusCode).toBe(400);
    });

    it('require_pushed_authorization_requests: the front channel is refused, PAR works', async () => {
      const { params, verifier } = base('par-only');
      const direct = await app.inject(`/authorize?${new URLSearchParams(params)}`);
      const back = new URL(direct.headers.location as string);
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.get('error_description')).toMatch(/pushed/);
      const { request_uri } = (await push('par-only', params)).json();
      const { location } = await authorize({ client_id: 'par-only', request_uri });
      expect((await redeem('par-only', location as URL, verifier)).statusCode).toBe(200);
    });

    it('par.required applies to every client and is advertised', async () => {
      const strict = await startTestIdp({ par: { required: true } });
      try {
        await registerClient(strict.idp.ctx, { client_id: 'c', redirect_uris: [RP] });
        const doc = (await strict.idp.app.inject('/.well-known/openid-configuration')).json();
        expect(doc.require_pushed_authorization_requests).toBe(true);
        const r = await strict.idp.app.inject(`/authorize?${new URLSearchParams(base('c').params)}`);
        expect(new URL(r.headers.location as string).searchParams.get('error')).toBe('invalid_request');
      } finally {
        await strict.close();
      }
    });

    it('a DPoP proof at the PAR endpoint binds the code to its key', async () => {
      const key = keys.get('ML-DSA-44-Ed25519') as PrivateKey;
      const { params, verifier } = base('public');
      const r = await push('public', params, {
        dpop: await signDpopProof(key, { htm: 'POST', htu: `${ISSUER}/par` }),
      });
      expect(r.statusCode, r.body).toBe(201);
      const { location } = await authorize({ client_id: 'public', request_uri: r.json().request_uri });
      expect((await redeem('public', location as URL, verifier)).json().error).toBe('invalid_grant');
      const { params: p2, verifier: v2 } = base('public');
      const r2 = await push('public', p2, {
        dpop: await signDpopProof(key, { htm: 'POST', htu: `${ISSUER}/par` }),
      });
      const l2 = (await authorize({ client_id: 'public', request_uri: r2.json().request_uri }))
        .location as URL;
      const ok = await redeem('public', l2, v2, {
        dpop: await signDpopProof(key, { htm: 'POST', htu: `${ISSUER}/token` }),
      });
      expect(ok.json().token_type).toBe('DPoP');
      expect(
        (
          await push(
            'public',
            {
              ...base('public').params,
              dpop_jkt: calculateThumbprint(exportJWK((keys.get('ES256') as PrivateKey).publicKey)),
            },
            {
              dpop: await signDpopProof(key, { htm: 'POST', htu: `${ISSUER}/par` }),
            },
          )
        ).json().error,
      ).toBe('invalid_request');
    });
  });

  describe('JAR', () => {
    it.each(ALGS)('accepts a request object signed with %s, by value and pushed', async (alg) => {
      const { params, verifier } = base('jar');
      const { client_id: _c, ...claims } = params;
      const jwt = await requestObject(alg, { ...claims, client_id: 'jar' });
      // Only the object's parameters count: the outer scope and state are ignored.
      const byValue = await authorize({
        client_id: 'jar',
        request: jwt,
        scope: 'openid offline_access',
        state: 'x',
      });
      expect(byValue.location?.searchParams.get('state'), byValue.response.body).toBe('st');
      expect((await redeem('jar', byValue.location as URL, verifier)).json().scope).toBe('openid profile');

      const { params: p2, verifier: v2 } = base('jar');
      const pushed = await push('jar', { client_id: 'jar', request: await requestObject(alg, p2) });
      expect(pushed.statusCode, pushed.body).toBe(201);
      const viaPar = await authorize({ client_id: 'jar', request_uri: pushed.json().request_uri });
      expect((await redeem('jar', viaPar.location as URL, v2)).statusCode).toBe(200);
    });

    it('refuses a request object that fails any one check', async () => {
      const { params } = base('jar');
      const good = (over: Record<string, unknown> = {}, opts: Parameters<typeof requestObject>[2] = {}) =>
        requestObject('ML-DSA-65', { ...params, ...over }, opts);
      const now = Math.floor(Date.now() / 1000);
      const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(
        JSON.stringify({ ...params, iss: 'jar', aud: ISSUER, exp: now + 60 }),
      ).toString('base64url')}.`;
      const stranger = (await importJWK((await generateKeyPair('ML-DSA-65')).privateJwk)) as PrivateKey;
      const foreignSig = await signJwt({ ...params }, stranger, {
        issuer: 'jar',
        audience: ISSUER,
        expiresIn: 60,
      });
      const cases: Array<[string, string]> = [
        ['unsigned (alg none)', unsigned],
        ['signed by an unregistered key', foreignSig],
        ['unregistered algorithm key', await requestObject('ML-DSA-44-Ed25519', params)],
        ['wrong audience', await good({}, { audience: 'https://other.example' })],
        ['wrong issuer', await good({}, { clientId: 'rp' })],
        ['no exp', await good({}, { expiresIn: 0 })],
        ['exp too far', await good({}, { expiresIn: 7200 })],
        ['expired', await good({ exp: now - 120 }, { expiresIn: 0 })],
        ['inner client_id differs', await good({ client_id: 'rp' })],
        ['nested request_uri', await good({ request_uri: 'urn:ietf:params:oauth:request_uri:x' })],
        ['wrong typ', await good({}, { typ: 'dpop+jwt' })],
        ['encrypted (JWE)', 'a.b.c.d.e'],
        ['not a JWT', 'garbage'],
      ];
      for (const [what, request] of cases) {
        const r = await app.inject(`/authorize?${new URLSearchParams({ client_id: 'jar', request })}`);
        expect(r.statusCode, what).toBe(400);
        expect(r.body, what).toContain('invalid_request_object');
        const p = await push('jar', { client_id: 'jar', request });
        expect(p.statusCode, what).toBe(400);
        expect(p.json().error, what).toBe('invalid_request_object');
      }
      // A tampered payload under a valid signature.
      const jwt = await good();
      const [h, , s] = jwt.split('.');
      const tampered = `${h}.${Buffer.from(JSON.stringify({ ...params, iss: 'jar', aud: ISSUER, exp: now + 60, scope: 'openid offline_access' })).toString('base64url')}.${s}`;
      expect(
        (await app.inject(`/authorize?${new URLSearchParams({ client_id: 'jar', request: tampered })}`)).body,
      ).toContain('invalid_request_object');
    });

    it('uses a jti once', async () => {
      const jwt = await requestObject('ES256', base('jar').params, { jti: 'only-once' });
      expect((await push('jar', { client_id: 'jar', request: jwt })).statusCode).toBe(201);
      const again = await push('jar', { client_id: 'jar', request: jwt });
      expect(again.json()).toMatchObject({ error: 'invalid_request_object' });
      expect(again.json().error_description).toMatch(/already used/);
    });

    it('by default accepts a request object without a jti as often as it is sent (RFC 9101)', async () => {
      const jwt = await requestObject('ES256', base('jar').params, { jti: null });
      for (let i = 0; i < 2; i++)
        expect((await push('jar', { client_id: 'jar', request: jwt })).statusCode).toBe(201);
    });

    it('with requestObjects.requireJti refuses one without a jti, and takes one with a jti once', async () => {
      const strict = await startTestIdp({ requestObjects: { requireJti: true } });
      try {
        const pair = await generateKeyPair('ES256');
        const { clientSecret } = await registerClient(strict.idp.ctx, {
          client_id: 'jar',
          redirect_uris: [RP],
          jwks: { keys: [pair.publicJwk] },
        });
        const pushTo = async (claims: Record<string, unknown>) =>
          strict.idp.app.inject({
            method: 'POST',
            url: '/par',
            ...form(
              {
                client_id: 'jar',
                request: await signJwt(claims, pair.privateJwk, {
                  typ: 'oauth-authz-req+jwt',
                  issuer: 'jar',
                  audience: ISSUER,
                  expiresIn: 300,
                }),
              },
              { authorization: basicAuth('jar', clientSecret as string) },
            ),
          });
        const without = await pushTo(base('jar').params);
        expect(without.statusCode).toBe(400);
        expect(without.json()).toMatchObject({ error: 'invalid_request_object' });
        expect(without.json().error_description).toMatch(/must carry a jti/);
        const once = { ...base('jar').params, jti: randomUUID() };
        expect((await pushTo(once)).statusCode).toBe(201);
        expect((await pushTo(once)).json().error_description).toMatch(/already used/);
      } finally {
        await strict.close();
      }
    });

    it('request_object_signing_alg pins the algorithm', async () => {
      const { params } = base('jar-pinned');
      const ok = await push('jar-pinned', {
        client_id: 'jar-pinned',
        request: await requestObject('ML-DSA-44', params, { clientId: 'jar-pinned' }),
      });
      expect(ok.statusCode).toBe(201);
      const other = await push('jar-pinned', {
        client_id: 'jar-pinned',
        request: await requestObject('ML-DSA-65', params, { clientId: 'jar-pinned' }),
      });
      expect(other.json().error).toBe('invalid_request_object');
    });

    it('require_signed_request_object: plain requests refused, signed ones accepted', async () => {
      const { params } = base('signed-only');
      const plain = await app.inject(`/authorize?${new URLSearchParams(params)}`);
      expect(new URL(plain.headers.location as string).searchParams.get('error')).toBe('invalid_request');
      expect((await push('signed-only', params)).json().error).toBe('invalid_request');
      const signed = await push('signed-only', {
        client_id: 'signed-only',
        request: await requestObject('ML-DSA-87', params, { clientId: 'signed-only' }),
      });
      expect(signed.statusCode).toBe(201);
    });

    it('a client without registered keys cannot send request objects', async () => {
      const r = await push('rp', {
        client_id: 'rp',
        request: await requestObject('ES256', base('rp').params, { clientId: 'rp' }),
      });
      expect(r.json().error).toBe('invalid_request_object');
      expect(r.json().error_description).toMatch(/no registered keys/);
    });
  });

  it('client registration validates the JAR and PAR metadata', async () => {
    await expect(
      registerClient(t.idp.ctx, { redirect_uris: [RP], request_object_signing_alg: 'ML-DSA-65' }),
    ).rejects.toThrow(/jwks/);
    await expect(
      registerClient(t.idp.ctx, { redirect_uris: [RP], require_signed_request_object: true }),
    ).rejects.toThrow(/jwks/);
    await expect(
      registerClient(t.idp.ctx, {
        redirect_uris: [RP],
        jwks: { keys: [exportJWK((keys.get('ES256') as PrivateKey).publicKey)] },
        request_object_signing_alg: 'none',
      }),
    ).rejects.toThrow(/request_object_signing_alg/);
    await expect(
      registerClient(t.idp.ctx, {
        redirect_uris: [RP],
        require_pushed_authorization_requests: 'yes' as never,
      }),
    ).rejects.toThrow(/true or false/);
  });
});
