/** /metrics behind a bearer token (metricsToken / PQID_METRICS_TOKEN), and open without one. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/index.ts';
import { startTestIdp } from './helpers.ts';

type Started = Awaited<ReturnType<typeof startTestIdp>>;
const TOKEN = 'metrics-3f9a1c77e2b54d08';

describe('/metrics with metricsToken', () => {
  let t: Started;
  beforeAll(async () => {
    t = await startTestIdp({ metricsToken: TOKEN });
  });
  afterAll(() => t.close());

  it('answers 401 without the token, with a wrong one, or with another scheme', async () => {
    for (const authorization of [
      undefined,
      'Bearer nope',
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`,
      TOKEN,
    ]) {
      const r = await t.idp.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(r.statusCode, String(authorization)).toBe(401);
      expect(r.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(r.json()).toMatchObject({ error: 'invalid_token' });
      expect(r.body).not.toContain('pqid_');
    }
  });

  it('serves the metrics with the token', async () => {
    const r = await t.idp.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('pqid_http_request_duration_seconds');
  });
});

describe('metricsToken configuration', () => {
  it('comes from PQID_METRICS_TOKEN and refuses short tokens', () => {
    expect(loadConfig({ env: { PQID_METRICS_TOKEN: TOKEN }, cwd: '/srv' }).metricsToken).toBe(TOKEN);
    expect(loadConfig({ env: {}, cwd: '/srv' }).metricsToken).toBeUndefined();
    expect(() => loadConfig({ env: { PQID_METRICS_TOKEN: 'secret' }, cwd: '/srv' })).toThrow(/at least 16/);
  });
});
