/** Argument parsing and error mapping shared by the IdP's CLI commands. */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ClientError } from '../clients/clients.ts';
import { ConfigError } from '../config.ts';
import { KekMismatch } from '../crypto/kek.ts';
import { RotationPending, UnknownSigningAlgorithm } from '../keys/key-manager.ts';
import { CliError, UsageError, parse as usageErrors } from './common.ts';

/** `parseArgs` with its TypeErrors (unknown option, missing value) turned into usage errors (exit 2). */
export function parse<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  return usageErrors(() => parseArgs(config));
}

/** Known failures get an error code and exit 1 instead of ERR_INTERNAL. */
export async function mapErrors<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof KekMismatch) throw new CliError(e.code, e.message, { cause: e });
    if (e instanceof ConfigError) throw new CliError('ERR_CONFIG', e.message, { cause: e });
    if (e instanceof ClientError) throw new UsageError(e.message);
    if (e instanceof UnknownSigningAlgorithm) throw new UsageError(e.message);
    if (e instanceof RotationPending) throw new CliError('ERR_ROTATION_PENDING', e.message, { cause: e });
    throw e;
  }
}
