/**
 * The provider: the context (open-context.ts), seed data, first keys, the server and its timers.
 */
import { algorithms } from '@pqid/jose';
import type { FastifyInstance } from 'fastify';
import { signingAlgs } from './clients/clients.ts';
import { warnSlowHotPath } from './clients/hot-path.ts';
import type { OutboundOptions } from './clients/outbound.ts';

export { registerClient } from './clients/register.ts';

import {
  type Config,
  ConfigError,
  type Env,
  processEnv,
  readEnvironment,
  resourceServerAlgs,
} from './config/index.ts';
import type { IdpContext } from './context.ts';
import type { Kek } from './crypto/kek.ts';
import { auditMessage } from './keys/audit.ts';
import { requireNativeIfAsked } from './mldsa-backend.ts';
import { dpopNonceKey } from './oidc/shared/dpop.ts';
import { openContext } from './open-context.ts';
import type { LoginLimiter } from './security/login-limiter.ts';
import { type SeedResult, seedDemo } from './seed.ts';
import { buildServer } from './server.ts';
import { schedulePurge } from './storage/purge.ts';

export interface Idp {
  app: FastifyInstance;
  ctx: IdpContext;
  kek: Kek;
  seed: SeedResult;
  /** Key ids generated during this start (empty on a restart with existing keys). */
  createdKeys: string[];
  /**
   * From now on /healthz answers 503 `draining`, so load balancers stop sending new requests;
   * everything else is served as before (start.ts calls it on SIGTERM, before closing).
   */
  reportDraining(): void;
  close(): Promise<void>;
}

export interface CreateIdpOptions {
  env?: Env;
  warn?: (message: string) => void;
  logStream?: { write(msg: string): void };
  /** Replaces the in-memory login limiter (e.g. one backed by a store shared between instances). */
  loginLimiter?: LoginLimiter;
  /** The resolver and connector of outbound requests (tests put a gate on the connect step). */
  outbound?: Pick<OutboundOptions, 'resolve' | 'dial'>;
}

export async function createIdp(config: Config, opts: CreateIdpOptions = {}): Promise<Idp> {
  const env = opts.env ?? processEnv();
  const warn = opts.warn ?? ((m: string) => process.emitWarning(m, { code: 'PQID_KEK' }));
  const slowWarn = opts.warn ?? ((m: string) => process.emitWarning(m, { code: 'PQID_SLOW_HOT_PATH' }));
  requireNativeIfAsked(readEnvironment(env));
  const available = algorithms();
  if (!available.includes(config.defaultSigningAlg)) {
    throw new ConfigError(
      `defaultSigningAlg ${config.defaultSigningAlg} is not available; choose one of ${available.join(', ')}`,
    );
  }
  if (config.demo.enabled && !available.includes(config.demo.idTokenSignedResponseAlg)) {
    throw new ConfigError(
      `demo.idTokenSignedResponseAlg ${config.demo.idTokenSignedResponseAlg} is not available; choose one of ${available.join(', ')}`,
    );
  }
  const opened = await openContext(config, {
    env,
    withKeys: true,
    actor: 'server',
    warn,
    loginLimiter: opts.loginLimiter,
    outbound: opts.outbound,
  });
  const { ctx, kek } = opened;
  const { keys, storage } = ctx;
  try {
    const seed = await seedDemo(ctx);
    // One key per algorithm that a registered client's tokens use or a resource server pins, plus
    // the default: published at start, before any token needs it.
    const registered = await ctx.clients.list();
    const used = registered.flatMap((c) => signingAlgs(c, config.accessTokenSigningAlg));
    await keys.ensure([
      config.defaultSigningAlg,
      ...keys.placementAlgs(),
      ...resourceServerAlgs(config),
      ...used,
    ]);
    // The IdP's encryption keys (clients encrypt request objects to them), published from the start.
    await keys.ensure(config.keys.encryptionAlgs, 'enc');
    // The cold-path root: SAML certificates and metadata, the signed JWKS.
    if (config.saml.enabled || config.keys.signedJwks) await keys.ensure([keys.coldAlg()], 'root');
    let draining = false; // reportDraining below; /healthz reads it
    const app = await buildServer(ctx, {
      ...(opts.logStream ? { logStream: opts.logStream } : {}),
      dpopNonceKey: dpopNonceKey(kek.key),
      draining: () => draining,
    });
    // Key operations so far (migration, first keys, purges) and from now on, in the server's log.
    // What this start generated, read from the same trail so that keys made while the routes are
    // built (the SAML certificates' keys) count too: the banner marks every other key as reused.
    const createdKeys: string[] = [];
    let starting = true;
    keys.auditTo((e) => {
      if (starting && e.op === 'key.create' && e.kid) createdKeys.push(e.kid);
      app.log.info({ audit: 'keys', ...e }, auditMessage(e));
    });
    // SLH-DSA signing per token: say so at every start, with its cost measured here.
    await warnSlowHotPath(config, keys, registered, (m) => {
      app.log.warn({ code: 'PQID_SLOW_HOT_PATH' }, m);
      slowWarn(m);
    });
    // Rotations made by `pqid keys rotate` in another process reach this one on the next re-read.
    const stopRefresh = keys.autoRefresh(config.keys.refreshInterval, (err) =>
      app.log.error({ err }, 'reloading signing keys failed; keeping the current ones'),
    );
    const stopPurge = schedulePurge(storage, {
      intervalSeconds: config.purgeInterval,
      onSwept: (deleted) => {
        if (deleted > 0) app.log.info({ deleted }, 'purged expired records');
      },
      onError: (err) => app.log.warn({ err }, 'purging expired records failed; will retry'),
    });
    starting = false;
    return {
      app,
      ctx,
      kek,
      seed,
      createdKeys,
      reportDraining() {
        draining = true;
      },
      async close() {
        stopRefresh();
        await stopPurge();
        await app.close();
        await opened.close();
      },
    };
  } catch (e) {
    await opened.close();
    throw e;
  }
}
