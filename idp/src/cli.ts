#!/usr/bin/env node
/**
 * `pqid`: keys, tokens and sizes, and the IdP's keys, clients and SAML service providers. This
 * module only checks the Node version (an older Node gets one line, not a stack trace);
 * cli/main.ts runs the commands. Exit codes: 0 ok, 1 the operation failed, 2 usage error.
 */
import { requireSupportedNode } from './node-version.ts';

requireSupportedNode('pqid');
// node:crypto's ML-KEM and SHA-3 in Web Crypto (used by HPKE) are flagged experimental once per
// method: a line each on a command's stderr says nothing the user can act on. Others still print.
process.removeAllListeners('warning');
process.on('warning', (w) => {
  if (w.name === 'ExperimentalWarning' && /Web Crypto API/.test(w.message)) return;
  process.stderr.write(`(node:${process.pid}) ${w.name}: ${w.message}\n`);
});
const { main } = await import('./cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
