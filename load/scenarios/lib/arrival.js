// Arrival-rate executors shared by the token scenarios, driven by the runner's JSON config:
//   phase "saturate": ramping-arrival-rate up to `ceiling` (the achieved rate is the peak);
//   phase "steady":   constant-arrival-rate at `rate` for `duration` seconds.

/** @param {number} s */
const seconds = (s) => `${Math.max(1, Math.round(s))}s`;

/**
 * @param {{ phase: string, vus: number, duration: number, ceiling?: number, rate?: number }} config
 * @param {{ rampShare: number, gracefulStop: string }} settings
 */
export function arrivalScenario(config, { rampShare, gracefulStop }) {
  const vus = config.vus;
  if (config.phase === 'saturate') {
    const ramp = Math.max(1, Math.round(config.duration * rampShare));
    return {
      executor: 'ramping-arrival-rate',
      startRate: Math.max(1, Math.round((config.ceiling ?? 0) / 10)),
      timeUnit: '1s',
      preAllocatedVUs: vus,
      maxVUs: vus,
      stages: [
        { target: config.ceiling, duration: seconds(ramp) },
        { target: config.ceiling, duration: seconds(config.duration - ramp) },
      ],
      gracefulStop,
    };
  }
  return {
    executor: 'constant-arrival-rate',
    rate: Math.max(1, Math.round(config.rate ?? 0)),
    timeUnit: '1s',
    duration: seconds(config.duration),
    preAllocatedVUs: vus,
    maxVUs: vus,
    gracefulStop,
  };
}
