#!/usr/bin/env node
/**
 * `pqid`: keys, tokens and sizes from the command line. One module per command in ./cli/.
 * Exit codes: 0 ok, 1 the operation failed (message and error code on stderr), 2 usage error.
 */
import { readFileSync } from 'node:fs';
import { algorithms } from './cli/algorithms.ts';
import { backends } from './cli/backends.ts';
import { type Command, err, out, report, UsageError } from './cli/common.ts';
import { inspect } from './cli/inspect.ts';
import { keygen } from './cli/keygen.ts';
import { sign } from './cli/sign.ts';
import { verify } from './cli/verify.ts';

const COMMANDS: readonly Command[] = [keygen, sign, verify, inspect, algorithms, backends];

function version(): string {
  try {
    return (
      JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
    ).version;
  } catch {
    return 'unknown';
  }
}

function usage(): string {
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
Environment: PQID_BACKEND=native|node|noble forces an ML-DSA backend; PQID_DEBUG=1 adds
stack traces to errors.`;
}

async function main(argv: string[]): Promise<number> {
  // The backend fallback warning is for servers; the CLI shows backends on request ('pqid backends').
  process.env.PQID_QUIET ??= '1';
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? COMMANDS.find((c) => c.name === args[0]) : undefined;
    if (name === 'help' && args[0] !== undefined && !topic) {
      return report('pqid', new UsageError(`unknown command ${JSON.stringify(args[0])}`));
    }
    // Bare `pqid` is a usage error (nothing asked: usage on stderr, exit 2); `pqid --help` is not.
    if (name === undefined) {
      err(usage());
      return 2;
    }
    out(topic ? topic.help : usage());
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
    return report(`pqid ${cmd.name}`, e);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    err(`pqid: ERR_INTERNAL: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  },
);
