/**
 * Remembered consent per (account, client). Consent is asked when the request says
 * `prompt=consent`, and before a first `offline_access` grant (OIDC Core §11): a refresh token
 * outlives the session, so the user must have agreed to it for this client at least once.
 */
import type { IdpContext } from '../context.ts';
import type { AuthRequest } from './authorize-request.ts';

interface ConsentRecord {
  [member: string]: unknown;
  scopes: string[];
  updatedAt: number;
}

const key = (accountId: string, clientId: string) => JSON.stringify([accountId, clientId]);

export async function grantedScopes(
  ctx: IdpContext,
  accountId: string,
  clientId: string,
): Promise<Set<string>> {
  const record = (await ctx.storage.adapter('Consent').find(key(accountId, clientId))) as
    | ConsentRecord
    | undefined;
  return new Set(record?.scopes ?? []);
}

export async function needsConsent(
  ctx: IdpContext,
  request: AuthRequest,
  accountId: string,
): Promise<boolean> {
  if (request.prompt.includes('consent')) return true;
  if (!request.scope.split(' ').includes('offline_access')) return false;
  return !(await grantedScopes(ctx, accountId, request.clientId)).has('offline_access');
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
  await ctx.storage.adapter('Consent').upsert(key(accountId, clientId), record);
}
