/**
 * Liveness and what signs. Anyone gets the answer a load balancer needs: `status` and whether
 * storage answers (200, or 503 when it does not), and whether the instance is stopping
 * (`draining`, 503: take it out of rotation; it still serves until its listener closes). The
 * detail — the storage kind, every key id, set, algorithm and status, the ML-DSA backends with their implementations and versions — tells
 * an attacker what runs here, so it is shown only to a request bearing the operator's token
 * (`metricsToken`, as for /metrics); without a configured token it is not served at all.
 */
import { algorithms, backends, preferredBackend } from '@pqid/jose';
import type { FastifyInstance } from 'fastify';
import type { IdpContext } from './context.ts';
import { mldsaBackendReport } from './mldsa-backend.ts';
import { operatorTokenCheck } from './operator-token.ts';

/** The backend ML-DSA signatures use now (`native`, or a fallback), or null when there is none. */
function currentBackend(): string | null {
  try {
    return preferredBackend();
  } catch {
    return null;
  }
}

function detail(ctx: IdpContext) {
  const all = backends();
  const native = all.find((b) => b.name === 'native');
  return {
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
}

export interface HealthOptions {
  ctx: IdpContext;
  /** True once the process is shutting down (start.ts): a balancer should send no new requests. */
  draining?: () => boolean;
}

export async function healthRoutes(app: FastifyInstance, { ctx, draining }: HealthOptions): Promise<void> {
  const operator = operatorTokenCheck(ctx.config.metricsToken);
  app.get('/healthz', async (req, reply) => {
    const storageOk = await ctx.storage.ping().catch(() => false);
    // Draining wins over a storage outage: the balancer must stop sending either way, and only
    // "draining" tells it that this instance is going away rather than sharing a database outage.
    const status = draining?.() ? 'draining' : storageOk ? 'ok' : 'degraded';
    const body =
      operator?.(req) === true
        ? { status, storage: { kind: ctx.storage.kind, ok: storageOk }, ...detail(ctx) }
        : { status, storage: { ok: storageOk } };
    return reply
      .code(status === 'ok' ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(body);
  });
}
