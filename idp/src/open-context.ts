/**
 * Assembling the process: storage → KEK → key providers → key manager → the context every route
 * and command works on. The server (app.ts) and the CLI (cli/open.ts) both open it here, so the
 * two cannot drift apart. Start-up fails early with a ConfigError whose message names the setting
 * or variable to fix.
 */
import { Accounts } from './accounts/accounts.ts';
import { Clients } from './clients/clients.ts';
import { OutboundGuard, type OutboundOptions } from './clients/outbound.ts';
import {
  type Config,
  type Env,
  type EnvironmentSettings,
  processEnv,
  readEnvironment,
} from './config/index.ts';
import type { EndedSession, IdpContext } from './context.ts';
import { type Kek, kekReloader, loadKek } from './crypto/kek.ts';
import type { KeyAuditSink } from './keys/audit.ts';
import { openKeyProviders } from './keys/external.ts';
import { keyManagerFromConfig } from './keys/from-config.ts';
import type { KeyManager } from './keys/key-manager.ts';
import { queueNotices } from './oidc/logout/outbox.ts';
import { LoginLimiter } from './security/login-limiter.ts';
import { openStorage } from './storage/open.ts';

export interface OpenContextOptions {
  /** The environment: secrets (PQID_KEK…) and the PINs external key providers name. */
  env?: Env | undefined;
  /**
   * Open the signing keys (needs the KEK): the server and the commands that sign or change keys.
   * Without, only public key metadata is read, so listings work without the secret.
   */
  withKeys: boolean;
  /** `server` or `cli`, named on every key audit line; a server also re-reads a KEK file. */
  actor: 'server' | 'cli';
  warn: (message: string) => void;
  /** Where key audit lines go (the server sends them to its log once it has one). */
  audit?: KeyAuditSink | undefined;
  /** Replaces the login limiter on the shared store (e.g. one of a test's own). */
  loginLimiter?: LoginLimiter | undefined;
  /** The resolver and connector of outbound requests (tests put a gate on the connect step). */
  outbound?: Pick<OutboundOptions, 'resolve' | 'dial'> | undefined;
}

export interface OpenedContext {
  ctx: IdpContext;
  /** The KEK (one that opens nothing when the keys were not opened). */
  kek: Kek;
  environment: EnvironmentSettings;
  close(): Promise<void>;
}

/** The logout notices of sessions ended here (a command's password change, passkey removal). */
async function queueAll(ctx: IdpContext, sessions: readonly EndedSession[], warn: (m: string) => void) {
  for (const session of sessions) {
    try {
      await queueNotices(ctx, session);
    } catch (e) {
      warn(`could not queue the back-channel logout notices of an ended session: ${(e as Error).message}`);
    }
  }
}

export async function openContext(config: Config, opts: OpenContextOptions): Promise<OpenedContext> {
  const env = opts.env ?? processEnv();
  const environment = readEnvironment(env);
  const storage = openStorage(config.databaseUrl);
  // Every request made for a client goes through it (the CLI makes none; the context offers it).
  const outbound = new OutboundGuard({ allow: config.outbound.allow, ...opts.outbound });
  let opened: KeyManager | undefined;
  try {
    const keyStore = storage.adapter('SigningKey');
    // Without the keys: a KEK that can never be used, so nothing needs the secret.
    let kek: Kek = { key: Buffer.alloc(0), source: 'env' };
    let keys: KeyManager;
    if (opts.withKeys) {
      const haveKeys = (await keyStore.list()).length > 0;
      kek = loadKek({ sources: environment, dataDir: config.dataDir, haveKeys, warn: opts.warn });
      const providers = await openKeyProviders(config.keys.signers, { env });
      // A running server re-reads a KEK file at every key reload; a command runs once.
      const reloadKek = opts.actor === 'server' ? kekReloader(kek, environment) : undefined;
      keys = keyManagerFromConfig(keyStore, kek, config, {
        // Instances and operator commands on one store lock alike: two rotations never cross.
        locks: storage.adapter('Lock'),
        providers,
        actor: opts.actor,
        ...(reloadKek ? { reloadKek } : {}),
        ...(opts.audit ? { audit: opts.audit } : {}),
      });
      opened = keys;
      await keys.load();
    } else {
      keys = keyManagerFromConfig(keyStore, kek, config);
      await keys.loadPublic();
    }
    const ctx: IdpContext = {
      config,
      storage,
      keys,
      accounts: new Accounts(storage.adapter('Account')),
      clients: new Clients(storage.adapter('Client'), config.defaultSigningAlg, {
        allowSlhDsaHotPath: config.keys.allowSlhDsaHotPath,
        cacheTtl: config.clientCacheTtl,
        outboundAllow: outbound.allowlist,
        encryptionAlgs: config.keys.encryptionAlgs,
      }),
      outbound,
      // Lockouts count failures from every instance on this store (login-limiter.ts).
      loginLimiter:
        opts.loginLimiter ?? new LoginLimiter(config.loginLimits, { store: storage.loginFailures }),
      // Into the shared outbox, which a running server's sweep delivers; the server (server.ts)
      // replaces this with its own deliveries, which also start at once.
      sessionsEnded: (sessions) => queueAll(ctx, sessions, opts.warn),
    };
    return {
      ctx,
      kek,
      environment,
      async close() {
        await outbound.close();
        await opened?.close();
        await storage.close();
      },
    };
  } catch (e) {
    await opened?.close();
    await outbound.close();
    await storage.close();
    throw e;
  }
}
