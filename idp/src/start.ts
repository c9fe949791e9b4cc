/** `npm start` (through main.ts): load configuration, start the provider, print how to use it. */
import { configure } from '@pqid/jose';
import { createIdp } from './app.ts';
import { bannerText } from './banner.ts';
import { ConfigError, loadConfig, readEnvironment } from './config/index.ts';
import { HeldLog } from './held-log.ts';
import { bannerLines, mldsaBackendReport, NativeRequiredError } from './mldsa-backend.ts';
import { shutdownOnSignal } from './shutdown.ts';

/** The server's log until the banner is out; on a failed start, what was logged still appears. */
const held = new HeldLog();

async function main(): Promise<void> {
  const config = loadConfig({ ...(process.argv[2] ? { file: process.argv[2] } : {}) });
  const { backend, compositeMode, nativeSigning, drainTimeoutMs, shutdownDelayMs } = readEnvironment();
  // The fallback to another ML-DSA backend is reported once, as a structured log line below,
  // instead of @pqid/jose's process warning.
  configure({ backend, compositeMode, nativeSigning, onWarning: null });
  const idp = await createIdp(config, { warn: (m) => console.warn(`warning: ${m}`), logStream: held });
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

  // SIGTERM: /healthz says draining for the shutdown delay, then the listener closes and in-flight
  // requests drain; SIGINT (Ctrl-C) drains at once (shutdown.ts).
  const shutdown = shutdownOnSignal(idp, { shutdownDelayMs, drainTimeoutMs }, () => held.release());
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  await idp.app.listen({ port: config.port, host: config.host });

  // Lines logged so far (key audit, listening, start-up warnings) follow the banner.
  held.release(
    bannerText({
      config,
      keys: idp.ctx.keys.list(),
      created: idp.createdKeys,
      coldAlg: idp.ctx.keys.coldAlg(),
      mldsa: bannerLines(mldsa),
      ...(idp.seed.client ? { demoIdTokenAlg: idp.seed.client.id_token_signed_response_alg } : {}),
    }),
  );
}

main().catch((e: unknown) => {
  held.release();
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
  const listening = listenProblem(e);
  if (listening) {
    console.error(`pqid: ${listening}`);
    process.exit(1);
  }
  console.error('pqid: failed to start:', e);
  process.exit(1);
});

/** A listen error a reader can fix (a second `npm start`, a privileged port), as one line. */
function listenProblem(e: unknown): string | undefined {
  const { code, address, port } = (e ?? {}) as { code?: unknown; address?: unknown; port?: unknown };
  const where = `${address}:${port}`;
  const fix = 'set PQID_PORT (or "port" in the configuration file) to another port';
  if (code === 'EADDRINUSE')
    return `cannot listen on ${where}: the port is in use (another pqid, or another server): stop what listens there, or ${fix}`;
  if (code === 'EACCES')
    return `cannot listen on ${where}: ports below 1024 need privileges: ${fix}, or put a reverse proxy in front`;
  if (code === 'EADDRNOTAVAIL')
    return `cannot listen on ${where}: this machine has no such address: set PQID_HOST (or "host") to one of its own, or 0.0.0.0`;
  return undefined;
}
