/**
 * `pqid users add|list|passwd|remove`: an operator's accounts. Passwords are never taken from
 * the command line (password-input.ts). A changed password ends every session the account signed
 * in and revokes every grant issued in them, on every instance (signin/password-change.ts); a
 * removal does that and takes the passkeys and consents too (signin/account-removal.ts).
 * Works on the server's storage, running or not. Every change writes an audit line (JSON, on
 * stderr) that names the account and what was taken back, never the password.
 */
import { checkPassword } from '../accounts/password-policy.ts';
import { actor } from '../keys/audit.ts';
import { forgetConsents } from '../oidc/authorization/consent.ts';
import { removeAccount } from '../signin/account-removal.ts';
import { changePassword, NoSuchUser } from '../signin/password-change.ts';
import { withLock } from '../storage/lock.ts';
import { mapErrors, parse } from './args.ts';
import { CliError, type Command, err, json, out, table, UsageError, unknownSubcommand } from './common.ts';
import { withCli } from './open.ts';
import { readNewPassword } from './password-input.ts';

const HELP = `Usage:
  pqid users add USERNAME [--name NAME] [--email EMAIL [--email-verified]]
  pqid users list [--json]
  pqid users passwd USERNAME [--json]
  pqid users remove USERNAME [--json]

add      create an account; its password is asked twice on a terminal, or read from stdin's
         first line (printf '%s\\n' "$PASSWORD" | pqid users add alice)
list     the accounts: username, subject (sub), name, email
passwd   set a new password, taken the same way; every browser session the user signed in ends
         and every grant (refresh and access tokens) issued in them is revoked, on every
         instance, and the account's sign-in lockout is cleared. Passkeys stay. Relying parties
         with a backchannel_logout_uri are told through the shared outbox (a running server
         delivers it); ID tokens already issued stay valid until they expire.
remove   delete the account: it can no longer sign in, every session it signed in ends and
         every grant issued in them is revoked, on every instance; its passkeys, enrolment code
         and remembered consents go with it. A user added later under the same username is a
         new subject (sub). Relying parties are told as for passwd.

Passwords: at least 8 characters, no control characters, not the username. They are never
taken as arguments, where shell history and ps would keep them.
Exit status: 0 done; 1 the operation failed (e.g. ERR_NO_SUCH_USER, ERR_PASSWORD_POLICY);
2 usage error. Every command also takes --config FILE.`;

/** One JSON line on stderr in the shape of the server's log lines: who, what, never the password. */
function audit(event: Record<string, string | number>, msg: string): void {
  err(JSON.stringify({ level: 30, time: Date.now(), audit: 'accounts', ...event, ...actor('cli'), msg }));
}

function oneUser(positionals: string[], what: string): string {
  const [username] = positionals;
  if (positionals.length !== 1 || !username) throw new UsageError(`users ${what} takes one USERNAME`);
  return username;
}

async function add(rest: string[]): Promise<void> {
  const { values, positionals } = parse({
    args: rest,
    options: {
      name: { type: 'string' },
      email: { type: 'string' },
      'email-verified': { type: 'boolean', default: false },
      config: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  const username = oneUser(positionals, 'add');
  if (values['email-verified'] && values.email === undefined)
    throw new UsageError('--email-verified needs --email');
  const exists = () => new CliError('ERR_USER_EXISTS', `a user ${JSON.stringify(username)} exists already`);
  const account = await mapErrors(() =>
    withCli({ configFile: values.config, withKeys: false }, async (ctx) => {
      if (await ctx.accounts.findByUsername(username)) throw exists();
      const password = await readNewPassword(username);
      checkPassword(password, username);
      // One account per username, also when two operators add the same one at once.
      return withLock(ctx.storage.adapter('Lock'), `account:${username}`, async () => {
        if (await ctx.accounts.findByUsername(username)) throw exists();
        return ctx.accounts.create({
          username,
          password,
          ...(values.name !== undefined ? { name: values.name } : {}),
          ...(values.email !== undefined
            ? { email: values.email, emailVerified: values['email-verified'] }
            : {}),
        });
      });
    }),
  );
  audit({ op: 'account.create', username, sub: account.sub }, `account ${username} created`);
  out(`added ${username} (sub ${account.sub})`);
}

async function list(rest: string[]): Promise<void> {
  const { values } = parse({
    args: rest,
    options: { json: { type: 'boolean', default: false }, config: { type: 'string' } },
    allowPositionals: false,
    strict: true,
  });
  const accounts = await mapErrors(() =>
    withCli({ configFile: values.config, withKeys: false }, (ctx) => ctx.accounts.list()),
  );
  const rows = accounts.map((a) => ({
    username: a.uid,
    sub: a.sub,
    ...(a.name !== undefined ? { name: a.name } : {}),
    ...(a.email !== undefined ? { email: a.email, emailVerified: a.emailVerified ?? false } : {}),
  }));
  if (values.json) out(json({ users: rows }));
  else if (rows.length === 0) out('no users');
  else
    out(
      table(
        ['username', 'sub', 'name', 'email'],
        rows.map((r) => [r.username, r.sub, r.name ?? '-', r.email ?? '-']),
      ),
    );
}

async function passwd(rest: string[]): Promise<void> {
  const { values, positionals } = parse({
    args: rest,
    options: { json: { type: 'boolean', default: false }, config: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const username = oneUser(positionals, 'passwd');
  const change = await mapErrors(() =>
    withCli({ configFile: values.config, withKeys: false }, async (ctx) => {
      // Asked only for a user who exists: a mistyped name costs no typing.
      if (!(await ctx.accounts.findByUsername(username))) throw new NoSuchUser(username);
      return changePassword(ctx, username, await readNewPassword(username));
    }),
  );
  const { sessions, grants, passkeys } = change;
  audit(
    { op: 'account.password', username, sub: change.account.sub, sessions, grants },
    `password of ${username} changed: ${sessions} session(s) ended, ${grants} grant(s) revoked`,
  );
  if (values.json) {
    out(json({ username, sub: change.account.sub, sessions, grants, passkeys }));
    return;
  }
  out(
    `changed the password of ${username}; ended ${sessions} session(s), revoked ${grants} grant(s); ` +
      `kept ${passkeys} passkey(s) (pqid passkeys list ${username})`,
  );
}

async function remove(rest: string[]): Promise<void> {
  const { values, positionals } = parse({
    args: rest,
    options: { json: { type: 'boolean', default: false }, config: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const username = oneUser(positionals, 'remove');
  const { account, sessions, grants, passkeys, consents } = await mapErrors(() =>
    withCli({ configFile: values.config, withKeys: false }, async (ctx) => {
      const removal = await removeAccount(ctx, username);
      return { ...removal, consents: await forgetConsents(ctx, removal.account.sub) };
    }),
  );
  audit(
    { op: 'account.remove', username, sub: account.sub, sessions, grants, passkeys },
    `account ${username} removed: ${sessions} session(s) ended, ${grants} grant(s) revoked`,
  );
  if (values.json) {
    out(json({ username, sub: account.sub, sessions, grants, passkeys, consents }));
    return;
  }
  out(
    `removed ${username} (sub ${account.sub}); ended ${sessions} session(s), revoked ${grants} grant(s), ` +
      `removed ${passkeys} passkey(s), forgot ${consents} consent(s)`,
  );
}

export const users: Command = {
  name: 'users',
  summary: "add, list or remove users, or change a user's password (ending their sessions and tokens)",
  help: HELP,
  async run(args) {
    const [sub, ...rest] = args;
    if (sub === 'add') return add(rest);
    if (sub === 'list') return list(rest);
    if (sub === 'passwd') return passwd(rest);
    if (sub === 'remove') return remove(rest);
    throw unknownSubcommand('users', sub, ['add', 'list', 'passwd', 'remove']);
  },
};
