/**
 * The example resource server (examples/resource-server) against the running IdP, over real
 * HTTP: three instances stand for three APIs whose tokens the IdP signs with ML-DSA-65, an
 * ML-DSA-87 composite and ES256 (resourceServers, RFC 8707). Bearer and DPoP-bound tokens, the
 * DPoP side driven both by openid-client (WebCrypto keys: ES256, ML-DSA-65) and by @pqid/jose
 * (a composite key), and each refusal: wrong audience, bearer use of a bound token, replayed or
 * mismatched proofs, missing scope, an algorithm the server does not accept, a forged token.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPair, importJWK, type PrivateKey, signDpopProof } from '@pqid/jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResourceServer } from '../examples/resource-server/rs.js';
import { createIdp, type Idp, registerClient } from '../idp/src/app.ts';
import { loadConfig } from '../idp/src/config/index.ts';
import { freePort } from './helpers/net.ts';

type Rs = Awaited<ReturnType<typeof createResourceServer>>;
const APIS = { pq: 'ML-DSA-65', composite: 'ML-DSA-87-ES384', classic: 'ES256' } as const;
type Api = keyof typeof APIS;

describe('example resource server against the IdP', () => {
  let idp: Idp;
  let issuer: string;
  let dir: string;
  let secret: string;
  const rs = {} as Record<Api, Rs>;
  const ports = {} as Record<Api, number>;
  let esOnly: Rs;
  let config: oidc.Configuration;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pqid-rs-'));
    const port = await freePort();
    issuer = `http://localhost:${port}`;
    for (const api of Object.keys(APIS) as Api[]) ports[api] = await freePort();
    const esPort = await freePort();
    const resourceServers: Record<string, { scope: string; accessTokenSigningAlg: string }> = {};
    for (const [api, alg] of Object.entries(APIS))
      resourceServers[`http://localhost:${ports[api as Api]}/`] = {
        scope: 'orders:read',
        accessTokenSigningAlg: alg,
      };
    // A server that accepts only ES256, and is sent an ML-DSA token anyway (its IdP entry says ML-DSA-65).
    resourceServers[`http://localhost:${esPort}/`] = {
      scope: 'orders:read',
      accessTokenSigningAlg: 'ML-DSA-65',
    };
    const cfg = loadConfig({
      env: {},
      cwd: dir,
      overrides: {
        dataDir: dir,
        port,
        host: '127.0.0.1',
        issuer,
        logLevel: 'silent',
        demo: { enabled: false },
        resourceServers,
      },
    });
    idp = await createIdp(cfg, { env: { PQID_KEK: Buffer.alloc(32, 9).toString('base64') }, warn: () => {} });
    ({ clientSecret: secret } = (await registerClient(idp.ctx, {
      client_id: 'orders-client',
      redirect_uris: [],
      grant_types: ['client_credentials'],
      scope: 'orders:read other:read',
    })) as { clientSecret: string });
    await registerClient(idp.ctx, {
      client_id: 'no-scope',
      client_secret: 'no-scope-secret-0123456789',
      redirect_uris: [],
      grant_types: ['client_credentials'],
      scope: 'other:read',
    });
    await idp.app.listen({ port, host: '127.0.0.1' });
    for (const api of Object.keys(APIS) as Api[])
      rs[api] = await createResourceServer({ issuer, port: ports[api] });
    esOnly = await createResourceServer({ issuer, port: esPort, algorithms: ['ES256'] });
    config = await oidc.discovery(new URL(issuer), 'orders-client', {}, oidc.ClientSecretBasic(secret), {
      execute: [oidc.allowInsecureRequests],
    });
  });
  afterAll(async () => {
    for (const s of [...Object.values(rs), esOnly]) await s?.close();
    await idp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const header = (jwt: string) =>
    JSON.parse(Buffer.from(jwt.split('.')[0] as string, 'base64url').toString());
  const bearer = async (resource: string, clientConfig = config) =>
    (await oidc.clientCredentialsGrant(clientConfig, { resource })).access_token;
  const get = (url: string, headers: Record<string, string>) => fetch(url, { headers });

  it('publishes its protected-resource metadata (RFC 9728)', async () => {
    const meta = (await (await fetch(`${rs.pq.url}/.well-known/oauth-protected-resource`)).json()) as Record<
      string,
      unknown
    >;
    expect(meta).toMatchObject({ resource: rs.pq.resource, authorization_servers: [issuer] });
    expect(meta.dpop_signing_alg_values_supported).toContain('ML-DSA-87-Ed448');
  });

  it.each(Object.entries(APIS))('accepts %s tokens (%s) as bearer tokens', async (api, alg) => {
    const server = rs[api as Api];
    const at = await bearer(server.resource);
    expect(header(at)).toMatchObject({ alg, typ: 'at+jwt' });
    const r = await get(`${server.url}/api/orders`, { authorization: `Bearer ${at}` });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { caller: Record<string, unknown>; orders: unknown[] };
    expect(body.caller).toMatchObject({ sub: 'orders-client', alg, dpop: false, scope: 'orders:read' });
    expect(body.orders.length).toBeGreaterThan(0);
  });

  it.each([
    ['ES256', 'classic'],
    ['ML-DSA-65', 'pq'],
    ['ML-DSA-65', 'composite'],
  ] as const)(
    'openid-client with a %s DPoP key calls the %s API (fetchProtectedResource)',
    async (keyAlg, api) => {
      const server = rs[api];
      const DPoP = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair(keyAlg));
      const tokens = await oidc.clientCredentialsGrant(config, { resource: server.resource }, { DPoP });
      expect(tokens.token_type).toBe('dpop');
      const r = await oidc.fetchProtectedResource(
        config,
        tokens.access_token,
        new URL(`${server.url}/api/orders`),
        'GET',
        undefined,
        undefined,
        {
          DPoP,
        },
      );
      expect(r.status).toBe(200);
      expect(((await r.json()) as { caller: { dpop: boolean; alg: string } }).caller).toMatchObject({
        dpop: true,
        alg: APIS[api],
      });
    },
  );

  describe('refusals', () => {
    let key: PrivateKey;
    let bound: string;
    beforeAll(async () => {
      // A composite DPoP key (no WebCrypto for those): @pqid/jose builds the proofs.
      key = (await importJWK((await generateKeyPair('ML-DSA-44-Ed25519')).privateJwk)) as PrivateKey;
      const r = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`orders-client:${secret}`).toString('base64')}`,
          dpop: await signDpopProof(key, { htm: 'POST', htu: `${issuer}/token` }),
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource: rs.composite.resource }),
      });
      bound = ((await r.json()) as { access_token: string }).access_token;
    });
    const url = () => `${rs.composite.url}/api/orders`;
    const proof = (over: Partial<Parameters<typeof signDpopProof>[1]> = {}, k = key) =>
      signDpopProof(k, { htm: 'GET', htu: url(), accessToken: bound, ...over });
    const refused = async (r: Response, status: number, error: string, scheme: 'Bearer' | 'DPoP') => {
      expect(r.status).toBe(status);
      expect(((await r.json()) as { error: string }).error).toBe(error);
      expect(r.headers.get('www-authenticate')).toMatch(new RegExp(`^${scheme} .*error="${error}"`));
    };

    it('a bound token works with its proof, and only once per proof', async () => {
      const p = await proof();
      expect((await get(url(), { authorization: `DPoP ${bound}`, dpop: p })).status).toBe(200);
      await refused(
        await get(url(), { authorization: `DPoP ${bound}`, dpop: p }),
        401,
        'invalid_dpop_proof',
        'DPoP',
      );
    });

    it('refuses a bound token as bearer, without proof, and with wrong or foreign proofs', async () => {
      await refused(await get(url(), { authorization: `Bearer ${bound}` }), 401, 'invalid_token', 'DPoP');
      await refused(await get(url(), { authorization: `DPoP ${bound}` }), 401, 'invalid_dpop_proof', 'DPoP');
      const cases: Array<[string, Parameters<typeof signDpopProof>[1] | undefined]> = [
        ['htu', { htm: 'GET', htu: `${rs.composite.url}/api/whoami`, accessToken: bound }],
        ['htm', { htm: 'POST', htu: url(), accessToken: bound }],
        ['ath', { htm: 'GET', htu: url(), accessToken: 'another-token' }],
        ['old', { htm: 'GET', htu: url(), accessToken: bound, now: new Date(Date.now() - 600_000) }],
      ];
      for (const [what, o] of cases)
        await refused(
          await get(url(), { authorization: `DPoP ${bound}`, dpop: await signDpopProof(key, o as never) }),
          401,
          'invalid_dpop_proof',
          'DPoP',
        ).catch((e) => {
          throw new Error(`${what}: ${(e as Error).message}`);
        });
      const stranger = (await importJWK(
        (
          await generateKeyPair('ML-DSA-44-Ed25519')
        ).privateJwk,
      )) as PrivateKey;
      await refused(
        await get(url(), { authorization: `DPoP ${bound}`, dpop: await proof({}, stranger) }),
        401,
        'invalid_token',
        'DPoP',
      );
    });

    it('refuses another API’s token (audience), forged tokens and missing tokens', async () => {
      const forPq = await bearer(rs.pq.resource);
      await refused(await get(url(), { authorization: `Bearer ${forPq}` }), 401, 'invalid_token', 'Bearer');
      const [h, p, s] = forPq.split('.') as [string, string, string];
      const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
      const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, scope: 'orders:read admin' })).toString('base64url')}.${s}`;
      await refused(
        await get(`${rs.pq.url}/api/orders`, { authorization: `Bearer ${forged}` }),
        401,
        'invalid_token',
        'Bearer',
      );
      // An algorithm name that is not ASCII is echoed safely in the challenge.
      const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
      const odd = `${b64({ alg: 'ML-DSA-🔑', typ: 'at+jwt' })}.${b64({})}.AAAA`;
      await refused(await get(url(), { authorization: `Bearer ${odd}` }), 401, 'invalid_token', 'Bearer');
      const none = await get(url(), {});
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toMatch(/^Bearer realm=".*", DPoP algs="/);
      // An unbound token with the DPoP scheme.
      const plain = await bearer(rs.composite.resource);
      await refused(
        await get(url(), { authorization: `DPoP ${plain}`, dpop: await proof({ accessToken: plain }) }),
        401,
        'invalid_token',
        'DPoP',
      );
    });

    it('refuses an algorithm it does not accept, and a token without the route’s scope', async () => {
      const mldsa = await bearer(esOnly.resource);
      expect(header(mldsa).alg).toBe('ML-DSA-65');
      await refused(
        await get(`${esOnly.url}/api/orders`, { authorization: `Bearer ${mldsa}` }),
        401,
        'invalid_token',
        'Bearer',
      );
      const other = await oidc.discovery(
        new URL(issuer),
        'no-scope',
        {},
        oidc.ClientSecretBasic('no-scope-secret-0123456789'),
        {
          execute: [oidc.allowInsecureRequests],
        },
      );
      const noScope = await bearer(rs.pq.resource, other);
      await refused(
        await get(`${rs.pq.url}/api/orders`, { authorization: `Bearer ${noScope}` }),
        403,
        'insufficient_scope',
        'Bearer',
      );
      expect((await get(`${rs.pq.url}/api/whoami`, { authorization: `Bearer ${noScope}` })).status).toBe(200);
    });
  });
});
