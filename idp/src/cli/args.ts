/** Argument parsing and error mapping shared by the IdP's CLI commands. */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ClientError } from '../clients/clients.ts';
import { IdpError, UsageError as IdpUsageError } from '../errors/index.ts';
import { UnknownSigningAlgorithm } from '../keys/key-manager.ts';
import { SamlSpError } from '../saml/sps.ts';
import { CliError, UsageError, parse as usageErrors } from './common.ts';

/** `parseArgs` with its TypeErrors (unknown option, missing value) turned into usage errors (exit 2). */
export function parse<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  return usageErrors(() => parseArgs(config));
}

/** What the operator typed is wrong (exit 2), not the operation: metadata, an algorithm, a registration. */
const isUsage = (e: IdpError<string>): boolean =>
  e instanceof IdpUsageError ||
  e instanceof ClientError ||
  e instanceof UnknownSigningAlgorithm ||
  e instanceof SamlSpError;

/** The IdP's errors: usage errors exit 2, every other one exits 1 with its code instead of ERR_INTERNAL. */
export async function mapErrors<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (!(e instanceof IdpError)) throw e;
    if (isUsage(e)) throw new UsageError(e.message);
    throw new CliError(e.code, e.message, { cause: e });
  }
}
