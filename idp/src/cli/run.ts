/**
 * The `pqid` command runner: one module per command, the token and key commands (keygen, sign,
 * verify, inspect, token-fit, algorithms, backends) and the IdP's own (keys, clients, saml-sps). `runCli`
 * takes the command list so tests can run a subset.
 */
import { readFileSync } from 'node:fs';
import { algorithms } from './algorithms.ts';
import { backends } from './backends.ts';
import { type Command, err, out, report, UsageError } from './common.ts';
import { inspect } from './inspect.ts';
import { keygen } from './keygen.ts';
import { sign } from './sign.ts';
import { tokenFitCommand } from './token-fit-command.ts';
import { verify } from './verify.ts';

export type { Command } from './common.ts';
export { CliError, err, json, out, table, UsageError } from './common.ts';

/** The commands that work on key and token files, with @pqid/jose alone (no IdP storage). */
export const TOKEN_COMMANDS: readonly Command[] = [
  keygen,
  sign,
  verify,
  inspect,
  tokenFitCommand,
  algorithms,
  backends,
];

export interface RunOptions {
  /** Stack traces with errors (`PQID_DEBUG=1`). */
  debug?: boolean;
}

function version(): string {
  try {
    return (
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
    ).version;
  } catch {
    return 'unknown';
  }
}

function usage(COMMANDS: readonly Command[]): string {
  const w = Math.max(...COMMANDS.map((c) => c.name.length));
  return `pqid ${version()}: post-quantum (ML-DSA, composite ML-DSA) and classical JWS/JWT tools

Usage: pqid <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(w)}  ${c.summary}`).join('\n')}

Run 'pqid <command> --help' for a command's options.

Round trip:
  pqid keygen --alg ML-DSA-65 --public-out pub.jwk.json --out priv.jwk.json
  echo '{"sub":"alice"}' | pqid sign --key priv.jwk.json --iss https://idp.example --aud app --exp 10m > token.jwt
  pqid verify --jwks pub.jwk.json --alg ML-DSA-65 --iss https://idp.example --aud app < token.jwt
  pqid inspect < token.jwt

Exit status: 0 success; 1 the operation failed (verification, bad key, bad token, I/O),
with "pqid <command>: <ERR_CODE>: <message>" on stderr; 2 usage error.
Environment: PQID_BACKEND=native|node|noble|native-ref forces an ML-DSA backend; PQID_DEBUG=1 adds
stack traces to errors.`;
}

export async function runCli(
  argv: string[],
  COMMANDS: readonly Command[] = TOKEN_COMMANDS,
  options: RunOptions = {},
): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? COMMANDS.find((c) => c.name === args[0]) : undefined;
    if (name === 'help' && args[0] !== undefined && !topic) {
      return report('pqid', new UsageError(`unknown command ${JSON.stringify(args[0])}`));
    }
    // Bare `pqid` is a usage error (nothing asked: usage on stderr, exit 2); `pqid --help` is not.
    if (name === undefined) {
      err(usage(COMMANDS));
      return 2;
    }
    out(topic ? topic.help : usage(COMMANDS));
    return 0;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    out(version());
    return 0;
  }
  const cmd = COMMANDS.find((c) => c.name === name);
  if (!cmd)
    return report(
      'pqid',
      new UsageError(
        `unknown command ${JSON.stringify(name)}; commands: ${COMMANDS.map((c) => c.name).join(', ')}`,
      ),
    );
  if (args.includes('--help') || args.includes('-h')) {
    out(cmd.help);
    return 0;
  }
  try {
    await cmd.run(args);
    return 0;
  } catch (e) {
    return report(`pqid ${cmd.name}`, e, options.debug);
  }
}
