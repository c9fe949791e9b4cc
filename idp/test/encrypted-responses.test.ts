/**
 * What the IdP encrypts to clients (ID tokens, userinfo, RFC 9701 introspection answers) and
 * what it decrypts from them (request objects, by value and pushed), over fastify inject. The
 * classical cases are decrypted and built by `jose` (an independent implementation); the HPKE
 * ones by @pqid/jose with the client's own keys, and the signature inside is always verified
 * against the published JWKS.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createLocalJWKSet,
  type DecryptionKey,
  decryptAndVerifyJwt,
  decryptCompact,
  encryptCompact,
  encryptionKeysFor,
  encryptJwt,
  generateEncryptionKeyPair,
  generateKeyPair,
  importEncryptionKey,
  importJWK,
  type Jwk,
  type PrivateKey,
  signJwt,
} from '@pqid/jose';
import type { FastifyInstance } from 'fastify';
import * as jose from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerClient } from '../src/app.ts';
import { ClientError } from '../src/clients/clients.ts';
import { metricsFor } from '../src/metrics.ts';
import { basicAuth, browserLogin, dynamicRegistration, form, pkce, startTestIdp } from './helpers.ts';

const ISSUER = 'http://localhost:3000';
const RP = 'https://rp.example/cb';
const IAT = 'initial-access-token-0123456789';

describe('encryption to and from clients', () => {
  let t: Awaited<ReturnType<typeof startTestIdp>>;
  let app: FastifyInstance;
  const secrets = new Map<string, string>();
  const dec = new Map<string, DecryptionKey>();
  const encPrivate = new Map<string, Jwk>();
  const encPublic: Jwk[] = [];
  let signer: PrivateKey;
  let signerPublic: Jwk;
  let jwksServer: Server;
  let jwksStatus = 200;
  let jwksUrl: string;

  beforeAll(async () => {
    t = await startTestIdp({ registration: { mode: 'token', initialAccessToken: IAT } });
    app = t.idp.app;
    for (const alg of ['HPKE-9', 'HPKE-9-KE', 'ECDH-ES+A256KW']) {
      const pair = await generateEncryptionKeyPair(alg);
      encPrivate.set(alg, pair.privateJwk as Jwk);
      encPublic.push(pair.publicJwk as Jwk);
      dec.set(alg, (await importEncryptionKey(pair.privateJwk)) as DecryptionKey);
    }
    const sig = await generateKeyPair('ES256');
    signer = (await importJWK(sig.privateJwk)) as PrivateKey;
    signerPublic = sig.publicJwk;
    // The client's jwks_uri, on loopback (operator clients may use http there).
    jwksServer = createServer((_req, res) => {
      res.writeHead(jwksStatus, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: encPublic }));
    });
    await new Promise<void>((r) => jwksServer.listen(0, '127.0.0.1', r));
    jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks`;
    const reg = async (id: string, extra: Record<string, unknown>) => {
      const { clientSecret } = await registerClient(t.idp.ctx, {
        client_id: id,
        redirect_uris: [RP],
        scope: 'openid profile email offline_access',
        ...extra,
      });
      secrets.set(id, clientSecret as string);
    };
    const keys = { keys: [...encPublic, signerPublic] };
    await reg('xwing', {
      jwks: keys,
      id_token_signed_response_alg: 'ML-DSA-65',
      id_token_encrypted_response_alg: 'HPKE-9',
      userinfo_encrypted_response_alg: 'HPKE-9',
      introspection_encrypted_response_alg: 'HPKE-9-KE',
      introspection_encrypted_response_enc: 'A256GCM',
    });
    await reg('classic', {
      jwks: keys,
      id_token_signed_response_alg: 'ES256',
      id_token_encrypted_response_alg: 'ECDH-ES+A256KW',
      id_token_encrypted_response_enc: 'A256GCM',
      userinfo_signed_response_alg: 'ES256',
      userinfo_encrypted_response_alg: 'ECDH-ES+A256KW',
    });
    await reg('remote', {
      jwks_uri: jwksUrl,
      id_token_signed_response_alg: 'ML-DSA-44',
      id_token_encrypted_response_alg: 'HPKE-9',
    });
    await reg('plain', { jwks: keys });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => jwksServer.close(r));
  });

  const auth = (id: string) => ({ authorization: basicAuth(id, secrets.get(id) as string) });
  const idpKeys = () => createLocalJWKSet(t.idp.ctx.keys.jwks());

  async function tokens(clientId: string, scope = 'openid profile email') {
    const { challenge, verifier } = pkce();
    const { location } = await browserLogin(app, {
      client_id: clientId,
      redirect_uri: RP,
      response_type: 'code',
      scope,
      state: 's',
      nonce: 'n',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const code = location.searchParams.get('code') as string;
    const redeem = () =>
      app.inject({
        method: 'POST',
        url: '/token',
        ...form(
          { grant_type: 'authorization_code', code, redirect_uri: RP, code_verifier: verifier },
          auth(clientId),
        ),
      });
    return { redeem };
  }

  it('encrypts an ML-DSA-65-signed ID token to the client’s X-Wing key (HPKE-9, no enc)', async () => {
    const res = await (await tokens('xwing')).redeem();
    expect(res.statusCode).toBe(200);
    const idToken = res.json().id_token as string;
    expect(idToken.split('.')).toHaveLength(5);
    const header = JSON.parse(Buffer.from(idToken.split('.')[0] as string, 'base64url').toString());
    expect(header).toMatchObject({ alg: 'HPKE-9', cty: 'JWT', kid: dec.get('HPKE-9')?.kid });
    expect(header.enc).toBeUndefined();
    const { claims, protectedHeader } = await decryptAndVerifyJwt(
      idToken,
      [dec.get('HPKE-9') as DecryptionKey],
      await idpKeys(),
      {
        decrypt: { keyManagementAlgorithms: ['HPKE-9'] },
        verify: { algorithms: ['ML-DSA-65'], issuer: ISSUER, audience: 'xwing' },
      },
    );
    expect(protectedHeader.alg).toBe('ML-DSA-65');
    expect(claims).toMatchObject({ nonce: 'n', aud: 'xwing', iss: ISSUER });
    // Userinfo, encrypted but not signed: the JSON claims in a JWE (OIDC Core §5.3.2).
    const ui = await app.inject({
      url: '/userinfo',
      headers: { authorization: `Bearer ${res.json().access_token}` },
    });
    expect(ui.headers['content-type']).toMatch(/^application\/jwt/);
    const { plaintext } = await decryptCompact(ui.body, dec.get('HPKE-9') as DecryptionKey, {
      keyManagementAlgorithms: ['HPKE-9'],
    });
    expect(JSON.parse(Buffer.from(plaintext).toString())).toMatchObject({ sub: claims.sub });
  });

  it('never answers userinfo in the clear when the client that asked for encryption cannot be read', async () => {
    const res = await (await tokens('xwing')).redeem();
    const bearer = { authorization: `Bearer ${res.json().access_token}` };
    // The client is removed between the token check and the answer (another instance, the CLI).
    const find = vi.spyOn(t.idp.ctx.clients, 'find').mockResolvedValueOnce(undefined);
    try {
      const ui = await app.inject({ url: '/userinfo', headers: bearer });
      expect(ui.statusCode).toBe(401);
      expect(ui.json()).toMatchObject({ error: 'invalid_token' });
      expect(ui.body).not.toContain('"sub"');
    } finally {
      find.mockRestore();
    }
    const again = await app.inject({ url: '/userinfo', headers: bearer });
    expect(again.headers['content-type']).toMatch(/^application\/jwt/);
  });

  it('encrypts the ID token of a refresh too', async () => {
    const first = await (await tokens('xwing', 'openid offline_access')).redeem();
    const refresh = first.json().refresh_token as string;
    expect(refresh).toBeTruthy();
    const res = await app.inject({
      method: 'POST',
      url: '/token',
      ...form({ grant_type: 'refresh_token', refresh_token: refresh }, auth('xwing')),
    });
    expect(res.statusCode, res.body).toBe(200);
    const { claims } = await decryptAndVerifyJwt(
      res.json().id_token,
      [dec.get('HPKE-9') as DecryptionKey],
      await idpKeys(),
      {
        decrypt: { keyManagementAlgorithms: ['HPKE-9'] },
        verify: { algorithms: ['ML-DSA-65'], issuer: ISSUER, audience: 'xwing' },
      },
    );
    expect(claims.aud).toBe('xwing');
  });

  it('encrypts with ECDH-ES+A256KW, and `jose` decrypts it and verifies the ES256 token inside', async () => {
    const res = await (await tokens('classic')).redeem();
    expect(res.statusCode).toBe(200);
    const priv = await jose.importJWK(encPrivate.get('ECDH-ES+A256KW') as jose.JWK, 'ECDH-ES+A256KW');
    const opened = await jose.compactDecrypt(res.json().id_token, priv, {
      keyManagementAlgorithms: ['ECDH-ES+A256KW'],
      contentEncryptionAlgorithms: ['A256GCM'],
    });
    expect(opened.protectedHeader).toMatchObject({ alg: 'ECDH-ES+A256KW', enc: 'A256GCM', cty: 'JWT' });
    const idpJwks = jose.createLocalJWKSet({
      keys: t.idp.ctx.keys.jwks().keys.filter((k) => k.alg === 'ES256') as jose.JWK[],
    });
    const { payload } = await jose.jwtVerify(new TextDecoder().decode(opened.plaintext), idpJwks, {
      issuer: ISSUER,
      audience: 'classic',
      algorithms: ['ES256'],
    });
    expect(payload.nonce).toBe('n');
    // Userinfo signed, then encrypted (a Nested JWT); the enc defaulted to A128CBC-HS256.
    const ui = await app.inject({
      url: '/userinfo',
      headers: { authorization: `Bearer ${res.json().access_token}` },
    });
    const inner = await jose.compactDecrypt(ui.body, priv, { keyManagementAlgorithms: ['ECDH-ES+A256KW'] });
    expect(inner.protectedHeader).toMatchObject({ enc: 'A128CBC-HS256', cty: 'JWT' });
    const verified = await jose.jwtVerify(new TextDecoder().decode(inner.plaintext), idpJwks, {
      issuer: ISSUER,
      audience: 'classic',
    });
    expect(verified.payload.sub).toBe(payload.sub);
  });

  it('counts the bytes sent: the JWE of an encrypted token, labelled with its encryption', async () => {
    /** pqid_token_bytes' count and sum for one label set. */
    const observed = async (labels: Record<string, string>) => {
      const metric = await metricsFor(t.idp.ctx).tokenBytes.get();
      const of = (name: string) =>
        metric.values.find(
          (v) =>
            v.metricName === name &&
            Object.entries(labels).every(([k, x]) => (v.labels as Record<string, unknown>)[k] === x),
        )?.value ?? 0;
      return { count: of('pqid_token_bytes_count'), sum: of('pqid_token_bytes_sum') };
    };
    const xwing = { alg: 'ML-DSA-65', kind: 'id_token', encryption: 'HPKE-9' };
    const signedOnly = { alg: 'ML-DSA-65', kind: 'id_token', encryption: 'none' };
    const unsignedUserinfo = { alg: 'none', kind: 'userinfo', encryption: 'HPKE-9' };
    const before = {
      xwing: await observed(xwing),
      signed: await observed(signedOnly),
      ui: await observed(unsignedUserinfo),
    };
    const res = await (await tokens('xwing')).redeem();
    const idToken = res.json().id_token as string;
    const ui = await app.inject({
      url: '/userinfo',
      headers: { authorization: `Bearer ${res.json().access_token}` },
    });
    // Exactly the JWE sent, once; the signed token inside is not counted as sent on its own.
    expect(await observed(xwing)).toEqual({
      count: before.xwing.count + 1,
      sum: before.xwing.sum + Buffer.byteLength(idToken),
    });
    expect(await observed(signedOnly)).toEqual(before.signed);
    expect(await observed(unsignedUserinfo)).toEqual({
      count: before.ui.count + 1,
      sum: before.ui.sum + Buffer.byteLength(ui.body),
    });
    // A client that did not ask for encryption: its signed token, as sent, under encryption="none".
    const plain = await (await tokens('plain')).redeem();
    expect(await observed(signedOnly)).toEqual({
      count: before.signed.count + 1,
      sum: before.signed.sum + Buffer.byteLength(plain.json().id_token as string),
    });
    const text = await metricsFor(t.idp.ctx).registry.metrics();
    expect(text).toMatch(
      /pqid_token_bytes_bucket\{le="8190",alg="ML-DSA-65",kind="id_token",encryption="HPKE-9"\}/,
    );
  });

  it('answers introspection as a signed, then encrypted JWT (RFC 9701), and as a signed JWT on request', async () => {
    const res = await (await tokens('plain')).redeem();
    const token = res.json().access_token as string;
    const ask = (clientId: string, accept?: string) =>
      app.inject({
        method: 'POST',
        url: '/introspect',
        ...form({ token }, { ...auth(clientId), ...(accept ? { accept } : {}) }),
      });
    expect((await ask('plain')).json()).toMatchObject({ active: true, client_id: 'plain' });
    const signed = await ask('plain', 'application/token-introspection+jwt');
    expect(signed.headers['content-type']).toMatch(/^application\/token-introspection\+jwt/);
    const { claims, protectedHeader } = await (await import('@pqid/jose')).verifyJwt(
      signed.body,
      await idpKeys(),
      {
        algorithms: ['ML-DSA-65'],
        issuer: ISSUER,
        audience: 'plain',
        typ: 'token-introspection+jwt',
      },
    );
    expect(protectedHeader.typ).toBe('token-introspection+jwt');
    expect(claims.token_introspection).toMatchObject({ active: true });
    // Encryption registered: always the encrypted JWT, even when JSON was asked for.
    const enc = await ask('xwing', 'application/json');
    expect(enc.headers['content-type']).toMatch(/^application\/token-introspection\+jwt/);
    const out = await decryptAndVerifyJwt(
      enc.body,
      [dec.get('HPKE-9-KE') as DecryptionKey],
      await idpKeys(),
      {
        decrypt: { keyManagementAlgorithms: ['HPKE-9-KE'], contentEncryptionAlgorithms: ['A256GCM'] },
        verify: {
          algorithms: ['ML-DSA-65'],
          issuer: ISSUER,
          audience: 'xwing',
          typ: 'token-introspection+jwt',
        },
      },
    );
    expect(out.jweHeader).toMatchObject({ alg: 'HPKE-9-KE', enc: 'A256GCM' });
    // xwing may not see another client's token? It is operator-registered: it may (resource server).
    expect(out.claims.token_introspection).toMatchObject({ active: true, client_id: 'plain' });
  });

  it('fetches a jwks_uri through the outbound guard; an unreachable one is a clear error that spends no code', async () => {
    jwksStatus = 500;
    const flow = await tokens('remote');
    const failed = await flow.redeem();
    expect(failed.statusCode).toBe(400);
    expect(failed.json()).toMatchObject({ error: 'invalid_client_metadata' });
    expect(failed.json().error_description).toMatch(/jwks_uri answered HTTP 500/);
    jwksStatus = 200;
    const ok = await flow.redeem();
    expect(ok.statusCode).toBe(200);
    const { claims } = await decryptAndVerifyJwt(
      ok.json().id_token,
      [dec.get('HPKE-9') as DecryptionKey],
      await idpKeys(),
      {
        decrypt: { keyManagementAlgorithms: ['HPKE-9'] },
        verify: { algorithms: ['ML-DSA-44'], issuer: ISSUER, audience: 'remote' },
      },
    );
    expect(claims.aud).toBe('remote');
  });

  it('refuses encryption metadata that cannot work, saying why', async () => {
    const bad = async (extra: Record<string, unknown>) =>
      registerClient(t.idp.ctx, { redirect_uris: [RP], ...extra }).then(
        () => 'accepted',
        (e: Error) => (e instanceof ClientError ? e.message : `other: ${e.message}`),
      );
    const jwks = { keys: encPublic };
    expect(
      await bad({
        jwks,
        id_token_encrypted_response_alg: 'HPKE-9',
        id_token_encrypted_response_enc: 'A256GCM',
      }),
    ).toMatch(/Integrated Encryption, which has no enc/);
    expect(await bad({ jwks, id_token_encrypted_response_enc: 'A256GCM' })).toMatch(
      /needs id_token_encrypted_response_alg/,
    );
    expect(await bad({ id_token_encrypted_response_alg: 'HPKE-9' })).toMatch(/jwks or jwks_uri/);
    expect(await bad({ jwks, userinfo_encrypted_response_alg: 'HPKE-12' })).toMatch(/no public key for it/);
    expect(await bad({ jwks, introspection_encrypted_response_alg: 'ML-DSA-65' })).toMatch(
      /not a JWE algorithm/,
    );
    expect(
      await bad({
        jwks,
        id_token_encrypted_response_alg: 'HPKE-9-KE',
        id_token_encrypted_response_enc: 'A999GCM',
      }),
    ).toMatch(/must be one of/);
    expect(await bad({ request_object_encryption_alg: 'HPKE-12' })).toMatch(
      /encryption keys for HPKE-9, ECDH-ES\+A256KW/,
    );
    // Defaults: A128CBC-HS256 for a non-integrated alg, nothing for an integrated one.
    const { client } = await registerClient(t.idp.ctx, {
      redirect_uris: [RP],
      jwks,
      id_token_encrypted_response_alg: 'ECDH-ES+A256KW',
      userinfo_encrypted_response_alg: 'HPKE-9',
    });
    expect(client.id_token_encrypted_response_enc).toBe('A128CBC-HS256');
    expect(client.userinfo_encrypted_response_enc).toBeUndefined();
  });

  it('takes the same metadata through dynamic registration (RFC 7591), and refuses it the same way', async () => {
    const dcr = dynamicRegistration(app, IAT);
    const ok = await dcr.register({
      redirect_uris: [RP],
      jwks: { keys: encPublic },
      id_token_encrypted_response_alg: 'HPKE-9',
      userinfo_encrypted_response_alg: 'HPKE-9-KE',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({
      id_token_encrypted_response_alg: 'HPKE-9',
      userinfo_encrypted_response_alg: 'HPKE-9-KE',
      userinfo_encrypted_response_enc: 'A128CBC-HS256',
    });
    expect(ok.json().id_token_encrypted_response_enc).toBeUndefined();
    const bad = await dcr.register({
      redirect_uris: [RP],
      jwks: { keys: encPublic },
      id_token_encrypted_response_alg: 'HPKE-9',
      id_token_encrypted_response_enc: 'A128GCM',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'invalid_client_metadata' });
    expect(bad.json().error_description).toMatch(/Integrated Encryption/);
  });

  it('advertises what it encrypts and decrypts in discovery', async () => {
    const doc = (await app.inject('/.well-known/openid-configuration')).json();
    expect(doc.id_token_encryption_alg_values_supported).toEqual(
      expect.arrayContaining(['HPKE-9', 'HPKE-9-KE', 'ECDH-ES+A256KW']),
    );
    expect(doc.id_token_encryption_enc_values_supported).toEqual(
      expect.arrayContaining(['A128CBC-HS256', 'A256GCM']),
    );
    expect(doc.request_object_encryption_alg_values_supported).toEqual(['HPKE-9', 'ECDH-ES+A256KW']);
    expect(doc.introspection_encryption_alg_values_supported).toContain('HPKE-9');
    expect(doc.userinfo_encryption_alg_values_supported).toContain('HPKE-13');
  });

  describe('encrypted request objects', () => {
    const requestObject = (claims: Record<string, unknown> = {}) =>
      signJwt(
        {
          response_type: 'code',
          redirect_uri: RP,
          scope: 'openid',
          state: 'ro',
          nonce: 'ro',
          ...pkceClaims(),
          ...claims,
        },
        signer,
        { typ: 'oauth-authz-req+jwt', issuer: 'plain', audience: ISSUER, expiresIn: 300 },
      );
    const pkceClaims = () => ({ code_challenge: pkce().challenge, code_challenge_method: 'S256' });
    const published = async (alg: string) => {
      const [key] = await encryptionKeysFor(t.idp.ctx.keys.jwks(), alg);
      if (!key) throw new Error(`no published ${alg} key`);
      return key;
    };
    const push = (request: string) =>
      app.inject({ method: 'POST', url: '/par', ...form({ request }, auth('plain')) });

    it('decrypts an X-Wing request object pushed to PAR, then verifies its signature', async () => {
      const key = await published('HPKE-9');
      const jwe = await encryptJwt(await requestObject(), key);
      const res = await push(jwe);
      expect(res.statusCode).toBe(201);
      expect(res.json().request_uri).toMatch(/^urn:ietf:params:oauth:request_uri:/);
    });

    it('decrypts a request object by value that `jose` encrypted (ECDH-ES+A256KW)', async () => {
      const pub = t.idp.ctx.keys.jwks().keys.find((k) => k.alg === 'ECDH-ES+A256KW') as jose.JWK;
      const jwe = await new jose.CompactEncrypt(new TextEncoder().encode(await requestObject()))
        .setProtectedHeader({ alg: 'ECDH-ES+A256KW', enc: 'A256GCM', cty: 'JWT', kid: pub.kid as string })
        .encrypt(await jose.importJWK(pub, 'ECDH-ES+A256KW'));
      const r = await app.inject(`/authorize?${new URLSearchParams({ client_id: 'plain', request: jwe })}`);
      expect(r.statusCode).toBe(303);
      expect(r.headers.location).toMatch(/^\/interaction\//);
    });

    it('gives one answer for every decryption failure, and refuses an unsigned or unknown-alg one', async () => {
      const key = await published('HPKE-9');
      const jwe = await encryptJwt(await requestObject(), key);
      const parts = jwe.split('.');
      const flip = (i: number) => {
        const p = [...parts];
        const b = Buffer.from(p[i] as string, 'base64url');
        b[b.length >> 1] = (b[b.length >> 1] as number) ^ 1;
        p[i] = b.toString('base64url');
        return p.join('.');
      };
      const foreign = await generateEncryptionKeyPair('HPKE-9');
      const toOther = await encryptJwt(await requestObject(), await importEncryptionKey(foreign.publicJwk));
      const answers = new Set<string>();
      for (const bad of [flip(1), flip(3), flip(0), toOther]) {
        const res = await push(bad);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toBe('invalid_request_object');
        answers.add(res.json().error_description);
      }
      expect([...answers]).toEqual(['the request object could not be decrypted']);
      // A JWE around something that is not a signed JWT.
      const unsigned = await encryptCompact(JSON.stringify({ scope: 'openid' }), key);
      expect((await push(unsigned)).json().error_description).toMatch(/must contain a signed JWT/);
      const hpke12 = await generateEncryptionKeyPair('HPKE-12');
      const wrongAlg = await encryptJwt(await requestObject(), await importEncryptionKey(hpke12.publicJwk));
      expect((await push(wrongAlg)).json().error_description).toMatch(/no key for; use one of HPKE-9/);
      // A known alg with an enc no registry has: the answer names the enc, not the alg.
      const ecdh = (
        await encryptJwt(await requestObject(), await published('ECDH-ES+A256KW'), { enc: 'A256GCM' })
      ).split('.');
      const header = { ...JSON.parse(Buffer.from(ecdh[0] as string, 'base64url').toString()), enc: 'A1GCM' };
      const wrongEnc = [Buffer.from(JSON.stringify(header)).toString('base64url'), ...ecdh.slice(1)].join(
        '.',
      );
      expect((await push(wrongEnc)).json().error_description).toMatch(/enc A1GCM\b.*use one of A128GCM/);
      // A bad signature inside a good JWE: refused as today.
      const other = (await importJWK((await generateKeyPair('ES256')).privateJwk)) as PrivateKey;
      const forged = await signJwt({ scope: 'openid' }, other, {
        issuer: 'plain',
        audience: ISSUER,
        expiresIn: 300,
      });
      expect((await push(await encryptJwt(forged, key))).json().error_description).toMatch(/not valid/);
    });

    it('a key retired by rotation still decrypts until it leaves /jwks; then it is refused like any other', async () => {
      const old = await published('HPKE-9');
      const jwe = await encryptJwt(await requestObject(), old);
      await t.idp.ctx.keys.rotate('HPKE-9', { set: 'enc', immediate: true });
      expect(t.idp.ctx.keys.list('enc').find((k) => k.kid === old.kid)?.status).toBe('retired');
      expect((await push(jwe)).statusCode).toBe(201);
      await t.idp.ctx.keys.remove(old.kid as string, { set: 'enc' });
      const again = await encryptJwt(await requestObject(), old);
      const res = await push(again);
      expect(res.json()).toMatchObject({
        error: 'invalid_request_object',
        error_description: 'the request object could not be decrypted',
      });
    });
  });
});

describe('pqid clients add --*-encryption', () => {
  it('sets each pair from ALG or ALG,ENC, and refuses anything else', async () => {
    const { clientFromFlags } = await import('../src/cli/client-flags.ts');
    const { input } = clientFromFlags({
      'redirect-uri': [RP],
      'id-token-encryption': 'HPKE-9',
      'userinfo-encryption': 'ECDH-ES+A256KW,A256GCM',
      'introspection-encryption': 'HPKE-9-KE, A128GCM',
      'request-object-encryption': 'HPKE-9',
    } as Parameters<typeof clientFromFlags>[0]);
    expect(input).toMatchObject({
      id_token_encrypted_response_alg: 'HPKE-9',
      userinfo_encrypted_response_alg: 'ECDH-ES+A256KW',
      userinfo_encrypted_response_enc: 'A256GCM',
      introspection_encrypted_response_alg: 'HPKE-9-KE',
      introspection_encrypted_response_enc: 'A128GCM',
      request_object_encryption_alg: 'HPKE-9',
    });
    expect(input.id_token_encrypted_response_enc).toBeUndefined();
    expect(() =>
      clientFromFlags({ 'redirect-uri': [RP], 'id-token-encryption': 'a,b,c' } as Parameters<
        typeof clientFromFlags
      >[0]),
    ).toThrow(/expected ALG or ALG,ENC/);
  });
});
