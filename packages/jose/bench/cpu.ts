/**
 * CPU per signature under concurrency, the way a server spends it: `signJwt` with `inFlight`
 * signatures outstanding (so the native queue batches as it does under load), timed against
 * wall clock, the whole process's CPU (`process.cpuUsage`: the event loop plus the libuv pool)
 * and the event loop's own CPU (`process.threadCpuUsage`). Tokens per core-second is 10⁶ ÷
 * process CPU µs per token; main-thread µs per token is what each signature takes from the
 * event loop.
 */

export interface CpuStats {
  tokens: number;
  wallMs: number;
  /** Process CPU (all threads) per token, µs. */
  cpuUs: number;
  /** Event-loop thread CPU per token, µs. */
  mainUs: number;
  /** 10⁶ / cpuUs. */
  perCoreSecond: number;
  perWallSecond: number;
}

const us = (u: NodeJS.CpuUsage) => u.user + u.system;

/** Runs `op` until `budgetMs` has passed with `inFlight` calls outstanding; at least `min` ops. */
export async function cpuPerOp(
  op: () => Promise<unknown>,
  { budgetMs, inFlight = 16, min = 64 }: { budgetMs: number; inFlight?: number; min?: number },
): Promise<CpuStats> {
  for (let i = 0; i < Math.min(inFlight * 2, 32); i++) await op(); // warm-up
  const end = performance.now() + budgetMs;
  let done = 0;
  const t0 = performance.now();
  const p0 = process.cpuUsage();
  const m0 = process.threadCpuUsage();
  const worker = async () => {
    while (done < min || performance.now() < end) {
      done++;
      await op();
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const wallMs = performance.now() - t0;
  const cpu = us(process.cpuUsage(p0)) / done;
  const main = us(process.threadCpuUsage(m0)) / done;
  return {
    tokens: done,
    wallMs,
    cpuUs: cpu,
    mainUs: main,
    perCoreSecond: 1e6 / cpu,
    perWallSecond: (done * 1000) / wallMs,
  };
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0
    ? Number.NaN
    : n % 2
      ? (s[(n - 1) / 2] as number)
      : ((s[n / 2 - 1] as number) + (s[n / 2] as number)) / 2;
};
