#!/usr/bin/env node
/**
 * `pqid`: keys, tokens and sizes from the command line. One module per command in ./cli/.
 * Exit codes: 0 ok, 1 the operation failed (message and error code on stderr), 2 usage error.
 */
import { err } from './cli/common.ts';
import { runCli } from './cli/run.ts';

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    err(`pqid: ERR_INTERNAL: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  },
);
