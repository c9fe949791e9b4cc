/** Liveness and what signs: storage reachability and the ML-DSA backends `@pqid/jose` found. */
import { algorithms, backends } from '@pqid/jose';
import type { FastifyInstance } from 'fastify';
import type { IdpContext } from './context.ts';

export async function healthRoutes(app: FastifyInstance, { ctx }: { ctx: IdpContext }): Promise<void> {
  app.get('/healthz', async (_req, reply) => {
    const storageOk = await ctx.storage.ping().catch(() => false);
    const body = {
      status: storageOk ? 'ok' : 'degraded',
      storage: { kind: ctx.storage.kind, ok: storageOk },
      backends: backends().map(({ name, available, reason, implementation }) => ({
        name,
        available,
        reason,
        implementation,
      })),
      algorithms: algorithms(),
      keys: ctx.keys.list().map(({ kid, alg, status }) => ({ kid, alg, status })),
    };
    return reply
      .code(storageOk ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(body);
  });
}
