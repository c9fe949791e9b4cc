/**
 * `trustProxy`: whose address a request is from behind the operator's reverse proxy, which is
 * what the login limits count (passkey failures spend nothing else). Driven with inject, whose
 * `remoteAddress` plays the connecting proxy or client; nothing is sent anywhere.
 */
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { cookieHeader, startTestIdp } from './helpers.ts';
import { csrfOf, demoAuthorize } from './passkey-helpers.ts';

describe('behind a reverse proxy (trustProxy)', () => {
  const PROXY = '10.0.0.5';
  const tight = { window: 60, maxFailuresPerAccount: 100, maxFailuresPerAddress: 3 };

  /** A login form reached from `remoteAddress`, every request carrying `forwardedFor` if given. */
  async function formVia(
    app: Awaited<ReturnType<typeof startTestIdp>>['idp']['app'],
    remoteAddress: string,
    forwardedFor?: string,
  ) {
    const base: InjectOptions = {
      remoteAddress,
      ...(forwardedFor !== undefined ? { headers: { 'x-forwarded-for': forwardedFor } } : {}),
    };
    const r1 = await app.inject({ ...base, method: 'GET', url: demoAuthorize().url });
    const loginUrl = r1.headers.location as string;
    const headers = { ...(base.headers as Record<string, string>), cookie: cookieHeader(r1.cookies) };
    const page = await app.inject({ ...base, method: 'GET', url: loginUrl, headers });
    const csrf = csrfOf(page.body);
    return async (username: string, password: string) =>
      (
        await app.inject({
          ...base,
          method: 'POST',
          url: `${loginUrl}/login`,
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ csrf, username, password }).toString(),
        })
      ).statusCode;
  }

  /** Failed logins from one client, each for another made-up name: its address budget only. */
  async function spray(post: (u: string, p: string) => Promise<number>) {
    for (let i = 0; i < tight.maxFailuresPerAddress; i++) expect(await post(`nobody${i}`, 'x')).toBe(401);
    expect(await post('nobody', 'x')).toBe(429);
  }

  it('not listed: every client behind the proxy spends the one budget, so one of them locks out the rest', async () => {
    const t = await startTestIdp({ loginLimits: tight });
    try {
      await spray(await formVia(t.idp.app, PROXY, '203.0.113.7'));
      expect(await (await formVia(t.idp.app, PROXY, '198.51.100.20'))('demo', 'demo')).toBe(429);
    } finally {
      await t.close();
    }
  });

  it('listed: each client has its own budget, and only the proxy may name one', async () => {
    const t = await startTestIdp({ loginLimits: tight, trustProxy: [PROXY, 'fd00:5::/64'] });
    try {
      await spray(await formVia(t.idp.app, PROXY, '203.0.113.7'));
      // Another user behind the same proxy (over IPv6 too) signs in.
      expect(await (await formVia(t.idp.app, PROXY, '198.51.100.20'))('demo', 'demo')).toBe(303);
      expect(await (await formVia(t.idp.app, 'fd00:5::1', '198.51.100.21'))('demo', 'demo')).toBe(303);
      // The sprayer cannot pass for someone else: a name it puts in front of the proxy's is not
      // believed, and without the proxy its own header is ignored.
      expect(await (await formVia(t.idp.app, PROXY, '192.0.2.50, 203.0.113.7'))('demo', 'demo')).toBe(429);
      expect(await (await formVia(t.idp.app, '203.0.113.7', '192.0.2.51'))('demo', 'demo')).toBe(429);
    } finally {
      await t.close();
    }
  });
});
