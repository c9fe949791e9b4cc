/**
 * Remembered consent per (account, client). Consent is asked when the request says
 * `prompt=consent`, and before a first `offline_access` grant (OIDC Core §11): a refresh token
 * outlives the session, so the user must have agreed to it for this client at least once.
 * A dynamically registered client (RFC 7591) is a third party nobody vetted — in open mode,
 * anyone's: it gets no scope the user has not allowed it (RFC 7591 §5: its metadata is untrusted), so a
 * signed-in user's data never leaves on a silent redirect.
 */
import type { IdpContext } from '../../context.ts';
import { type Model, model } from '../../storage/model.ts';
import type { AuthRequest } from './request.ts';

interface ConsentRecord {
  scopes: string[];
  updatedAt: number;
}

const consents = (ctx: Pick<IdpContext, 'storage'>): Model<ConsentRecord> =>
  model<ConsentRecord>(ctx.storage, 'Consent');

const key = (accountId: string, clientId: string) => JSON.stringify([accountId, clientId]);

export async function grantedScopes(
  ctx: IdpContext,
  accountId: string,
  clientId: string,
): Promise<Set<string>> {
  const [record, client] = await Promise.all([
    consents(ctx).find(key(accountId, clientId)),
    ctx.clients.find(clientId),
  ]);
  // Consent given to a removed client is not given to one registered since under its id.
  if (record === undefined || record.updatedAt < (client?.client_id_issued_at ?? 0)) return new Set();
  return new Set(record.scopes);
}

export async function needsConsent(
  ctx: IdpContext,
  request: AuthRequest,
  accountId: string,
): Promise<boolean> {
  if (request.prompt.includes('consent')) return true;
  const scopes = request.scope.split(' ').filter(Boolean);
  const asked = request.thirdParty ? scopes : scopes.filter((s) => s === 'offline_access');
  if (asked.length === 0) return false;
  const granted = await grantedScopes(ctx, accountId, request.clientId);
  return asked.some((s) => !granted.has(s));
}

/** Forget every consent `accountId` gave (the account is being removed); how many there were. */
export async function forgetConsents(ctx: Pick<IdpContext, 'storage'>, accountId: string): Promise<number> {
  // Keyed by (account, client) with no index by account: an operator's removal reads them all.
  const prefix = JSON.stringify([accountId, '']).slice(0, -3);
  const store = consents(ctx);
  let forgotten = 0;
  for (const { id } of await store.list()) {
    if (!id.startsWith(prefix)) continue;
    await store.destroy(id);
    forgotten++;
  }
  return forgotten;
}

export async function rememberConsent(
  ctx: IdpContext,
  accountId: string,
  clientId: string,
  scope: string,
): Promise<void> {
  const scopes = await grantedScopes(ctx, accountId, clientId);
  for (const s of scope.split(' ').filter(Boolean)) scopes.add(s);
  const record: ConsentRecord = { scopes: [...scopes], updatedAt: Math.floor(Date.now() / 1000) };
  await consents(ctx).upsert(key(accountId, clientId), record);
}
