/** The server and the CLI assemble their context in one place, so the same settings reach both. */
import { describe, expect, it } from 'vitest';
import { openCli } from '../src/cli/open.ts';
import { KEK, startTestIdp } from './helpers.ts';

const CC = {
  redirect_uris: [],
  grant_types: ['client_credentials' as const],
  scope: 'api',
  access_token_format: 'jwt' as const,
};

describe('openContext', () => {
  it('gives the CLI the client cache the server has (clientCacheTtl)', async () => {
    const server = await startTestIdp({ clientCacheTtl: 60, demo: { enabled: false } });
    const cli = await openCli({
      withKeys: false,
      env: {
        PQID_KEK: KEK,
        PQID_DATA_DIR: server.dir,
        PQID_DATABASE_URL: server.idp.ctx.config.databaseUrl,
        PQID_CLIENT_CACHE_TTL: '60',
        PQID_DEMO: 'false',
      },
    });
    try {
      await server.idp.ctx.clients.register({ ...CC, client_id: 'svc' });
      expect((await cli.ctx.clients.find('svc'))?.client_id).toBe('svc');
      // Removed by another process: the server drops its own entry at once, and the CLI, like any
      // other instance, keeps the record it read for clientCacheTtl seconds.
      await server.idp.ctx.clients.remove('svc');
      expect(await server.idp.ctx.clients.find('svc')).toBeUndefined();
      expect((await cli.ctx.clients.find('svc'))?.client_id).toBe('svc');
    } finally {
      await cli.close();
      await server.close();
    }
  });
});
