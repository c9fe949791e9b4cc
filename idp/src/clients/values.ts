/**
 * The value types of client metadata: how a member is read from untrusted JSON (a registration
 * request, a `--metadata` file). Only types are checked here — a string, a flag, a list — and a
 * wrong one is refused with a ClientError naming the member (RFC 7591 §2); what a value means is
 * checked by checks.ts once every member is read.
 */
import { ClientError } from './client-error.ts';

export interface ValueType<T> {
  /** The member's value, type-checked (and copied, so the caller's object is never kept). */
  read(value: unknown, field: string): T;
  /** The type, in words (the documentation of the attribute table). */
  readonly name: string;
}

/** Long enough for any real URL or algorithm name; bounds what a registrant can make us store. */
const MAX_TEXT = 2048;
const MAX_LIST = 32;
const MAX_KEYS = 16;

export const text: ValueType<string> = {
  name: 'string',
  read(v, field) {
    if (typeof v !== 'string' || v === '' || v.length > MAX_TEXT)
      throw new ClientError(`${field} must be a non-empty string`, field);
    return v;
  },
};

export const flag: ValueType<boolean> = {
  name: 'boolean',
  read(v, field) {
    if (typeof v !== 'boolean') throw new ClientError(`${field} must be true or false`, field);
    return v;
  },
};

export const strings: ValueType<string[]> = {
  name: 'array of strings',
  read(v, field) {
    if (
      !Array.isArray(v) ||
      v.length > MAX_LIST ||
      v.some((x) => typeof x !== 'string' || x.length > MAX_TEXT)
    )
      throw new ClientError(`${field} must be an array of strings`, field);
    return [...v];
  },
};

export function oneOf<T extends string>(allowed: readonly T[]): ValueType<T> {
  const isOne = (v: unknown): v is T => typeof v === 'string' && (allowed as readonly string[]).includes(v);
  return {
    name: allowed.map((a) => `\`${a}\``).join(', '),
    read(v, field) {
      if (!isOne(v)) throw new ClientError(`${field} must be one of ${allowed.join(', ')}`, field);
      return v;
    },
  };
}

/** Epoch seconds (members the provider sets). */
export const seconds: ValueType<number> = {
  name: 'epoch seconds',
  read(v, field) {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
      throw new ClientError(`${field} must be epoch seconds`, field);
    return v;
  },
};

/** A JWK set as sent: its keys are checked by checks.ts (`publicJwks`). */
export const jwkSet: ValueType<{ keys: unknown[] }> = {
  name: 'JWK set',
  read(v, field) {
    const keys = typeof v === 'object' && v !== null && 'keys' in v ? v.keys : undefined;
    if (!Array.isArray(keys))
      throw new ClientError('jwks must be a JWK set: an object with a "keys" array', field);
    if (keys.length > MAX_KEYS) throw new ClientError(`jwks may hold at most ${MAX_KEYS} keys`, field);
    return { keys: keys.map((k: unknown) => (typeof k === 'object' && k !== null ? { ...k } : k)) };
  },
};
