/**
 * Shared plumbing of the `pqid` CLI: errors and exit codes, input (files, stdin, URLs),
 * output (JSON, plain-text tables).
 *
 * Exit codes: 0 success; 1 the operation failed (verification, bad key or token, I/O);
 * 2 the command line itself is wrong (unknown option, missing or malformed argument).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { PqidError } from '@pqid/jose';
import { IdpError, UsageError } from '../errors/index.ts';

/** The command line is wrong (errors/families.ts): exit 2, with a pointer to `--help`. */
export { UsageError };

/** The operation failed for a reason outside the library (input files, stdin): exit 1. */
export class CliError extends IdpError<string> {
  constructor(code: string, message: string, options?: ErrorOptions) {
    super(code, message, options ?? {});
  }
}

export interface Command {
  name: string;
  summary: string;
  help: string;
  run(args: string[]): Promise<void>;
}

export const out = (s: string): void => {
  process.stdout.write(s.endsWith('\n') ? s : `${s}\n`);
};
export const err = (s: string): void => {
  process.stderr.write(s.endsWith('\n') ? s : `${s}\n`);
};
export const json = (v: unknown): string => JSON.stringify(v, null, 2);

/** A missing or unknown subcommand, answered with the ones there are. */
export function unknownSubcommand(
  command: string,
  sub: string | undefined,
  subs: readonly string[],
): UsageError {
  const list = `${subs.slice(0, -1).join(', ')} or ${subs.at(-1)}`;
  return new UsageError(
    sub === undefined
      ? `${command} needs ${list}`
      : `unknown ${command} command ${JSON.stringify(sub)}; choose ${list}`,
  );
}

/** `items` comma-separated in lines of at most `width` characters, each indented by `indent` spaces. */
export function wrapList(items: readonly string[], indent: number, width = 100): string {
  const lines: string[] = [];
  let line = '';
  for (const [i, item] of items.entries()) {
    const word = i < items.length - 1 ? `${item},` : item;
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l) => `${' '.repeat(indent)}${l}`).join('\n');
}

/** Runs `parseArgs`, turning its TypeErrors (unknown option, missing value, …) into usage errors. */
/**
 * Node's parse errors, with its advice for an argument that starts with '-' (a key or credential
 * id can: they are base64url) said plainly instead of in its mis-quoted example.
 */
function plainParseError(message: string): string {
  const at = message.indexOf('. To specify a positional argument starting with');
  if (at < 0) return message;
  return `${message.slice(0, at)}. An argument that starts with '-' (a key or credential id, say) goes after '--' at the end of the command: … -- -xyz`;
}

export function parse<R>(f: () => R): R {
  try {
    return f();
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))
      throw new UsageError(plainParseError((e as Error).message));
    throw e;
  }
}

export function required<T>(value: T | undefined, flag: string, why = ''): T {
  if (value === undefined || value === '')
    throw new UsageError(`${flag} is required${why ? ` (${why})` : ''}`);
  return value;
}

/** Maps an error to its message on stderr and an exit code; stack traces only when `debug` (PQID_DEBUG=1). */
export function report(prefix: string, e: unknown, debug = false): number {
  if (e instanceof UsageError) {
    err(`${prefix}: ${e.code}: ${e.message}`);
    err(`Run '${prefix} --help' for usage.`);
    return 2;
  }
  if (e instanceof PqidError || e instanceof CliError) {
    err(`${prefix}: ${e.code}: ${e.message}`);
    if (debug && e.stack) err(e.stack);
    return 1;
  }
  const code = (e as { code?: unknown })?.code;
  const message = e instanceof Error ? e.message : String(e);
  err(`${prefix}: ${typeof code === 'string' ? code : 'ERR_INTERNAL'}: ${message}`);
  if (debug && e instanceof Error && e.stack) err(e.stack);
  return 1;
}

// ---- input ------------------------------------------------------------------------------

export async function readText(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as { code?: string }).code ?? 'ERR_IO';
    throw new CliError('ERR_INPUT_UNREADABLE', `cannot read ${what} "${path}": ${code}`, { cause: e });
  }
}

/** Parses JSON without echoing the input in the error: it may be a private key. */
export function parseJsonText(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError('ERR_INPUT_NOT_JSON', `${what} is not valid JSON`);
  }
}

export async function readJsonFile(path: string, what: string): Promise<unknown> {
  return parseJsonText(await readText(path, what), `${what} "${path}"`);
}

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The token from the positional argument, else from stdin (whitespace trimmed). */
export async function tokenArg(positionals: string[]): Promise<string> {
  if (positionals.length > 1) throw new UsageError('expected at most one token argument');
  const arg = positionals[0];
  if (arg !== undefined && arg !== '-') return arg.trim();
  if (process.stdin.isTTY) throw new UsageError('pass a token as the argument or pipe one on stdin');
  const token = (await readStdin()).trim();
  if (!token) throw new UsageError('no token on stdin');
  return token;
}

/** Writes a file that must not already exist (keys are never silently overwritten). */
export async function writeNewFile(path: string, content: string, mode: number): Promise<void> {
  try {
    await writeFile(path, content, { flag: 'wx', mode });
  } catch (e) {
    const code = (e as { code?: string }).code ?? 'ERR_IO';
    const hint = code === 'EEXIST' ? ' (refusing to overwrite an existing file)' : '';
    throw new CliError('ERR_OUTPUT_UNWRITABLE', `cannot write "${path}": ${code}${hint}`, { cause: e });
  }
}

export function parseHex(value: string, flag: string, bytes?: number): Uint8Array {
  const v = value.trim().replace(/^0x/i, '');
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(v)) throw new UsageError(`${flag} must be hex`);
  if (bytes !== undefined && v.length !== bytes * 2)
    throw new UsageError(`${flag} must be ${bytes} bytes (${bytes * 2} hex digits), got ${v.length / 2}`);
  return new Uint8Array(Buffer.from(v, 'hex'));
}

const SPAN = /^(\d+)\s*(s|sec|secs|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|weeks?)?$/i;
const UNIT: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

/** A time span option (`600`, `30s`, `10m`, `2h`, `7d`) in seconds, validated here so a typo is a usage error. */
export function parseSpan(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const m = SPAN.exec(value.trim());
  if (!m)
    throw new UsageError(
      `${flag} must be seconds or a span like 30s, 10m, 2h, 7d; got ${JSON.stringify(value)}`,
    );
  return Number(m[1]) * (UNIT[(m[2] ?? 's')[0]?.toLowerCase() as string] as number);
}

/** `--alg a,b --alg c` → [a, b, c]. */
export const splitList = (values: string[] | undefined): string[] =>
  (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);

// ---- output -----------------------------------------------------------------------------

const NUMERIC = /^[-+]?[\d,.]+(?:\s?[%×x]|\s?µs)?$/;

/** A plain-text table; numeric cells are right-aligned. */
export function table(head: string[], rows: (string | number | boolean)[][]): string {
  const cells = rows.map((r) => r.map((c) => (typeof c === 'boolean' ? (c ? 'yes' : 'no') : String(c))));
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length)));
  const right = head.map(
    (_, i) => cells.length > 0 && cells.every((r) => NUMERIC.test(r[i] ?? '') || r[i] === '-' || r[i] === ''),
  );
  const line = (r: string[]) =>
    r
      .map((c, i) => (right[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

export const yesNo = (b: boolean): string => (b ? 'fits' : 'does not fit');
