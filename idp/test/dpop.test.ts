/**
 * DPoP (RFC 9449) at the token, userinfo and introspection endpoints (fastify inject): binding of
 * access and refresh tokens to proofs of every registry algorithm, each refusal, the shared jti
 * replay cache, server nonces, dpop_jkt, dpop_bound_access_tokens, and no work without a header.
 */
import {
  accessTokenHash,
  algorithms,
  calculateThumbprint,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  type PrivateKey,
  signCompact,
  signDpopProof,
} from '@pqid/jose';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdp, registerClient } from '../src/app.ts';
import { ACCESS_TOKEN_STORAGES } from '../src/config/index.ts';
import { dpopAlgorithms } from '../src/oidc/shared/dpop.ts';
import { basicAuth, browserLogin, form, KEK, pkce, startTestIdp, tempDir, testConfig } from './helpers.ts';

const ISSUER = 'http://localhost:3000';
const DPOP_ALGS = dpopAlgorithms();
const TOKEN = `${ISSUER}/token`;
const USERINFO = `${ISSUER}/userinfo`;
const RP = 'https://rp.example/cb';

const keyCache = new Map<string, PrivateKey>();
async function dpopKey(alg: string, fresh = false): Promise<PrivateKey> {
  const cached = keyCache.get(alg);
  if (cached && !fresh) return cached;
  const key = (await importJWK((await generateKeyPair(alg)).privateJwk)) as PrivateKey;
  if (!fresh) keyCache.set(alg, key);
  return key;
}
const jktOf = (key: PrivateKey) => calculateThumbprint(exportJWK(key.publicKey));
const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1] as string, 'base64url').toString());

// Both access-token storage modes: every JWT access token here is stored, or verified (stateless).
describe.each(ACCESS_TOKEN_STORAGES)('DPoP (inject), %s JWT access tokens', (accessTokenStorage) => {
  let t: Awaited<ReturnType<typeof startTestIdp>>;
  let app: FastifyInstance;
  const secrets = new Map<string, string>();
  const auth = (id: string) => basicAuth(id, secrets.get(id) as string);

  beforeAll(async () => {
    t = await startTestIdp({ accessTokenStorage });
    app = t.idp.app;
    const reg = async (id: string, extra: Record<string, unknown>) => {
      const { clientSecret } = await registerClient(t.idp.ctx, {
        client_id: id,
        redirect_uris: [RP],
        ...extra,
      });
      if (clientSecret) secrets.set(id, clientSecret);
    };
    await reg('svc', {
      grant_types: ['client_credentials'],
      access_token_format: 'jwt',
      id_token_signed_response_alg: 'ML-DSA-44',
    });
    await reg('svc-ref', { grant_types: ['client_credentials'] });
    await reg('bound-only', { grant_types: ['client_credentials'], dpop_bound_access_tokens: true });
    await reg('spa', { token_endpoint_auth_method: 'none', id_token_signed_response_alg: 'ES256' });
    await reg('web', { id_token_signed_response_alg: 'ES256' });
  });
  afterAll(() => t.close());

  const token = (body: Record<string, string>, headers: Record<string, string | string[]>) =>
    app.inject({
      method: 'POST',
      url: '/token',
      ...form(body),
      headers: { ...form(body).headers, ...headers },
    });
  const proofFor = (key: PrivateKey, extra: Partial<Parameters<typeof signDpopProof>[1]> = {}) =>
    signDpopProof(key, { htm: 'POST', htu: TOKEN, ...extra });
  const clientCredentials = async (key: PrivateKey, id = 'svc') =>
    token({ grant_type: 'client_credentials' }, { authorization: auth(id), dpop: await proofFor(key) });
  const userinfo = (accessToken: string, headers: Record<string, string>) =>
    app.inject({
      method: 'GET',
      url: '/userinfo',
      headers: { authorization: `DPoP ${accessToken}`, ...headers },
    });
  const introspect = (tok: string) =>
    app.inject({
      method: 'POST',
      url: '/introspect',
      ...form({ token: tok }, { authorization: auth('svc') }),
    });

  it('advertises every registry algorithm for proofs but SLH-DSA', async () => {
    const doc = (await app.inject('/.well-known/openid-configuration')).json();
    expect(doc.dpop_signing_alg_values_supported).toEqual(DPOP_ALGS);
    expect(doc.dpop_signing_alg_values_supported).toEqual(
      expect.arrayContaining(['ES256', 'EdDSA', 'ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87', 'ML-DSA-87-Ed448']),
    );
    const slh = algorithms().filter((a) => a.startsWith('SLH-DSA'));
    for (const alg of slh) expect(DPOP_ALGS).not.toContain(alg);
    // And a proof naming one is refused before any signature work, as an algorithm not allowed.
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    for (const alg of slh) {
      const proof = `${b64({ alg, typ: 'dpop+jwt', jwk: { kty: 'AKP', alg, pub: 'AAAA' } })}.${b64({})}.AAAA`;
      const r = await token(
        { grant_type: 'client_credentials' },
        { authorization: auth('svc'), dpop: proof },
      );
      expect(r.json().error).toBe('invalid_dpop_proof');
      expect(r.json().error_description).toMatch(/not allowed/);
    }
  });

  it.each(DPOP_ALGS)(
    'binds access tokens to a %s proof: cnf.jkt in the JWT and at introspection',
    async (alg) => {
      const key = await dpopKey(alg);
      const r = await clientCredentials(key);
      expect(r.statusCode, r.body).toBe(200);
      const body = r.json();
      expect(body.token_type).toBe('DPoP');
      expect(decodeProtectedHeader(body.access_token).typ).toBe('at+jwt');
      expect(claimsOf(body.access_token).cnf).toEqual({ jkt: jktOf(key) });
      const info = (await introspect(body.access_token)).json();
      expect(info).toMatchObject({ active: true, token_type: 'DPoP', cnf: { jkt: jktOf(key) } });
    },
  );

  it('binds reference tokens too, and leaves tokens without a proof as Bearer', async () => {
    const key = await dpopKey('ML-DSA-65');
    const bound = await clientCredentials(key, 'svc-ref');
    expect(bound.json().token_type).toBe('DPoP');
    expect(bound.json().access_token.split('.')).toHaveLength(1);
    expect((await introspect(bound.json().access_token)).json().cnf).toEqual({ jkt: jktOf(key) });
    const plain = await token({ grant_type: 'client_credentials' }, { authorization: auth('svc') });
    expect(plain.json().token_type).toBe('Bearer');
    expect(claimsOf(plain.json().access_token).cnf).toBeUndefined();
    const info = (await introspect(plain.json().access_token)).json();
    expect(info.token_type).toBe('Bearer');
    expect(info.cnf).toBeUndefined();
  });

  it('refuses bad proofs at the token endpoint with invalid_dpop_proof', async () => {
    const key = await dpopKey('ES256');
    const mldsa = await dpopKey('ML-DSA-44');
    const { alg: _alg, kid: _kid, ...akpWithoutAlg } = mldsa.publicKey.jwk;
    const cases: Array<[string, string | string[]]> = [
      ['wrong htm', await proofFor(key, { htm: 'GET' })],
      ['wrong htu', await proofFor(key, { htu: `${ISSUER}/userinfo` })],
      ['another host', await proofFor(key, { htu: 'https://evil.example/token' })],
      ['too old', await proofFor(key, { now: new Date(Date.now() - 400_000) })],
      ['future', await proofFor(key, { now: new Date(Date.now() + 400_000) })],
      ['not a JWT', 'not-a-proof'],
      ['wrong typ', await proofFor(key, { header: { typ: 'JWT' } })],
      ['two headers', [await proofFor(key), await proofFor(key)]],
      // Once a 500: its thumbprint needs the alg RFC 9964 requires of AKP keys.
      ['AKP jwk without alg', await proofFor(mldsa, { header: { jwk: akpWithoutAlg } })],
    ];
    for (const [what, dpop] of cases) {
      const r = await token({ grant_type: 'client_credentials' }, { authorization: auth('svc'), dpop });
      expect(r.statusCode, what).toBe(400);
      expect(r.json().error, what).toBe('invalid_dpop_proof');
    }
    // A proof whose jwk is not the signing key.
    const other = await dpopKey('ES256', true);
    const { kid: _k, ...jwk } = key.publicKey.jwk;
    const forged = await signCompact(
      JSON.stringify({ jti: 'j', htm: 'POST', htu: TOKEN, iat: Math.floor(Date.now() / 1000) }),
      other,
      { header: { typ: 'dpop+jwt', jwk }, omitKid: true },
    );
    const r = await token({ grant_type: 'client_credentials' }, { authorization: auth('svc'), dpop: forged });
    expect(r.json()).toMatchObject({ error: 'invalid_dpop_proof' });
    expect(r.json().error_description).toMatch(/signature/);
  });

  it('accepts a proof once: the jti replay cache', async () => {
    const key = await dpopKey('ML-DSA-44');
    const dpop = await proofFor(key);
    const first = await token({ grant_type: 'client_credentials' }, { authorization: auth('svc'), dpop });
    expect(first.statusCode).toBe(200);
    const again = await token({ grant_type: 'client_credentials' }, { authorization: auth('svc'), dpop });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: 'invalid_dpop_proof' });
    expect(again.json().error_description).toMatch(/already used/);
  });

  it('does no DPoP work (no replay-cache write) for requests without a DPoP header', async () => {
    const seen = t.idp.ctx.storage.adapter('DPoPProof');
    const before = (await seen.list()).length;
    for (let i = 0; i < 3; i++)
      await token({ grant_type: 'client_credentials' }, { authorization: auth('svc') });
    expect((await seen.list()).length).toBe(before);
    await clientCredentials(await dpopKey('ES256'));
    expect((await seen.list()).length).toBe(before + 1);
  });

  it('requires a proof from a client registered with dpop_bound_access_tokens', async () => {
    const r = await token({ grant_type: 'client_credentials' }, { authorization: auth('bound-only') });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ error: 'invalid_request' });
    expect(r.json().error_description).toMatch(/DPoP/);
    const ok = await clientCredentials(await dpopKey('ML-DSA-65'), 'bound-only');
    expect(ok.json().token_type).toBe('DPoP');
  });

  describe('userinfo', () => {
    async function boundTokens(clientId: 'spa' | 'web', key: PrivateKey) {
      const { verifier, challenge } = pkce();
      const { location } = await browserLogin(app, {
        client_id: clientId,
        redirect_uri: RP,
        response_type: 'code',
        scope: 'openid profile offline_access',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      const body: Record<string, string> = {
        grant_type: 'authorization_code',
        code: location.searchParams.get('code') as string,
        redirect_uri: RP,
        code_verifier: verifier,
        client_id: clientId,
      };
      const headers: Record<string, string> = { dpop: await proofFor(key) };
      if (clientId === 'web') headers.authorization = auth('web');
      const r = await token(body, headers);
      expect(r.statusCode, r.body).toBe(200);
      return r.json() as { access_token: string; refresh_token: string; token_type: string };
    }

    it('serves a DPoP-bound token presented with the DPoP scheme and a proof with ath', async () => {
      const key = await dpopKey('ML-DSA-65');
      const { access_token } = await boundTokens('spa', key);
      const proof = await signDpopProof(key, { htm: 'GET', htu: USERINFO, accessToken: access_token });
      const r = await userinfo(access_token, { dpop: proof });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json().preferred_username).toBe('demo');
    });

    it('refuses every misuse with a DPoP challenge', async () => {
      const key = await dpopKey('ML-DSA-44-Ed25519');
      const { access_token: at } = await boundTokens('spa', key);
      const good = (extra: Partial<Parameters<typeof signDpopProof>[1]> = {}, k = key) =>
        signDpopProof(k, { htm: 'GET', htu: USERINFO, accessToken: at, ...extra });
      const expectChallenge = (r: Awaited<ReturnType<typeof userinfo>>, error: string, what: string) => {
        expect(r.statusCode, what).toBe(401);
        expect(r.json().error, what).toBe(error);
        expect(r.headers['www-authenticate'], what).toMatch(new RegExp(`^DPoP .*error="${error}"`));
      };
      // As a bearer token: refused, and told to use DPoP.
      const asBearer = await app.inject({ url: '/userinfo', headers: { authorization: `Bearer ${at}` } });
      expectChallenge(asBearer, 'invalid_token', 'bearer');
      expect(
        (await app.inject({ method: 'POST', url: '/userinfo', ...form({ access_token: at }) })).statusCode,
      ).toBe(401);
      expectChallenge(await userinfo(at, {}), 'invalid_dpop_proof', 'no proof');
      expectChallenge(
        await userinfo(at, { dpop: await good({ accessToken: 'other' }) }),
        'invalid_dpop_proof',
        'ath',
      );
      expectChallenge(
        await userinfo(at, { dpop: await good({ accessToken: undefined as never }) }),
        'invalid_dpop_proof',
        'no ath',
      );
      expectChallenge(await userinfo(at, { dpop: await good({ htu: TOKEN }) }), 'invalid_dpop_proof', 'htu');
      expectChallenge(await userinfo(at, { dpop: await good({ htm: 'POST' }) }), 'invalid_dpop_proof', 'htm');
      const stranger = await dpopKey('ML-DSA-44-Ed25519', true);
      expectChallenge(await userinfo(at, { dpop: await good({}, stranger) }), 'invalid_token', 'other key');
      // A proof whose algorithm is not ASCII: the challenge header must still be valid.
      const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
      const unicode = `${b64({ alg: 'ML-DSA-🔑', typ: 'dpop+jwt' })}.${b64({})}.AAAA`;
      expectChallenge(await userinfo(at, { dpop: unicode }), 'invalid_dpop_proof', 'unicode alg');
      expect((await userinfo(at, { dpop: await good() })).statusCode).toBe(200);
      // An unbound token with the DPoP scheme is refused too (RFC 9449 §7.1).
      const plain = await boundTokens('web', key);
      const unbound = await token(
        { grant_type: 'refresh_token', refresh_token: plain.refresh_token },
        { authorization: auth('web') },
      );
      expect(unbound.json().token_type).toBe('Bearer');
      const uat = unbound.json().access_token as string;
      const r = await userinfo(uat, {
        dpop: await signDpopProof(key, { htm: 'GET', htu: USERINFO, accessToken: uat }),
      });
      expectChallenge(r, 'invalid_token', 'unbound with DPoP');
      expect(
        (await app.inject({ url: '/userinfo', headers: { authorization: `Bearer ${uat}` } })).statusCode,
      ).toBe(200);
    });

    it("binds a public client's refresh token; a confidential client's stays unbound", async () => {
      const key = await dpopKey('EdDSA');
      const spa = await boundTokens('spa', key);
      expect(spa.token_type).toBe('DPoP');
      const refresh = (headers: Record<string, string>) =>
        token({ grant_type: 'refresh_token', refresh_token: spa.refresh_token, client_id: 'spa' }, headers);
      // Without the key the refresh token is refused, and not spent: the owner can still use it.
      expect((await refresh({})).json()).toMatchObject({ error: 'invalid_grant' });
      const thief = await dpopKey('EdDSA', true);
      expect((await refresh({ dpop: await proofFor(thief) })).json()).toMatchObject({
        error: 'invalid_grant',
      });
      const ok = await refresh({ dpop: await proofFor(key) });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().token_type).toBe('DPoP');
      const rotated = ok.json().refresh_token as string;
      const info = await app.inject({
        method: 'POST',
        url: '/introspect',
        ...form({ token: rotated, client_id: 'web' }, { authorization: auth('web') }),
      });
      expect(info.json().active).toBe(false); // refresh tokens are shown to their own client only
      const again = await token(
        { grant_type: 'refresh_token', refresh_token: rotated, client_id: 'spa' },
        { dpop: await proofFor(thief) },
      );
      expect(again.json()).toMatchObject({ error: 'invalid_grant' });

      const web = await boundTokens('web', key);
      expect(web.token_type).toBe('DPoP');
      const plain = await token(
        { grant_type: 'refresh_token', refresh_token: web.refresh_token },
        { authorization: auth('web') },
      );
      expect(plain.statusCode).toBe(200);
      expect(plain.json().token_type).toBe('Bearer');
    });

    it('dpop_jkt binds the authorization code to a key (RFC 9449 §10)', async () => {
      const key = await dpopKey('ML-DSA-87');
      const login = async (extra: Record<string, string>) => {
        const { verifier, challenge } = pkce();
        const { location } = await browserLogin(app, {
          client_id: 'spa',
          redirect_uri: RP,
          response_type: 'code',
          scope: 'openid',
          code_challenge: challenge,
          code_challenge_method: 'S256',
          state: 'st',
          ...extra,
        });
        return { location, verifier };
      };
      const redeem = async (l: { location: URL; verifier: string }, headers: Record<string, string>) =>
        token(
          {
            grant_type: 'authorization_code',
            code: l.location.searchParams.get('code') as string,
            redirect_uri: RP,
            code_verifier: l.verifier,
            client_id: 'spa',
          },
          headers,
        );
      // One code: the attempts without the key do not spend it, so its owner still can.
      const bound = await login({ dpop_jkt: jktOf(key) });
      expect((await redeem(bound, {})).json().error).toBe('invalid_grant');
      const other = await dpopKey('ML-DSA-87', true);
      const stolen = await redeem(bound, { dpop: await proofFor(other) });
      expect(stolen.json()).toMatchObject({
        error: 'invalid_grant',
        error_description: expect.stringContaining('dpop_jkt'),
      });
      const ok = await redeem(bound, { dpop: await proofFor(key) });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().token_type).toBe('DPoP');
      const bad = await app.inject(
        `/authorize?${new URLSearchParams({ client_id: 'spa', redirect_uri: RP, response_type: 'code', scope: 'openid', dpop_jkt: 'short', code_challenge: pkce().challenge, code_challenge_method: 'S256' })}`,
      );
      expect(new URL(bad.headers.location as string).searchParams.get('error')).toBe('invalid_request');
    });
  });

  it('limits the proof size, naming the setting', async () => {
    const small = await startTestIdp({ dpop: { maxProofBytes: 6000 } });
    try {
      const { clientSecret } = await registerClient(small.idp.ctx, {
        client_id: 'svc',
        redirect_uris: [],
        grant_types: ['client_credentials'],
      });
      const send = async (alg: string) =>
        small.idp.app.inject({
          method: 'POST',
          url: '/token',
          ...form(
            { grant_type: 'client_credentials' },
            {
              authorization: basicAuth('svc', clientSecret as string),
              dpop: await proofFor(await dpopKey(alg)),
            },
          ),
        });
      expect((await send('ML-DSA-44')).statusCode).toBe(200); // ~5.9 KB
      const r = await send('ML-DSA-65'); // ~8.2 KB
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe('invalid_dpop_proof');
      expect(r.json().error_description).toMatch(/6000.*dpop\.maxProofBytes/);
    } finally {
      await small.close();
    }
  });

  describe('server nonces', () => {
    it('asks for a nonce, accepts it on every instance sharing the KEK, refuses forged ones', async () => {
      const a = await startTestIdp({ dpop: { requireNonce: true } });
      const { dir, cleanup } = tempDir();
      // A second instance on the same database and KEK, and a stranger with another KEK.
      const b = await createIdp(
        testConfig(dir, { databaseUrl: a.idp.ctx.config.databaseUrl, dpop: { requireNonce: true } }),
        {
          env: { PQID_KEK: KEK },
          warn: () => {},
        },
      );
      const stranger = await startTestIdp(
        { dpop: { requireNonce: true } },
        {
          PQID_KEK: Buffer.alloc(32, 7).toString('base64'),
        },
      );
      try {
        const { clientSecret } = await registerClient(a.idp.ctx, {
          client_id: 'svc',
          redirect_uris: [],
          grant_types: ['client_credentials'],
          access_token_format: 'jwt',
        });
        await registerClient(stranger.idp.ctx, {
          client_id: 'svc',
          client_secret: clientSecret as string,
          redirect_uris: [],
          grant_types: ['client_credentials'],
        });
        const key = await dpopKey('ML-DSA-65');
        const send = async (target: FastifyInstance, nonce?: string) =>
          target.inject({
            method: 'POST',
            url: '/token',
            ...form(
              { grant_type: 'client_credentials' },
              {
                authorization: basicAuth('svc', clientSecret as string),
                dpop: await proofFor(key, nonce === undefined ? {} : { nonce }),
              },
            ),
          });
        const first = await send(a.idp.app);
        expect(first.statusCode).toBe(400);
        expect(first.json().error).toBe('use_dpop_nonce');
        const nonce = first.headers['dpop-nonce'] as string;
        expect(nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
        const ok = await send(a.idp.app, nonce);
        expect(ok.statusCode, ok.body).toBe(200);
        expect(ok.headers['dpop-nonce']).toBe(nonce);
        expect((await send(b.app, nonce)).statusCode).toBe(200);
        const forged = await send(stranger.idp.app, nonce);
        expect(forged.json().error).toBe('use_dpop_nonce');
        expect((await send(a.idp.app, 'A'.repeat(22))).json().error).toBe('use_dpop_nonce');

        // At userinfo the nonce error is a 401 challenge.
        const at = ok.json().access_token as string;
        const ui = await a.idp.app.inject({
          url: '/userinfo',
          headers: {
            authorization: `DPoP ${at}`,
            dpop: await signDpopProof(key, { htm: 'GET', htu: USERINFO, accessToken: at }),
          },
        });
        expect(ui.statusCode).toBe(401);
        expect(ui.headers['www-authenticate']).toMatch(/^DPoP .*error="use_dpop_nonce"/);
        expect(ui.headers['dpop-nonce']).toBe(nonce);
      } finally {
        await b.close();
        cleanup();
        await stranger.close();
        await a.close();
      }
    });
  });

  it('shares the replay cache between instances on one database', async () => {
    const { dir, cleanup } = tempDir();
    const other = await createIdp(testConfig(dir, { databaseUrl: t.idp.ctx.config.databaseUrl }), {
      env: { PQID_KEK: KEK },
      warn: () => {},
    });
    try {
      const dpop = await proofFor(await dpopKey('ES256'));
      const body = { grant_type: 'client_credentials' };
      const headers = { authorization: auth('svc'), dpop };
      expect((await token(body, headers)).statusCode).toBe(200);
      const replay = await other.app.inject({ method: 'POST', url: '/token', ...form(body, headers) });
      expect(replay.json()).toMatchObject({ error: 'invalid_dpop_proof' });
    } finally {
      await other.close();
      cleanup();
    }
  });

  it('ath is the SHA-256 of the token (sanity check against the helper)', () => {
    expect(accessTokenHash('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
  });
});
