/**
 * Command lines of load/'s scripts (parsing itself is node:util parseArgs). As with the pqid CLI,
 * exit 2 is a usage error; here it is one line on stderr, never a stack trace.
 */
import { parseArgs } from 'node:util';
import { requireSupportedNode } from '../../scripts/node-check.mjs';

/** @typedef {Record<string, string | boolean | undefined>} OptionValues */

/** What was typed is wrong, not the measurement: one line on stderr, exit 2. */
export class UsageError extends Error {}

/** @type {{ type: 'boolean', short: 'h' }} */
const HELP = { type: 'boolean', short: 'h' };

/**
 * node:util parseArgs, strict; its errors become UsageErrors. Options are strings or booleans,
 * never repeated.
 * @param {string[]} argv
 * @param {import('node:util').ParseArgsOptionsConfig} options
 * @param {{ positionals?: boolean }} [settings]
 * @returns {{ values: OptionValues, positionals: string[] }}
 */
export function parseCommandLine(argv, options, { positionals = false } = {}) {
  try {
    const parsed = parseArgs({ args: argv, options, strict: true, allowPositionals: positionals });
    return { values: /** @type {OptionValues} */ (parsed.values), positionals: parsed.positionals };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    // Node adds how to pass a positional that starts with '-': none of these scripts takes one.
    throw new UsageError(message.replace(/\. To specify a positional argument.*$/s, ''));
  }
}

/**
 * The one line a usage error prints: what was wrong and how to get the usage.
 * @param {string} program the prefix, e.g. `pqid load`
 * @param {string} help the command that prints the usage, e.g. `npm run load -- --help`
 * @param {unknown} e
 */
export function usageLine(program, help, e) {
  const message = (e instanceof Error ? e.message : String(e)).split('\n')[0]?.replace(/\.$/, '');
  return `${program}: ${message}. Run '${help}' for usage.`;
}

/**
 * The runners' (`npm run load`, `npm run faults`) command line read by `parse`; on a UsageError,
 * its one line on stderr and undefined (the caller exits 2).
 * @template T
 * @param {(argv: string[]) => T} parse
 * @param {string[]} argv
 * @param {string} program the prefix, e.g. `pqid load`
 * @param {string} help the command that prints the usage
 * @returns {T | undefined}
 */
export function readCommandLine(parse, argv, program, help) {
  try {
    return parse(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`${usageLine(program, help, e)}\n`);
    return undefined;
  }
}

/**
 * The start of a measurement script run as `node load/<script>`, before it loads anything an
 * older Node lacks (node:sqlite, @pqid/idp): on an unsupported Node, one line and exit 1; `--help`
 * (or `-h`) prints `usage` and exits 0; a wrong option or value (a UsageError `read` throws)
 * prints one line and exits 2. Returns what `read` makes of the parsed command line.
 * @template T
 * @param {{
 *   script: string,
 *   usage: string,
 *   options: import('node:util').ParseArgsOptionsConfig,
 *   positionals?: boolean,
 *   read: (values: OptionValues, positionals: string[]) => T,
 * }} spec `script` is the file name in load/, e.g. `client-check.mjs`
 * @param {string[]} [argv]
 * @returns {Promise<T>}
 */
export async function startScript(
  { script, usage, options, positionals, read },
  argv = process.argv.slice(2),
) {
  const program = `load/${script}`;
  // Built or not: these scripts may run before `npm run build`.
  await requireSupportedNode(program);
  // A reader that stopped early (`| head`) closes the pipe: no failure, no stack trace.
  process.stdout.on('error', (/** @type {NodeJS.ErrnoException} */ e) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(process.exitCode ?? 0);
  });
  try {
    const parsed = parseCommandLine(argv, { ...options, help: HELP }, { positionals });
    if (parsed.values.help === true) {
      process.stdout.write(`${usage}\n`);
      process.exit(0);
    }
    return read(parsed.values, parsed.positionals);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`${usageLine(program, `node ${program} --help`, e)}\n`);
    process.exit(2);
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
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} needs a positive number, got ${value}`);
  return n;
}

/**
 * A comma-separated list, or undefined when the option was not given.
 * @param {string | boolean | undefined} value
 */
export const list = (value) => (typeof value === 'string' ? value.split(',').filter(Boolean) : undefined);
