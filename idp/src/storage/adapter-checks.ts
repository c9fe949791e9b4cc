/** Argument checks shared by the storage engines, so they refuse the same inputs the same way. */
import type { Payload } from './adapter.ts';

/** insertIfAbsent takes no grant records: only `upsert` honours a grant's revocation. */
export function refuseGrant(payload: Payload): Payload {
  if (payload.grantId !== undefined)
    throw new TypeError('insertIfAbsent does not store grant records; use upsert');
  return payload;
}

/** What an engine writes of a payload: `consumed` is the store's to set, never the caller's. */
export function storable(payload: Payload): Payload {
  const { consumed: _ignored, ...rest } = payload;
  return rest;
}

/** A row's payload as the engines return it: with `consumed` when the row was consumed. */
export function withConsumed(payload: Payload, consumedAt: number | null): Payload {
  if (consumedAt !== null) payload.consumed = consumedAt;
  return payload;
}
