#!/usr/bin/env node
/**
 * `pqid` for the IdP: the token and key commands of @pqid/jose plus `keys`, `clients`, `saml-sps`
 * and `passkeys`, which work on the IdP's own storage (the server may be running or stopped).
 */
import { err, JOSE_COMMANDS, runCli } from '@pqid/jose/cli';
import { clients } from './cli/clients.ts';
import { keys } from './cli/keys.ts';
import { passkeys } from './cli/passkeys.ts';
import { samlSps } from './saml/cli.ts';

export const IDP_COMMANDS = [...JOSE_COMMANDS, keys, clients, samlSps, passkeys];

runCli(process.argv.slice(2), IDP_COMMANDS).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    err(`pqid: ERR_INTERNAL: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  },
);
