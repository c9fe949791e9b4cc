/**
 * SIGTERM / SIGINT for `npm start`: leave the balancer's rotation, then stop accepting, then drain.
 *
 * 1. The shutdown delay (`PQID_SHUTDOWN_DELAY_MS`, SIGTERM only): /healthz answers 503 `draining` while every
 *    request is still accepted and served, so a balancer that checks /healthz stops sending new
 *    connections before there is nobody to accept them. Closing the listener at once would reset
 *    the connections still in the kernel's accept queue, which a balancer cannot tell from
 *    requests that were processed (the Kubernetes preStop / readiness pattern, built in).
 * 2. The drain: the listener closes (new connections are refused), in-flight requests finish,
 *    keep-alive connections close as soon as they are idle, storage closes, exit 0. After
 *    `PQID_DRAIN_TIMEOUT_MS` the remaining connections are cut.
 *
 * SIGINT skips the delay: it is what Ctrl-C sends at a terminal, where nobody balances traffic,
 * while orchestrators (Kubernetes, Docker, systemd) stop with SIGTERM.
 * A second signal exits at once (code 1), also during the delay.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Idp } from './app.ts';

export interface ShutdownTimes {
  /** Milliseconds /healthz says draining after SIGTERM before the listener closes (0: at once). */
  shutdownDelayMs: number;
  /** Milliseconds in-flight requests get once the listener is closed. */
  drainTimeoutMs: number;
}

/** Past the drain timeout, how long closing storage may take before the process gives up. */
const CLOSE_GRACE_MS = 5_000;
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Close the listener, drain, exit 0 (or 1 when closing fails or hangs). */
function drainAndExit(
  idp: Pick<Idp, 'app' | 'close'>,
  log: FastifyBaseLogger,
  { signal, drainTimeoutMs }: { signal: string; drainTimeoutMs: number },
) {
  log.info({ signal, drainTimeoutMs }, 'shutting down: draining in-flight requests');
  const server = idp.app.server;
  const idle = setInterval(() => server.closeIdleConnections(), 100);
  const force = setTimeout(() => {
    log.warn('drain timeout: closing the remaining connections');
    server.closeAllConnections();
  }, drainTimeoutMs);
  const hard = setTimeout(
    () => {
      log.error('shutdown did not finish: exiting');
      process.exit(1);
    },
    Math.min(drainTimeoutMs + CLOSE_GRACE_MS, MAX_TIMER_MS),
  );
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
}

/**
 * The signal handler: the first signal starts the delay (or the drain), a second exits now.
 * `onFirst` runs before anything is logged (start.ts releases the held start-up log there).
 */
export function shutdownOnSignal(
  idp: Pick<Idp, 'app' | 'close' | 'reportDraining'>,
  times: ShutdownTimes,
  onFirst: () => void = () => {},
): (signal: string) => void {
  const log = idp.app.log;
  let stopping = false;
  return (signal) => {
    if (stopping) {
      log.warn({ signal }, 'second signal during shutdown: exiting now');
      process.exit(1);
    }
    stopping = true;
    onFirst();
    idp.reportDraining();
    const { drainTimeoutMs } = times;
    const shutdownDelayMs = signal === 'SIGTERM' ? times.shutdownDelayMs : 0;
    if (shutdownDelayMs === 0) return drainAndExit(idp, log, { signal, drainTimeoutMs });
    log.info(
      { signal, shutdownDelayMs },
      'shutdown delay: /healthz reports draining, still serving until the listener closes',
    );
    setTimeout(() => {
      log.info({ shutdownDelayMs }, 'shutdown delay over: closing the listener');
      drainAndExit(idp, log, { signal, drainTimeoutMs });
    }, shutdownDelayMs);
  };
}
