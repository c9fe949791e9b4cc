/**
 * Checks for single configuration values. Each takes the value from whichever layer gave it (a
 * file, an environment variable's text, an override) and `at`, the name of that source for the
 * message, and returns the value or throws a ConfigError that names the setting.
 */
import { algorithms } from '@pqid/jose';
import { ConfigError } from '../errors/index.ts';

export type Check<T> = (value: unknown, at: string) => T;

const digits = (v: unknown): unknown => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v);

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export const fail = (message: string): never => {
  throw new ConfigError(message);
};

export const port: Check<number> = (value, at) => {
  const n = digits(value);
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 65535)
    fail(`${at} must be a port number 0–65535, got ${JSON.stringify(value)}`);
  return n as number;
};

export const text: Check<string> = (value, at) => {
  if (typeof value !== 'string' || value === '') fail(`${at} must be a non-empty string`);
  return value as string;
};

/** A string that may be empty (the demo's settings are checked only when the demo is on). */
export const anyText: Check<string> = (value, at) => {
  if (typeof value !== 'string') fail(`${at} must be a string`);
  return value as string;
};

export const bool: Check<boolean> = (value, at) => {
  if (typeof value !== 'boolean') fail(`${at} must be a boolean`);
  return value as boolean;
};

/** `false`, `0`, `no`, `off` (any case) are false; any other text is true. */
export const envFlag = (s: string): boolean => !['0', 'false', 'no', 'off'].includes(s.trim().toLowerCase());

export const positiveInt: Check<number> = (value, at) => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)
    fail(`${at} must be a positive integer`);
  return value as number;
};

/** A whole number of seconds ≥ 0, also from an environment string. */
export const seconds: Check<number> = (value, at) => {
  const n = digits(value);
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
    fail(`${at} must be a whole number of seconds ≥ 0, got ${JSON.stringify(value)}`);
  return n as number;
};

/** A whole number of seconds within [min, max]. */
export const secondsIn =
  (min: number, max: number): Check<number> =>
  (value, at) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      fail(`${at} must be a whole number of seconds, ${min}–${max}`);
    return value as number;
  };

/** Seconds, fractions allowed, > 0 and at most `max`. */
export const fractionalSeconds =
  (max: number): Check<number> =>
  (value, at) => {
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > max)
      fail(`${at} must be a number of seconds, > 0 and at most ${max}`);
    return value as number;
  };

export const oneOf =
  <T extends string>(choices: () => readonly T[]): Check<T> =>
  (value, at) => {
    const ok = choices();
    if (typeof value !== 'string' || !ok.includes(value as T))
      fail(`${at} must be one of ${ok.join(', ')}; got ${JSON.stringify(value)}`);
    return value as T;
  };

/** An algorithm of the @pqid/jose registry that this runtime offers. */
export const algorithm: Check<string> = (value, at) => {
  const a = text(value, at);
  if (!algorithms().includes(a))
    fail(`${at}: ${a} is not available; choose one of ${algorithms().join(', ')}`);
  return a;
};

/** A non-empty list of `choices`, duplicates dropped, order kept. */
export const listOf =
  <T extends string>(choices: () => readonly T[], allowEmpty = false): Check<T[]> =>
  (value, at) => {
    const ok = choices();
    if (!Array.isArray(value) || (!allowEmpty && value.length === 0))
      fail(`${at} must be a${allowEmpty ? 'n' : ' non-empty'} array of: ${ok.join(', ')}`);
    for (const v of value as unknown[])
      if (!ok.includes(v as T)) fail(`${at}: unknown value ${JSON.stringify(v)} (known: ${ok.join(', ')})`);
    return [...new Set(value as T[])];
  };

/** The issuer: an https URL (http only for localhost), no query or fragment, no trailing slash. */
export const issuerUrl: Check<string> = (value, at) => {
  if (typeof value !== 'string' || value === '') fail(`${at} must be a URL string`);
  let url: URL;
  try {
    url = new URL(value as string);
  } catch {
    return fail(`${at} is not a valid URL: ${JSON.stringify(value)}`);
  }
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local))
    fail(`${at} must use https (http is allowed only for localhost), got ${value}`);
  if (url.search || url.hash) fail(`${at} must not have a query or fragment (OpenID Connect Discovery §3)`);
  return url.href.replace(/\/+$/, '');
};

/** A bearer secret: at least 16 characters, a random token rather than a word. */
export const secret: Check<string> = (value, at) => {
  if (typeof value !== 'string' || value.length < 16)
    fail(`${at} must be at least 16 characters (a random token, not a word)`);
  return value as string;
};
