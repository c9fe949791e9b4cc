/**
 * A command that would create and activate a signing key as a side effect (a client or SP whose
 * algorithm has no key yet) says so first: the key is published at once and signs from then on,
 * which an operator should decide, not discover. On a terminal it asks; elsewhere (scripts, CI)
 * it needs `--yes` and says so; with `--yes` it still says what it does. Declined, nothing changes
 * (exit 1).
 */
import { createInterface } from 'node:readline/promises';
import { CliError, err, UsageError } from './common.ts';

/** What the question is about: the algorithms without a key, and which set they would join. */
export interface NewKeys {
  algs: readonly string[];
  set: string;
  /** What the command was doing, e.g. "adding this client". */
  doing: string;
}

const describe = ({ algs, set, doing }: NewKeys): string =>
  `${doing} creates and activates a new ${set} signing key for ${algs.join(', ')} (none exists yet); it is published at once`;

/** Resolves when the operator agreed (`--yes`, or "y" on a terminal); else a usage error naming the flag. */
export async function confirmNewKeys(keys: NewKeys, yes: boolean): Promise<void> {
  if (keys.algs.length === 0) return;
  const what = describe(keys);
  // Agreed in advance: still say what happens, where the client's JSON is not.
  if (yes) return err(`note: ${what} (--yes)`);
  if (process.stdin.isTTY && process.stderr.isTTY) {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    let answer: string;
    try {
      answer = await rl.question(`${what}. Create it? [y/N] `);
    } finally {
      rl.close();
    }
    if (/^y(es)?$/i.test(answer.trim())) return;
    throw new CliError('ERR_NOT_CONFIRMED', 'not confirmed: nothing was added and no key was created');
  }
  throw new UsageError(
    `${what}: run again with --yes to create it, or choose an algorithm that has a key (pqid keys list)`,
  );
}
