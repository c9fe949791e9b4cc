/** Command-line helpers shared by run.mjs and faults.mjs (parsing itself is node:util parseArgs). */
import { parseArgs } from 'node:util';

/** @typedef {Record<string, string | boolean | undefined>} OptionValues */

/**
 * node:util parseArgs, strict, with the usage text appended to its error. Options are strings or
 * booleans, never repeated.
 * @param {string[]} argv
 * @param {import('node:util').ParseArgsOptionsConfig} options
 * @param {string} usage
 * @param {{ positionals?: boolean }} [settings]
 * @returns {{ values: OptionValues, positionals: string[] }}
 */
export function parseCommandLine(argv, options, usage, { positionals = false } = {}) {
  try {
    const parsed = parseArgs({ args: argv, options, strict: true, allowPositionals: positionals });
    return { values: /** @type {OptionValues} */ (parsed.values), positionals: parsed.positionals };
  } catch (e) {
    throw new Error(`${e instanceof Error ? e.message : e}\n${usage}`);
  }
}

/**
 * A positive number from an option value, or undefined when the option was not given.
 * @param {string | boolean | undefined} value
 * @param {string} name
 */
export function positive(value, name) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} needs a positive number, got ${value}`);
  return n;
}

/**
 * A comma-separated list, or undefined when the option was not given.
 * @param {string | boolean | undefined} value
 */
export const list = (value) => (typeof value === 'string' ? value.split(',').filter(Boolean) : undefined);
