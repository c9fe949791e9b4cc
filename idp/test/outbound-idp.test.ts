/**
 * The provider's own requests for clients — their `jwks_uri` (private_key_jwt, and the keys ID
 * tokens are encrypted to) and their `backchannel_logout_uri` — under the outbound policy: a
 * dynamically registered client cannot make the provider reach loopback, private or link-local
 * addresses, neither by registering such a URL nor by a name that resolves there later; the
 * operator's `outbound.allow` is the exception. The relying party is a real server on 127.0.0.1. Every provider here connects
 * through a gate that lets only loopback addresses through and records what it was asked
 * for, and resolves names with a fixed table (no real DNS).
 */
import { createServer, type Server } from 'node:http';
import { generateKeyPair, type Jwk, signJwt } from '@pqid/jose';
import { buildConnector } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdp, type Idp } from '../src/app.ts';
import type { Dial, ResolvedAddress } from '../src/clients/outbound.ts';
import { JWT_BEARER } from '../src/oidc/shared/client-auth.ts';
import {
  basicAuth,
  browserLogin,
  dynamicRegistration,
  form,
  KEK,
  pkce,
  redeemCode,
  tempDir,
  testConfig,
} from './helpers.ts';

const ISSUER = 'http://localhost:3000';
const IAT = 'initial-access-token-0123456789';
const RP = 'https://rp.example/cb';
const BYE = 'https://rp.example/bye';

const realConnector = buildConnector({ timeout: 2000 });
const dialed: string[] = [];
const gate: Dial = (target, cb) => {
  dialed.push(target.hostname);
  if (target.hostname !== '127.0.0.1') {
    cb(new Error(`test gate: ${target.hostname} not sent`), null);
    return;
  }
  realConnector(target, cb);
};
const table: Record<string, string[]> = {
  'keys.rp.test': ['10.1.2.3'],
  'logout.rp.test': ['169.254.169.254'],
};
const resolve = async (host: string): Promise<ResolvedAddress[]> => {
  const list = table[host];
  if (!list) throw new Error(`stub resolver: ${host} unknown`);
  return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

describe('requests the provider makes for clients', () => {
  const dir = tempDir();
  let rp: Server;
  let rpBase = '';
  const rpRequests: string[] = [];
  let clientKey: { privateJwk: Jwk; publicJwk: Jwk };
  const logs: string[] = [];

  const start = (allow?: string[]) =>
    createIdp(
      testConfig(dir.dir, {
        logLevel: 'info',
        registration: { mode: 'token', initialAccessToken: IAT },
        backchannelLogout: { attempts: 2, retryDelay: 0.02, timeout: 2 },
        ...(allow ? { outbound: { allow } } : {}),
      }),
      {
        env: { PQID_KEK: KEK },
        warn: () => {},
        logStream: { write: (m) => void logs.push(m) },
        outbound: { resolve, dial: gate },
      },
    );
  const register = (idp: Idp, body: Record<string, unknown>) =>
    dynamicRegistration(idp.app, IAT).register(body);
  /** Sign in at `clientId` in a new browser session, then end that session at /end_session. */
  async function signInAndOut(idp: Idp, clientId: string, clientSecret: string) {
    const { verifier, challenge } = pkce();
    const login = await browserLogin(idp.app, {
      client_id: clientId,
      redirect_uri: RP,
      response_type: 'code',
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const tokens = await redeemCode(idp.app, login.location, RP, {
      verifier,
      headers: { authorization: basicAuth(clientId, clientSecret) },
    });
    expect(tokens.statusCode, tokens.body).toBe(200);
    const out = await idp.app.inject({
      url: `/end_session?${new URLSearchParams({ id_token_hint: tokens.json().id_token, post_logout_redirect_uri: BYE })}`,
      headers: { cookie: login.sessionCookie as string },
    });
    expect(out.statusCode).toBe(303);
    await idp.app.backchannelLogout.idle();
  }
  let n = 0;
  const assertionToken = async (idp: Idp, clientId: string) =>
    idp.app.inject({
      method: 'POST',
      url: '/token',
      ...form({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_assertion_type: JWT_BEARER,
        client_assertion: await signJwt({}, clientKey.privateJwk, {
          issuer: clientId,
          subject: clientId,
          audience: `${ISSUER}/token`,
          expiresIn: 60,
          jti: `outbound-${++n}`,
        }),
      }),
    });

  beforeAll(async () => {
    clientKey = await generateKeyPair('ML-DSA-44');
    rp = createServer((req, res) => {
      rpRequests.push(`${req.method} ${req.url}`);
      req.resume();
      res.setHeader('connection', 'close');
      if (req.url === '/jwks') res.end(JSON.stringify({ keys: [clientKey.publicJwk] }));
      else res.writeHead(200).end();
    });
    await new Promise<void>((r) => rp.listen(0, '127.0.0.1', r));
    rpBase = `http://127.0.0.1:${(rp.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    rp.closeAllConnections();
    await new Promise((r) => rp.close(r));
    dir.cleanup();
  });

  describe('registration', () => {
    let idp: Idp;
    beforeAll(async () => {
      idp = await start();
    });
    afterAll(() => idp.close());

    const INSIDE = [
      'https://169.254.169.254/latest',
      'http://127.0.0.1:9/x',
      'https://127.0.0.1/x',
      'https://localhost/x',
      'https://10.0.0.1/x',
      'https://172.20.1.1/x',
      'https://192.168.0.10/x',
      'https://100.64.0.1/x',
      'https://[::1]/x',
      'https://[fd00::1]/x',
      'https://[fe80::1]/x',
      'https://[::ffff:a9fe:a9fe]/x',
      'https://0x7f.1/x',
      'http://rp.example/x',
    ];
    it.each(INSIDE)('refuses a dynamic client jwks_uri or backchannel_logout_uri %s', async (uri) => {
      for (const body of [
        {
          redirect_uris: [RP],
          token_endpoint_auth_method: 'private_key_jwt',
          token_endpoint_auth_signing_alg: 'ML-DSA-44',
          jwks_uri: uri,
        },
        { redirect_uris: [RP], backchannel_logout_uri: uri },
      ]) {
        const r = await register(idp, body);
        expect(r.statusCode, `${uri}: ${r.body}`).toBe(400);
        expect(r.json().error).toBe('invalid_client_metadata');
        expect(r.json().error_description).toMatch(/^(jwks_uri|backchannel_logout_uri): /);
      }
      expect(dialed).toEqual([]);
    });

    it('accepts a name, which is judged by its addresses when the provider connects', async () => {
      const r = await register(idp, {
        redirect_uris: [RP],
        token_endpoint_auth_method: 'private_key_jwt',
        token_endpoint_auth_signing_alg: 'ML-DSA-44',
        jwks_uri: 'https://keys.rp.test/jwks',
        grant_types: ['client_credentials'],
      });
      expect(r.statusCode, r.body).toBe(201);
      // keys.rp.test resolves to 10.1.2.3: refused at the connect step, never dialed.
      const t = await assertionToken(idp, r.json().client_id);
      expect(t.statusCode).toBe(401);
      expect(t.json().error).toBe('invalid_client');
      expect(dialed).toEqual([]);
    });

    it('fetches the key it encrypts ID tokens to under the same rule: a private address is never dialed', async () => {
      const r = await register(idp, {
        redirect_uris: [RP],
        jwks_uri: 'https://keys.rp.test/jwks',
        id_token_encrypted_response_alg: 'HPKE-9',
      });
      expect(r.statusCode, r.body).toBe(201);
      const { client_id, client_secret } = r.json();
      const { verifier, challenge } = pkce();
      const login = await browserLogin(idp.app, {
        client_id,
        redirect_uri: RP,
        response_type: 'code',
        scope: 'openid',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      dialed.length = 0;
      const t = await redeemCode(idp.app, login.location, RP, {
        verifier,
        headers: { authorization: basicAuth(client_id, client_secret) },
      });
      // keys.rp.test resolves to 10.1.2.3: no ID token, in the clear or otherwise, and no packet.
      expect(t.statusCode).toBe(400);
      expect(t.json().error).toBe('invalid_client_metadata');
      expect(t.json().error_description).toMatch(/jwks_uri could not be fetched: .*10\.1\.2\.3/);
      expect(t.json().id_token).toBeUndefined();
      expect(dialed).toEqual([]);
    });
  });

  describe('an internal relying party the operator allowed, and then no longer allows', () => {
    let clientId = '';
    let secretClient = '';
    let clientSecret = '';
    beforeAll(async () => {
      const idp = await start(['127.0.0.1']);
      try {
        const r = await register(idp, {
          redirect_uris: [RP],
          post_logout_redirect_uris: [BYE],
          token_endpoint_auth_method: 'private_key_jwt',
          token_endpoint_auth_signing_alg: 'ML-DSA-44',
          jwks_uri: `${rpBase}/jwks`,
          backchannel_logout_uri: `${rpBase}/logout`,
          grant_types: ['authorization_code', 'client_credentials'],
        });
        expect(r.statusCode, r.body).toBe(201);
        clientId = r.json().client_id;
        // With the exception in place the provider fetches the keys from 127.0.0.1.
        const t = await assertionToken(idp, clientId);
        expect(t.statusCode, t.body).toBe(200);
        expect(rpRequests).toContain('GET /jwks');
        // A second, secret-based client for the browser sign-in and its back-channel logout.
        const s = await register(idp, {
          redirect_uris: [RP],
          post_logout_redirect_uris: [BYE],
          backchannel_logout_uri: `${rpBase}/logout`,
        });
        expect(s.statusCode, s.body).toBe(201);
        clientSecret = s.json().client_secret;
        secretClient = s.json().client_id;
      } finally {
        await idp.close();
      }
      rpRequests.length = 0;
      dialed.length = 0;
    });

    it('refuses to fetch its jwks_uri once 127.0.0.1 is no longer allowed', async () => {
      const idp = await start();
      try {
        const t = await assertionToken(idp, clientId);
        expect(t.statusCode).toBe(401);
        expect(t.json().error).toBe('invalid_client');
        expect(rpRequests).toEqual([]);
        expect(dialed).toEqual([]);
      } finally {
        await idp.close();
      }
    });

    it('refuses to POST its logout token, once, and says why', async () => {
      const idp = await start();
      try {
        await signInAndOut(idp, secretClient, clientSecret);
        expect(rpRequests).toEqual([]);
        expect(dialed).toEqual([]);
        const failed = logs.filter((l) => l.includes('back-channel logout failed; giving up'));
        expect(failed.at(-1)).toContain('refused by the outbound policy');
        expect(logs.filter((l) => l.includes('will retry'))).toEqual([]);
        const metrics = (await idp.app.inject('/metrics')).body;
        expect(metrics).toMatch(/pqid_backchannel_logout_deliveries_total\{outcome="failed"\} 1/);
      } finally {
        await idp.close();
      }
    });
  });

  it('a back-channel URI whose name resolves to a link-local address is refused at the connect step', async () => {
    const idp = await start();
    try {
      const s = await register(idp, {
        redirect_uris: [RP],
        post_logout_redirect_uris: [BYE],
        backchannel_logout_uri: 'https://logout.rp.test/bc',
      });
      expect(s.statusCode, s.body).toBe(201);
      const { client_id, client_secret } = s.json();
      dialed.length = 0;
      await signInAndOut(idp, client_id, client_secret);
      expect(dialed).toEqual([]);
      expect(logs.at(-1)).toContain('logout.rp.test (169.254.169.254) is a linkLocal address');
    } finally {
      await idp.close();
    }
  });
});
