#!/usr/bin/env node
/**
 * `pqid` for the IdP: the token and key commands of @pqid/jose plus `keys` and `clients`, which
 * work on the IdP's own storage (the server may be running or stopped).
 */
import { err, JOSE_COMMANDS, runCli } from '@pqid/jose/cli';
import { clients } from './cli/clients.ts';
import { keys } from './cli/keys.ts';
import { samlSps } from './cli/saml-sps.ts';

export const IDP_COMMANDS = [...JOSE_COMMANDS, keys, clients, samlSps];

runCli(process.argv.slice(2), IDP_COMMANDS).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    err(`pqid: ERR_INTERNAL: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  },
);
