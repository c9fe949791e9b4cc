/**
 * The `pqid` command line: the token and key commands, which need nothing but @pqid/jose, and
 * `keys`, `clients`, `saml-sps`, `passkeys` and `users`, which work on the IdP's own storage (the server
 * may be running or stopped) and load it only when run.
 */
import { configure } from '@pqid/jose';
import { ConfigError, cliDebug, type Env, processEnv, readEnvironment } from '../config/index.ts';
import { clients } from './clients.ts';
import { CliError, err, report } from './common.ts';
import { keys } from './keys.ts';
import { passkeys } from './passkeys.ts';
import { runCli, TOKEN_COMMANDS } from './run.ts';
import { samlSps } from './saml-sps.ts';
import { users } from './users.ts';

export const IDP_COMMANDS = [...TOKEN_COMMANDS, keys, clients, samlSps, passkeys, users];

/** Runs one command line; the environment gives the ML-DSA backend settings and PQID_DEBUG. */
export async function main(argv: string[], env: Env = processEnv()): Promise<number> {
  const debug = cliDebug(env);
  try {
    // The backend fallback warning is for servers; `pqid backends` shows the backends on request.
    const { backend, compositeMode, nativeSigning } = readEnvironment(env);
    configure({ backend, compositeMode, nativeSigning, onWarning: null });
  } catch (e) {
    return report('pqid', e instanceof ConfigError ? new CliError('ERR_CONFIG', e.message) : e, debug);
  }
  try {
    return await runCli(argv, IDP_COMMANDS, { debug });
  } catch (e) {
    err(`pqid: ERR_INTERNAL: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}
