/** private_key_jwt client authentication with ML-DSA, composite and classical client keys. */
import { createServer, type Server } from 'node:http';
import { generateKeyPair, type Jwk, signJwt } from '@pqid/jose';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClient } from '../src/app.ts';
import { JWT_BEARER } from '../src/oidc/shared/client-auth.ts';
import { form, startTestIdp } from './helpers.ts';

const ISSUER = 'http://localhost:3000';
const TOKEN = `${ISSUER}/token`;

describe('private_key_jwt', () => {
  let t: Awaited<ReturnType<typeof startTestIdp>>;
  let app: FastifyInstance;
  let server: Server;
  const keys = new Map<string, { privateJwk: Jwk; publicJwk: Jwk }>();

  beforeAll(async () => {
    t = await startTestIdp();
    app = t.idp.app;
    for (const alg of ['ML-DSA-65', 'ML-DSA-44-Ed25519', 'ES256', 'ML-DSA-87'])
      keys.set(alg, await generateKeyPair(alg));
    const pub = (alg: string) => keys.get(alg)?.publicJwk as Jwk;
    // The composite client publishes its keys at a URL, as a real RP would.
    server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [pub('ML-DSA-44-Ed25519')] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const base = {
      redirect_uris: ['https://rp.example/cb'],
      token_endpoint_auth_method: 'private_key_jwt' as const,
      grant_types: ['client_credentials' as const],
    };
    await registerClient(t.idp.ctx, {
      ...base,
      client_id: 'pq',
      // The ES256 key is registered too, but only ML-DSA-65 assertions are accepted.
      jwks: { keys: [pub('ML-DSA-65'), pub('ES256')] },
      token_endpoint_auth_signing_alg: 'ML-DSA-65',
    });
    await registerClient(t.idp.ctx, {
      ...base,
      client_id: 'composite',
      jwks_uri: `http://127.0.0.1:${port}/jwks`,
      token_endpoint_auth_signing_alg: 'ML-DSA-44-Ed25519',
    });
    await registerClient(t.idp.ctx, {
      ...base,
      client_id: 'classic',
      jwks: { keys: [pub('ES256')] },
      token_endpoint_auth_signing_alg: 'ES256',
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => server.close(r));
  });

  let n = 0;
  const assertion = (
    alg: string,
    clientId: string,
    opts: { aud?: string; iss?: string; expiresIn?: number; jti?: string } = {},
  ) =>
    signJwt({}, keys.get(alg)?.privateJwk as Jwk, {
      issuer: opts.iss ?? clientId,
      subject: clientId,
      audience: opts.aud ?? TOKEN,
      expiresIn: opts.expiresIn ?? 60,
      jti: opts.jti ?? `jti-${++n}`,
    });

  const token = (clientAssertion: string, extra: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/token',
      ...form({
        grant_type: 'client_credentials',
        scope: 'profile',
        client_assertion_type: JWT_BEARER,
        client_assertion: clientAssertion,
        ...extra,
      }),
    });

  it.each([
    ['ML-DSA-65', 'pq'],
    ['ML-DSA-44-Ed25519', 'composite'],
    ['ES256', 'classic'],
  ])('authenticates a %s-signed assertion (client %s)', async (alg, clientId) => {
    const r = await token(await assertion(alg, clientId));
    expect(r.statusCode).toBe(200);
    expect(r.json().access_token).toBeTypeOf('string');
    // The issuer as audience is accepted too (RFC 7523 §3).
    expect((await token(await assertion(alg, clientId, { aud: ISSUER }))).statusCode).toBe(200);
  });

  it('rejects a replayed jti', async () => {
    const a = await assertion('ML-DSA-65', 'pq', { jti: 'once' });
    expect((await token(a)).statusCode).toBe(200);
    const again = await token(a);
    expect(again.statusCode).toBe(401);
    expect(again.json().error).toBe('invalid_client');
  });

  it.each([
    ['an unregistered alg (ES256 key on an ML-DSA-65 client)', () => assertion('ES256', 'pq')],
    ['a key the client never registered', () => assertion('ML-DSA-87', 'pq')],
    ['a foreign audience', () => assertion('ML-DSA-65', 'pq', { aud: 'https://elsewhere.example/token' })],
    ['iss ≠ sub', () => assertion('ML-DSA-65', 'pq', { iss: 'classic' })],
    ['an expired assertion', () => assertion('ML-DSA-65', 'pq', { expiresIn: -120 })],
    ['an assertion valid for hours', () => assertion('ML-DSA-65', 'pq', { expiresIn: 7200 })],
    ['garbage', async () => 'a.b.c'],
  ])('rejects %s with 401 invalid_client', async (_name, make) => {
    const r = await token(await make());
    expect(r.statusCode).toBe(401);
    expect(r.json().error).toBe('invalid_client');
  });

  it('rejects mixed methods, wrong assertion types and secrets for private_key_jwt clients', async () => {
    const a = await assertion('ML-DSA-65', 'pq');
    expect((await token(a, { client_secret: 'x', client_id: 'pq' })).json().error).toBe('invalid_request');
    expect((await token(a, { client_assertion_type: 'urn:other' })).json().error).toBe('invalid_request');
    const secret = await app.inject({
      method: 'POST',
      url: '/token',
      ...form({ grant_type: 'client_credentials', client_id: 'pq', client_secret: 'x' }),
    });
    expect(secret.statusCode).toBe(401);
  });

  it('works at introspection with the introspection endpoint as audience', async () => {
    const at = (await token(await assertion('ML-DSA-65', 'pq'))).json().access_token as string;
    const r = await app.inject({
      method: 'POST',
      url: '/introspect',
      ...form({
        token: at,
        client_assertion_type: JWT_BEARER,
        client_assertion: await assertion('ML-DSA-65', 'pq', { aud: `${ISSUER}/introspect` }),
      }),
    });
    expect(r.json()).toMatchObject({ active: true, client_id: 'pq' });
  });

  it('validates registrations', async () => {
    const base = {
      redirect_uris: ['https://rp.example/cb'],
      token_endpoint_auth_method: 'private_key_jwt' as const,
    };
    await expect(registerClient(t.idp.ctx, base)).rejects.toThrow(/jwks/);
    await expect(
      registerClient(t.idp.ctx, { ...base, jwks: { keys: [keys.get('ES256')?.publicJwk as Jwk] } }),
    ).rejects.toThrow(/token_endpoint_auth_signing_alg/);
    await expect(
      registerClient(t.idp.ctx, {
        ...base,
        jwks: { keys: [keys.get('ES256')?.privateJwk as Jwk] },
        token_endpoint_auth_signing_alg: 'ES256',
      }),
    ).rejects.toThrow(/public keys only/);
  });
});
