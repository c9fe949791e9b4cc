/** Liveness and what signs: storage reachability and the ML-DSA backends `@pqid/jose` found. */
import { algorithms, backends, preferredBackend } from '@pqid/jose';
import type { FastifyInstance } from 'fastify';
import type { IdpContext } from './context.ts';
import { mldsaBackendReport } from './mldsa-backend.ts';

/** The backend ML-DSA signatures use now (`native`, or a fallback), or null when there is none. */
function currentBackend(): string | null {
  try {
    return preferredBackend();
  } catch {
    return null;
  }
}

export async function healthRoutes(app: FastifyInstance, { ctx }: { ctx: IdpContext }): Promise<void> {
  app.get('/healthz', async (_req, reply) => {
    const storageOk = await ctx.storage.ping().catch(() => false);
    const all = backends();
    const native = all.find((b) => b.name === 'native');
    const body = {
      status: storageOk ? 'ok' : 'degraded',
      storage: { kind: ctx.storage.kind, ok: storageOk },
      // Which ML-DSA backend signs, and whether that is the fallback: a missing native addon
      // does not stop the IdP, it makes it slower; this is where an operator sees it.
      mldsaBackend: currentBackend(),
      mldsaFallback: native ? !native.available : true,
      // The same in one object: the signing backend and implementation, and native's state
      // (why it is unavailable and how to fix it, or its power-on self-test result).
      mldsa: mldsaBackendReport(),
      backends: all.map(({ name, available, reason, implementation }) => ({
        name,
        available,
        reason,
        implementation,
      })),
      algorithms: algorithms(),
      keys: ctx.keys.list().map(({ set, kid, alg, status }) => ({ set, kid, alg, status })),
    };
    return reply
      .code(storageOk ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(body);
  });
}
