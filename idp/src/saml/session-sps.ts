/**
 * Which SPs received an assertion within one browser session, by its public id (`sid`). A signed
 * LogoutRequest that names the user by a persistent identifier, without this session's
 * SessionIndex, ends the session only when its SP took part in it (slo.ts): an SP the user never
 * used in this session cannot sign them out silently. Kept in the shared store, so every instance
 * knows what the others issued. A read-modify-write: two logins to different SPs at the same
 * instant may leave one out, which costs that SP a confirmation page at logout, never a silent
 * logout.
 */
import type { IdpContext } from '../context.ts';
import { tokenId } from '../crypto/secrets.ts';
import { type Model, model } from '../storage/model.ts';

interface SessionSpsRecord {
  accountId: string;
  sps: string[];
}

const key = (sid: string) => tokenId(`saml-sps\0${sid}`);
const sessionSpsOf = (ctx: IdpContext): Model<SessionSpsRecord> =>
  model<SessionSpsRecord>(ctx.storage, 'SamlSessionSps');

export async function rememberSessionSp(
  ctx: IdpContext,
  sid: string,
  accountId: string,
  spEntityId: string,
): Promise<void> {
  const store = sessionSpsOf(ctx);
  const record = await store.find(key(sid));
  if (record?.accountId === accountId && record.sps.includes(spEntityId)) return;
  const sps = record?.accountId === accountId ? [...record.sps, spEntityId] : [spEntityId];
  const next: SessionSpsRecord = { accountId, sps };
  await store.upsert(key(sid), next, ctx.config.ttl.session);
}

/** Whether `spEntityId` received an assertion for `accountId` in the session `sid`. */
export async function tookPart(
  ctx: IdpContext,
  sid: string,
  accountId: string,
  spEntityId: string,
): Promise<boolean> {
  const record = await sessionSpsOf(ctx).find(key(sid));
  return record?.accountId === accountId && record.sps.includes(spEntityId);
}
