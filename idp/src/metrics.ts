/**
 * Prometheus metrics (prom-client). One registry per provider instance rather than the global
 * default, so several providers in one process (tests, multi-tenant hosts) never collide.
 * Labels are bounded sets (algorithm names, token kinds, route patterns), never raw URLs.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { IdpContext } from './context.ts';
import { mldsaBackendReport } from './mldsa-backend.ts';

export type TokenKind = 'id_token' | 'access_token' | 'userinfo' | 'logout_token' | 'introspection';

export interface Metrics {
  registry: Registry;
  signSeconds: Histogram<'alg' | 'kind'>;
  /** Bytes sent: the JWE when the client asked for encryption (`encryption` is its alg, else none). */
  tokenBytes: Histogram<'alg' | 'kind' | 'encryption'>;
  requestSeconds: Histogram<'method' | 'route' | 'status_code'>;
  /** Back-channel logout POSTs by outcome: delivered, retry (a failed try with more to come), failed. */
  logoutDeliveries: Counter<'outcome'>;
  logoutDeliverySeconds: Histogram<'outcome'>;
  /** Deliveries queued or in flight on this instance. */
  logoutPending: Gauge;
}

function create(): Metrics {
  const registry = new Registry();
  return {
    registry,
    // ML-DSA signs in well under a millisecond to a few ms; RSA and composites take longer.
    signSeconds: new Histogram({
      name: 'pqid_sign_duration_seconds',
      help: 'Time to sign a token, per algorithm and token kind',
      labelNames: ['alg', 'kind'],
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
      registers: [registry],
    }),
    // Buckets at the transport limits that matter: cookie 4096, header line 8190, node 16384.
    tokenBytes: new Histogram({
      name: 'pqid_token_bytes',
      help: 'Size of issued tokens as sent, in bytes, per kind, signing algorithm (alg="reference" for opaque tokens, "none" for unsigned) and encryption (the JWE alg, or "none")',
      labelNames: ['alg', 'kind', 'encryption'],
      buckets: [64, 512, 1024, 2048, 3072, 4096, 6144, 8190, 12288, 16384, 32768],
      registers: [registry],
    }),
    requestSeconds: new Histogram({
      name: 'pqid_http_request_duration_seconds',
      help: 'HTTP request latency per route pattern',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    logoutDeliveries: new Counter({
      name: 'pqid_backchannel_logout_deliveries_total',
      help: 'Back-channel logout token POSTs to relying parties, by outcome (delivered, retry, failed)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    logoutDeliverySeconds: new Histogram({
      name: 'pqid_backchannel_logout_delivery_seconds',
      help: 'Time of one back-channel logout POST, by outcome',
      labelNames: ['outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    logoutPending: new Gauge({
      name: 'pqid_backchannel_logout_pending',
      help: 'Back-channel logout deliveries queued or in flight on this instance',
      registers: [registry],
    }),
  };
}

/**
 * What signs ML-DSA, read at scrape time. Alert on `pqid_mldsa_native == 0`: the IdP runs, but
 * on a fallback backend several times slower than native (the info gauge's labels say which).
 */
function mldsaGauges(registry: Registry): void {
  new Gauge({
    name: 'pqid_mldsa_backend_info',
    help: 'The ML-DSA backend that signs and its implementation (value always 1)',
    labelNames: ['backend', 'implementation'],
    registers: [registry],
    collect() {
      const r = mldsaBackendReport();
      this.reset();
      this.set({ backend: r.backend ?? 'none', implementation: r.implementation ?? 'none' }, 1);
    },
  });
  new Gauge({
    name: 'pqid_mldsa_native',
    help: '1 when ML-DSA signs on the native backend, 0 when on a fallback (see pqid_mldsa_backend_info)',
    registers: [registry],
    collect() {
      this.set(mldsaBackendReport().fallback ? 0 : 1);
    },
  });
}

const byContext = new WeakMap<IdpContext, Metrics>();

/** The metrics of one provider, created on first use (no change to IdpContext needed). */
export function metricsFor(ctx: IdpContext): Metrics {
  let m = byContext.get(ctx);
  if (!m) {
    m = create();
    mldsaGauges(m.registry);
    byContext.set(ctx, m);
  }
  return m;
}
