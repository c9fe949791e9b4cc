/** The `loginLimits` configuration section: brute-force protection of the login form. */
export interface LoginLimitsConfig {
  /** Sliding window, seconds: failures older than this no longer count, and a lockout ends. */
  window: number;
  /** Failed logins for one username (existing or not) within the window before it is locked. */
  maxFailuresPerAccount: number;
  /** Failed logins from one client address within the window (password spraying). */
  maxFailuresPerAddress: number;
}

export const LOGIN_LIMITS_DEFAULTS: LoginLimitsConfig = {
  window: 900,
  maxFailuresPerAccount: 5,
  maxFailuresPerAddress: 50,
};

export function parseLoginLimits(layers: unknown[], fail: (message: string) => never): LoginLimitsConfig {
  const cfg = { ...LOGIN_LIMITS_DEFAULTS };
  for (const raw of layers) {
    if (raw === undefined) continue;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('loginLimits must be an object');
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
      if (!(k in cfg)) fail(`loginLimits: unknown setting "${k}"`);
      if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0)
        fail(`loginLimits.${k} must be a positive integer`);
      cfg[k as keyof LoginLimitsConfig] = v;
    }
  }
  return cfg;
}
