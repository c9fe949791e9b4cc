#!/usr/bin/env node
import { createIdp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
/** `npm start`: load configuration, start the provider, print how to use it. */
import { redactDatabaseUrl } from './storage/pg-url.ts';

async function main(): Promise<void> {
  const config = loadConfig({ ...(process.argv[2] ? { file: process.argv[2] } : {}) });
  const idp = await createIdp(config, { warn: (m) => console.warn(`warning: ${m}`) });
  const shutdown = (signal: string) => {
    idp.app.log.info({ signal }, 'shutting down');
    idp.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  await idp.app.listen({ port: config.port, host: config.host });

  const keys = idp.ctx.keys.list();
  const lines = [
    '',
    `pqid OpenID Provider listening on http://${config.host}:${config.port}`,
    `  issuer:      ${config.issuer}`,
    `  discovery:   ${config.issuer}/.well-known/openid-configuration`,
    `  data dir:    ${config.dataDir} (${config.databaseUrl.startsWith('sqlite:') ? 'sqlite' : redactDatabaseUrl(config.databaseUrl)})`,
    `  keys:        ${keys.map((k) => `${k.alg} (${k.kid.slice(0, 12)}…)`).join(', ')}${idp.createdKeys.length ? ' — generated now' : ' — reused'}`,
  ];
  if (config.demo.enabled) {
    lines.push(
      `  demo user:   username "${config.demo.username}", password "${config.demo.password}"`,
      `  demo client: client_id "${config.demo.clientId}", client_secret "${config.demo.clientSecret}" (client_secret_basic)`,
      `               redirect_uri ${config.demo.redirectUri}, id_token_signed_response_alg ${idp.seed.client?.id_token_signed_response_alg ?? config.demo.idTokenSignedResponseAlg}`,
      '  (demo credentials are for local use only; disable with PQID_DEMO=false)',
    );
  }
  console.log(`${lines.join('\n')}\n`);
}

main().catch((e: unknown) => {
  if (e instanceof ConfigError) {
    console.error(`pqid: configuration error: ${e.message}`);
    process.exit(2);
  }
  console.error('pqid: failed to start:', e);
  process.exit(1);
});
