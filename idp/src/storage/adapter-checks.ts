/** Argument checks shared by the storage engines, so they refuse the same inputs the same way. */
import type { Payload } from './adapter.ts';

/** insertIfAbsent takes no grant records: only `upsert` honours a grant's revocation. */
export function refuseGrant(payload: Payload): Payload {
  if (payload.grantId !== undefined)
    throw new TypeError('insertIfAbsent does not store grant records; use upsert');
  return payload;
}
