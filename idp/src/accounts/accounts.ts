/** End users: stored under a random `sub`, found by username (the adapter's uid). */
import { hashSecret, randomToken, verifySecret } from '../crypto/secrets.ts';
import type { Adapter } from '../storage/adapter.ts';
import { type Model, typed } from '../storage/model.ts';

export interface Account {
  sub: string;
  /** The username: the adapter's secondary key. */
  uid: string;
  passwordHash: string;
  name?: string;
  email?: string;
  emailVerified?: boolean;
}

export class Accounts {
  readonly #store: Model<Account>;
  constructor(store: Adapter) {
    this.#store = typed<Account>(store);
  }

  async create(input: {
    username: string;
    password: string;
    name?: string;
    email?: string;
    emailVerified?: boolean;
  }): Promise<Account> {
    const account: Account = {
      sub: randomToken(16),
      uid: input.username,
      passwordHash: await hashSecret(input.password),
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.email !== undefined
        ? { email: input.email, emailVerified: input.emailVerified ?? false }
        : {}),
    };
    await this.#store.upsert(account.sub, account);
    return account;
  }

  /**
   * Replace the password of `username`'s account with `password`'s hash; the account, or
   * undefined when there is none. Only the hash changes: what the old password opened is taken
   * back by the caller (signin/password-change.ts).
   */
  async setPassword(username: string, password: string): Promise<Account | undefined> {
    const account = await this.findByUsername(username);
    if (!account) return undefined;
    const updated: Account = { ...account, passwordHash: await hashSecret(password) };
    await this.#store.upsert(account.sub, updated);
    return updated;
  }

  /** Delete the account stored under `sub`; what it signed in is taken back by the caller. */
  async remove(sub: string): Promise<void> {
    await this.#store.destroy(sub);
  }

  /** Every account, oldest first: for an operator's listing. */
  async list(): Promise<Account[]> {
    return (await this.#store.list()).map((r) => r.payload);
  }

  async find(sub: string): Promise<Account | undefined> {
    return this.#store.find(sub);
  }

  async findByUsername(username: string): Promise<Account | undefined> {
    return this.#store.findByUid(username);
  }

  /** The account if the password is right; the same work and the same answer otherwise. */
  async authenticate(username: string, password: string): Promise<Account | undefined> {
    const account = username ? await this.findByUsername(username) : undefined;
    const ok = await verifySecret(password, account?.passwordHash);
    return ok ? account : undefined;
  }

  /** Claims released for the granted scopes (OIDC Core §5.4). */
  static claims(account: Account, scopes: ReadonlySet<string>): Record<string, unknown> {
    const claims: Record<string, unknown> = { sub: account.sub };
    if (scopes.has('profile')) {
      claims.preferred_username = account.uid;
      if (account.name !== undefined) claims.name = account.name;
    }
    if (scopes.has('email') && account.email !== undefined) {
      claims.email = account.email;
      claims.email_verified = account.emailVerified ?? false;
    }
    return claims;
  }
}
