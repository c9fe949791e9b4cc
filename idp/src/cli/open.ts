/**
 * The CLI opens the same configuration and storage the server uses (defaults → `--config` /
 * `PQID_CONFIG` file → environment), through the same assembly (open-context.ts), so
 * `pqid clients add` registers into the database the server reads. SQLite in WAL mode lets it run
 * while the server is up or down.
 */
import { type Config, type Env, loadConfig, processEnv } from '../config/index.ts';
import type { IdpContext } from '../context.ts';
import { type KeyAuditSink, stderrAuditSink } from '../keys/audit.ts';

export interface CliContext {
  ctx: IdpContext;
  close(): Promise<void>;
}

export interface OpenOptions {
  configFile?: string | undefined;
  /** Decrypt signing keys (needs the KEK): rotation and client registration do, listings do not. */
  withKeys: boolean;
  env?: Env;
  warn?: (message: string) => void;
  /** Where key audit lines go (default: JSON lines on stderr). */
  audit?: KeyAuditSink;
}

export function cliConfig(configFile: string | undefined, env: Env = processEnv()): Config {
  return loadConfig({ env, ...(configFile !== undefined ? { file: configFile } : {}) });
}

export async function openCli(opts: OpenOptions): Promise<CliContext> {
  const env = opts.env ?? processEnv();
  // Loaded here, not at start-up: the token commands need no database (nor node:sqlite).
  const { openContext } = await import('../open-context.ts');
  const opened = await openContext(cliConfig(opts.configFile, env), {
    env,
    withKeys: opts.withKeys,
    actor: 'cli',
    warn: opts.warn ?? ((m: string) => process.stderr.write(`warning: ${m}\n`)),
    audit: opts.withKeys ? (opts.audit ?? stderrAuditSink()) : undefined,
  });
  return { ctx: opened.ctx, close: () => opened.close() };
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
