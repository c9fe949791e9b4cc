#!/usr/bin/env node
/**
 * `pqid`: keys, tokens and sizes, and the IdP's keys, clients and SAML service providers. This
 * module only checks the Node version (an older Node gets one line, not a stack trace);
 * cli/main.ts runs the commands. Exit codes: 0 ok, 1 the operation failed, 2 usage error.
 */
import { dropExpectedExperimentalWarnings } from './experimental-warnings.ts';
import { requireSupportedNode } from './node-version.ts';

requireSupportedNode('pqid');
dropExpectedExperimentalWarnings();
// A reader that stopped early (`pqid algorithms | head`) closes the pipe: the output is no longer
// wanted, which is no failure and no reason for a stack trace.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(process.exitCode ?? 0);
});
const { main } = await import('./cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
