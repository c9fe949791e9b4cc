/**
 * A new password for `pqid users add|passwd`, never from the command line, where it would stay in
 * the shell's history and show in `ps`: on a terminal it is asked for twice without echo;
 * otherwise it is the first line of stdin (`printf '%s\n' "$PW" | pqid users passwd alice`, or a
 * file redirected in), the line break removed and nothing else.
 */
import { CliError, readStdin, UsageError } from './common.ts';

/** The password on stdin: its first line, without the line break. */
export function firstLine(text: string): string {
  const end = text.search(/\r?\n/);
  return end < 0 ? text : text.slice(0, end);
}

/** One line typed on the terminal with echo off; Ctrl-C or Ctrl-D gives up. */
function askHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let line = '';
    const done = (f: () => void) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      f();
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done(() => resolve(line));
        if (ch === '\u0003' || ch === '\u0004')
          return done(() => reject(new CliError('ERR_NOT_CONFIRMED', 'cancelled: nothing was changed')));
        if (ch === '\u007f' || ch === '\b') line = [...line].slice(0, -1).join('');
        else line += ch;
      }
    };
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}

/** The new password for `username`: asked twice on a terminal, else stdin's first line. */
export async function readNewPassword(username: string): Promise<string> {
  if (process.stdin.isTTY && process.stderr.isTTY) {
    const first = await askHidden(`New password for ${username}: `);
    const again = await askHidden('Again: ');
    if (first !== again)
      throw new CliError('ERR_PASSWORD_MISMATCH', 'the two passwords differ: nothing was changed');
    return first;
  }
  if (process.stdin.isTTY)
    throw new UsageError('the password is read from stdin or asked on a terminal; pipe it in');
  const password = firstLine(await readStdin());
  if (password === '') throw new UsageError('no password on stdin (its first line is the password)');
  return password;
}
