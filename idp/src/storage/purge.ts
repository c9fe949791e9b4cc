import type { Storage } from './adapter.ts';

export interface PurgeScheduleOptions {
  /** Seconds between sweeps; 0 schedules nothing. */
  intervalSeconds: number;
  /** Records per purgeExpired call; the sweep yields to the event loop between calls. */
  batch?: number;
  onSwept?: (deleted: number) => void;
  onError?: (err: unknown) => void;
}

/**
 * Sweeps expired records on a timer, in bounded batches, so the table of issued tokens stays
 * the size of the live ones. The timer is unref'd (it never keeps the process alive) and a
 * sweep never overlaps the next. Returns a stop function that also waits for a running sweep.
 */
export function schedulePurge(storage: Storage, opts: PurgeScheduleOptions): () => Promise<void> {
  if (opts.intervalSeconds <= 0) return async () => {};
  const batch = opts.batch ?? 2000;
  let stopped = false;
  let running: Promise<void> | undefined;

  async function sweep(): Promise<void> {
    let total = 0;
    for (;;) {
      if (stopped) break;
      const n = await storage.purgeExpired(batch);
      total += n;
      if (n < batch) break;
      await new Promise((r) => setImmediate(r));
    }
    opts.onSwept?.(total);
  }

  const timer = setInterval(() => {
    if (running) return;
    running = sweep()
      .catch((err: unknown) => opts.onError?.(err))
      .finally(() => {
        running = undefined;
      });
  }, opts.intervalSeconds * 1000);
  timer.unref();

  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
