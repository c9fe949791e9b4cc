/** `npm start` (through main.ts): load configuration, start the provider, print how to use it. */
import { configure } from '@pqid/jose';
import { createIdp } from './app.ts';
import { ConfigError, loadConfig, readEnvironment, redactDatabaseUrl } from './config/index.ts';
import { bannerLines, mldsaBackendReport, NativeRequiredError } from './mldsa-backend.ts';

async function main(): Promise<void> {
  const config = loadConfig({ ...(process.argv[2] ? { file: process.argv[2] } : {}) });
  const { backend, compositeMode, drainTimeoutMs } = readEnvironment();
  // How long SIGTERM/SIGINT waits for in-flight requests before cutting the remaining connections.
  const DRAIN_TIMEOUT_MS = drainTimeoutMs;
  // The fallback to another ML-DSA backend is reported once, as a structured log line below,
  // instead of @pqid/jose's process warning.
  configure({ backend, compositeMode, onWarning: null });
  const idp = await createIdp(config, { warn: (m) => console.warn(`warning: ${m}`) });
  const log = idp.app.log;
  const mldsa = mldsaBackendReport();
  if (mldsa.fallback && !mldsa.native.available) {
    log.warn(
      {
        mldsaBackend: mldsa.backend ?? 'none',
        native: { available: false, reason: mldsa.native.reason, fix: mldsa.native.fix },
      },
      `native ML-DSA backend unavailable, using ${mldsa.backend ?? 'none'}`,
    );
  }

  // Graceful shutdown: stop accepting (the listening socket closes at once, so new connections
  // are refused), let in-flight requests finish, close keep-alive connections as soon as they are
  // idle, close storage, exit 0. After DRAIN_TIMEOUT_MS the remaining connections are cut; a
  // second signal exits at once.
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) {
      log.warn({ signal }, 'second signal during shutdown: exiting now');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal, drainTimeoutMs: DRAIN_TIMEOUT_MS }, 'shutting down: draining in-flight requests');
    const server = idp.app.server;
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    const force = setTimeout(() => {
      log.warn('drain timeout: closing the remaining connections');
      server.closeAllConnections();
    }, DRAIN_TIMEOUT_MS);
    const hard = setTimeout(() => {
      log.error('shutdown did not finish: exiting');
      process.exit(1);
    }, DRAIN_TIMEOUT_MS + 5_000);
    hard.unref();
    idp.close().then(
      () => {
        clearInterval(idle);
        clearTimeout(force);
        log.info('shut down');
        process.exit(0);
      },
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  await idp.app.listen({ port: config.port, host: config.host });

  const keys = idp.ctx.keys.list();
  const lines = [
    '',
    `pqid OpenID Provider listening on http://${config.host}:${config.port}`,
    `  issuer:      ${config.issuer}`,
    `  discovery:   ${config.issuer}/.well-known/openid-configuration`,
    `  data dir:    ${config.dataDir} (${config.databaseUrl.startsWith('sqlite:') ? 'sqlite' : redactDatabaseUrl(config.databaseUrl)})`,
    `  keys:        ${keys.map((k) => `${k.set} ${k.alg} (${k.kid.slice(0, 12)}…)`).join(', ')}${idp.createdKeys.length ? ' — generated now' : ' — reused'}`,
    ...(config.saml.enabled || config.keys.signedJwks
      ? [
          `  cold path:   ${idp.ctx.keys.coldAlg()} root (${[
            ...(config.saml.enabled ? ['SAML certificates and metadata'] : []),
            ...(config.keys.signedJwks ? [`${config.issuer}/jwks.jwt`] : []),
          ].join(', ')})`,
        ]
      : []),
    ...bannerLines(mldsa),
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
  if (e instanceof NativeRequiredError) {
    console.error(
      [
        `pqid: refusing to start: PQID_REQUIRE_NATIVE is set, but ML-DSA would sign on ${e.backend ?? 'no backend'}`,
        `  why:    ${e.why}`,
        ...(e.fix ? [`  to fix: ${e.fix}`] : []),
      ].join('\n'),
    );
    process.exit(3);
  }
  console.error('pqid: failed to start:', e);
  process.exit(1);
});
