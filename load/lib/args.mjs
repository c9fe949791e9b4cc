/** Command-line helpers shared by run.mjs and faults.mjs (parsing itself is node:util parseArgs). */
import { parseArgs } from 'node:util';

/** node:util parseArgs, strict, with the usage text appended to its error. */
export function parseCommandLine(argv, options, usage, { positionals = false } = {}) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: positionals });
  } catch (e) {
    throw new Error(`${e.message}\n${usage}`);
  }
}

/** A positive number from an option value, or undefined when the option was not given. */
export function positive(value, name) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} needs a positive number, got ${value}`);
  return n;
}

/** A comma-separated list, or undefined when the option was not given. */
export const list = (value) => (value === undefined ? undefined : value.split(',').filter(Boolean));
