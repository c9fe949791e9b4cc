/**
 * The outbox of back-channel logout (backchannel.ts): one `LogoutDelivery` record per notice not
 * yet delivered, keyed by session and client, and the lease (a `Lock` record) one instance holds
 * while it tries one.
 */
import type { Client } from '../../clients/clients.ts';
import type { IdpContext } from '../../context.ts';
import { tokenId } from '../../crypto/secrets.ts';
import { type Model, model } from '../../storage/model.ts';
import { takeLoggedInClients } from './session-clients.ts';

/**
 * A notice not delivered within a day (every instance down, or failing, that long) is given up:
 * the RP's own sessions have most likely ended by then, and the outbox stays bounded.
 */
export const DELIVERY_MAX_AGE = 86_400;
/** The record outlives DELIVERY_MAX_AGE a little, so a sweep sees it and gives it up in the log. */
export const RECORD_GRACE = 3600;

/** One pending notice in the outbox (`LogoutDelivery` model), keyed by sid and client. */
export interface DeliveryRecord {
  [member: string]: unknown;
  clientId: string;
  sub: string;
  sid: string;
  /** The number of the next try (1 = not tried yet). */
  attempt: number;
  /** Epoch ms of the next try. */
  due: number;
  /** Epoch ms when the session ended. */
  created: number;
  /** The signed logout token, once signed: a retry resends it while it lives. */
  token?: string;
  /** The token's `exp` (epoch seconds). */
  tokenExp?: number;
}

export const outbox = (ctx: IdpContext): Model<DeliveryRecord> =>
  model<DeliveryRecord>(ctx.storage, 'LogoutDelivery');

/** The outbox record id: one notice per (sid, client), so writing it twice stores it once. */
export const deliveryId = (sid: string, clientId: string) => tokenId(`logout\0${sid}\0${clientId}`);
/** The lease of one delivery, in the `Lock` model. */
export const leaseId = (id: string) => `logout-delivery:${id}`;

/** A new notice, due now. */
export function newDelivery(clientId: string, sub: string, sid: string): DeliveryRecord {
  const now = Date.now();
  return { clientId, sub, sid, attempt: 1, due: now, created: now };
}

/** Seconds the record has left in the store (its expiry stays where it was set). */
export function keepFor(record: DeliveryRecord): number {
  const end = record.created + (DELIVERY_MAX_AGE + RECORD_GRACE) * 1000;
  return Math.max(1, Math.ceil((end - Date.now()) / 1000));
}

/**
 * Put the notices of an ended session in the outbox: one for each of its clients that registered
 * a `backchannel_logout_uri`. `clients`: the session's clients when the caller has read them
 * already, else they are read (and taken) here. Returns the record ids, for an instance to
 * deliver at once; otherwise the next sweep of any instance delivers them.
 */
export async function queueNotices(
  ctx: IdpContext,
  { sid, accountId, clients }: { sid: string; accountId: string; clients?: Client[] },
): Promise<string[]> {
  const store = outbox(ctx);
  const ids = await Promise.all(
    (clients ?? (await takeLoggedInClients(ctx, sid))).map(async (client) => {
      if (!client.backchannel_logout_uri) return undefined;
      const id = deliveryId(sid, client.client_id);
      // A second write of the same notice (never expected) leaves the first one alone.
      await store.insertIfAbsent(
        id,
        newDelivery(client.client_id, accountId, sid),
        DELIVERY_MAX_AGE + RECORD_GRACE,
      );
      return id;
    }),
  );
  return ids.filter((id): id is string => id !== undefined);
}
