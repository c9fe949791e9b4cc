import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdp, type Idp } from '../src/app.ts';
import { basicAuth, browserLogin, DEMO_REDIRECT, KEK, pkce, tempDir, testConfig } from './helpers.ts';

describe('logging', () => {
  const lines: string[] = [];
  let idp: Idp;
  let cleanup: () => void;

  beforeAll(async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    idp = await createIdp(testConfig(t.dir, { logLevel: 'trace' }), {
      env: { PQID_KEK: KEK },
      warn: () => {},
      logStream: { write: (m) => lines.push(m) },
    });
  });
  afterAll(async () => {
    await idp.close();
    cleanup();
  });

  it('never logs passwords, secrets, codes, tokens or cookies', async () => {
    const p = pkce();
    const { location, sessionCookie } = await browserLogin(idp.app, {
      client_id: 'demo-client',
      redirect_uri: DEMO_REDIRECT,
      response_type: 'code',
      scope: 'openid offline_access',
      code_challenge: p.challenge,
      code_challenge_method: 'S256',
      state: 'state-secret-ish',
    });
    const code = location.searchParams.get('code') as string;
    const r = await idp.app.inject({
      method: 'POST',
      url: '/token',
      headers: {
        authorization: basicAuth('demo-client', 'demo-secret'),
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: DEMO_REDIRECT,
        code_verifier: p.verifier,
      }).toString(),
    });
    const tokens = r.json();
    await idp.app.inject({ url: '/userinfo', headers: { authorization: `Bearer ${tokens.access_token}` } });
    const log = lines.join('');
    expect(log).toContain('/token');
    const secrets = [
      code,
      p.verifier,
      tokens.access_token,
      tokens.refresh_token,
      tokens.id_token,
      (sessionCookie as string).split('=')[1],
      'demo-secret',
      Buffer.from('demo-client:demo-secret').toString('base64'),
      'state-secret-ish',
    ];
    for (const s of secrets) expect(log).not.toContain(s);
  });
});
