/**
 * The CLI opens the same configuration and storage the server uses (defaults → `--config` /
 * `PQID_CONFIG` file → environment), so `pqid clients add` registers into the database the
 * server reads. SQLite in WAL mode lets it run while the server is up or down.
 */
import { Accounts } from '../accounts/accounts.ts';
import { Clients } from '../clients/clients.ts';
import { OutboundGuard } from '../clients/outbound.ts';
import { type Config, loadConfig } from '../config.ts';
import type { IdpContext } from '../context.ts';
import { loadKek } from '../crypto/kek.ts';
import { type KeyAuditSink, stderrAuditSink } from '../keys/audit.ts';
import { openKeyProviders } from '../keys/external.ts';
import { keyManagerFromConfig } from '../keys/from-config.ts';
import { LoginLimiter } from '../security/login-limiter.ts';

export interface CliContext {
  ctx: IdpContext;
  close(): Promise<void>;
}

export interface OpenOptions {
  configFile?: string | undefined;
  /** Decrypt signing keys (needs the KEK): rotation and client registration do, listings do not. */
  withKeys: boolean;
  env?: Record<string, string | undefined>;
  warn?: (message: string) => void;
  /** Where key audit lines go (default: JSON lines on stderr). */
  audit?: KeyAuditSink;
}

export function cliConfig(configFile: string | undefined, env = process.env): Config {
  return loadConfig({ env, ...(configFile !== undefined ? { file: configFile } : {}) });
}

export async function openCli(opts: OpenOptions): Promise<CliContext> {
  const env = opts.env ?? process.env;
  const config = cliConfig(opts.configFile, env);
  // Loaded here, not at start-up: the token commands need no database (nor node:sqlite).
  const { openStorage } = await import('../storage/open.ts');
  const storage = openStorage(config.databaseUrl);
  // The CLI makes no request for a client; the guard is there for what the context offers.
  const outbound = new OutboundGuard({ allow: config.outbound.allow });
  let closeKeys = async () => {};
  try {
    const keyStore = storage.adapter('SigningKey');
    let keys: IdpContext['keys'];
    if (opts.withKeys) {
      const haveKeys = (await keyStore.list()).length > 0;
      const warn = opts.warn ?? ((m: string) => process.stderr.write(`warning: ${m}\n`));
      const kek = loadKek({ env, dataDir: config.dataDir, haveKeys, warn });
      const providers = await openKeyProviders(config.keys.signers, { env });
      keys = keyManagerFromConfig(keyStore, kek, config, {
        // Operator commands lock like server instances do: two rotations never cross.
        locks: storage.adapter('Lock'),
        providers,
        actor: 'cli',
        audit: opts.audit ?? stderrAuditSink(),
      });
      closeKeys = () => keys.close();
      await keys.load();
    } else {
      // Metadata only: a KEK that can never be used, so listing works without the secret.
      keys = keyManagerFromConfig(keyStore, { key: Buffer.alloc(0), source: 'env' }, config);
      await keys.loadPublic();
    }
    const ctx: IdpContext = {
      config,
      storage,
      keys,
      accounts: new Accounts(storage.adapter('Account')),
      clients: new Clients(storage.adapter('Client'), config.defaultSigningAlg, {
        allowSlhDsaHotPath: config.keys.allowSlhDsaHotPath,
        outboundAllow: outbound.allowlist,
      }),
      outbound,
      loginLimiter: new LoginLimiter(config.loginLimits, { store: storage.loginFailures }),
    };
    return {
      ctx,
      close: async () => {
        await closeKeys();
        await outbound.close();
        await storage.close();
      },
    };
  } catch (e) {
    await closeKeys();
    await outbound.close();
    await storage.close();
    throw e;
  }
}

/** Open, run, and always close. */
export async function withCli<T>(opts: OpenOptions, f: (ctx: IdpContext) => Promise<T>): Promise<T> {
  const cli = await openCli(opts);
  try {
    return await f(cli.ctx);
  } finally {
    await cli.close();
  }
}
