/**
 * Which clients (those with a back- or front-channel logout URI) received an authorization code
 * within one browser session, by its public id (`sid`), so that ending the session can tell each
 * of them (back-channel logout tokens, front-channel iframes). One record per session, read once
 * when it ends. Kept in the shared store, so the instance that ends a session reaches clients
 * another instance served.
 * A read-modify-write: two authorizations finishing at the same instant in one session may
 * leave one client out (both are still signed out of the IdP; only that RP's notice is lost).
 */
import type { Client } from '../../clients/clients.ts';
import type { IdpContext } from '../../context.ts';
import { tokenId } from '../../crypto/secrets.ts';
import { type Model, model } from '../../storage/model.ts';

interface SessionClientsRecord {
  accountId: string;
  clients: string[];
}

const sessionClients = (ctx: IdpContext): Model<SessionClientsRecord> =>
  model<SessionClientsRecord>(ctx.storage, 'SessionClients');

const key = (sid: string) => tokenId(`sid\0${sid}`);

export async function rememberSessionClient(
  ctx: IdpContext,
  sid: string,
  accountId: string,
  clientId: string,
): Promise<void> {
  const store = sessionClients(ctx);
  const record = await store.find(key(sid));
  if (record?.clients.includes(clientId)) return;
  const next: SessionClientsRecord = { accountId, clients: [...(record?.clients ?? []), clientId] };
  // No longer than a session can live: after that there is nothing left to sign out of.
  await store.upsert(key(sid), next, ctx.config.ttl.session);
}

/** The clients of an ended session, forgotten as they are read (each is told once). */
export async function takeSessionClients(
  ctx: IdpContext,
  sid: string,
): Promise<{ accountId: string; clients: string[] } | undefined> {
  const store = sessionClients(ctx);
  const record = await store.find(key(sid));
  if (!record || record.consumed !== undefined || !(await store.consume(key(sid)))) return undefined;
  return { accountId: record.accountId, clients: record.clients };
}

/**
 * The registered clients of an ended session, taken as `takeSessionClients` does; clients since
 * removed are left out. Every logout channel is served from this one read.
 */
export async function takeLoggedInClients(ctx: IdpContext, sid: string): Promise<Client[]> {
  const taken = await takeSessionClients(ctx, sid);
  const clients = await Promise.all((taken?.clients ?? []).map((id) => ctx.clients.find(id)));
  return clients.filter((c): c is Client => c !== undefined);
}
