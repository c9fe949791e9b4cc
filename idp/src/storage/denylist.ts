/**
 * The access-token denylist: what revocation writes for JWT access tokens that are not stored
 * (`accessTokenStorage: stateless`), and what introspection and userinfo consult after verifying
 * such a token's signature. An entry names one token (its `jti`) or a grant (every token carrying
 * that grant id), and lives in the shared store as long as the tokens it names can: it expires
 * with them and the purge sweeps it like any expired record, so the list stays the size of what
 * was revoked lately.
 */
import type { Storage } from './adapter.ts';
import { type Model, model } from './model.ts';

/**
 * Seconds an entry outlives the tokens it names. Instances compare `exp` with their own clocks
 * while PostgreSQL expires entries by the database's: the margin keeps a revoked token from
 * coming back on an instance whose clock runs behind by less than this.
 */
export const DENYLIST_MARGIN_SECONDS = 60;

/**
 * What an entry is about: one token or one grant. A removed client's tokens need none: every
 * presented token is checked against its client's registration (Clients.holderOf).
 */
export type DeniedKind = 'jti' | 'grant';

interface DenylistEntry {
  /** Epoch seconds of the revocation. */
  at: number;
}

/** What verification found in a token that the denylist may name. */
export interface DenylistSubject {
  jti: string;
  grantId?: string;
}

const now = () => Math.floor(Date.now() / 1000);

const entries = (storage: Pick<Storage, 'adapter'>): Model<DenylistEntry> =>
  model<DenylistEntry>(storage, 'AccessTokenDenylist');

/**
 * Deny `id` for `lifetime` more seconds (the longest a token it names can still live). An
 * upsert: revoking twice keeps one entry, with the later time.
 */
export function deny(
  storage: Pick<Storage, 'adapter'>,
  kind: DeniedKind,
  id: string,
  lifetime: number,
): Promise<void> {
  return entries(storage).upsert(
    `${kind}:${id}`,
    { at: now() },
    Math.max(1, lifetime) + DENYLIST_MARGIN_SECONDS,
  );
}

/** Whether a verified token is revoked: its `jti` or its grant. */
export async function isDenied(storage: Pick<Storage, 'adapter'>, t: DenylistSubject): Promise<boolean> {
  const list = entries(storage);
  const [token, grant] = await Promise.all([
    list.find(`jti:${t.jti}`),
    t.grantId !== undefined ? list.find(`grant:${t.grantId}`) : undefined,
  ]);
  return token !== undefined || grant !== undefined;
}

/**
 * Revoke a grant for good: its stored records go (Storage.revokeGrant) and its stateless access
 * tokens, which carry the grant id, are denied for as long as one issued now could live. Every
 * grant revocation goes through here (code replay, refresh-token reuse, RFC 7009, passkey removal),
 * whatever the storage mode of the grant's tokens: a grant may have tokens of both. True when
 * the grant still had a stored record that had not expired (Storage.revokeGrant).
 */
export async function revokeGrant(
  storage: Pick<Storage, 'adapter' | 'revokeGrant'>,
  grantId: string,
  accessTokenLifetime: number,
): Promise<boolean> {
  await deny(storage, 'grant', grantId, accessTokenLifetime);
  return storage.revokeGrant(grantId);
}
