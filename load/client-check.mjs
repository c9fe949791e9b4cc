#!/usr/bin/env node
/**
 * What checking a presented token's client costs: `node load/client-check.mjs [--n 20000]`
 * (after `npm run build`).
 *
 * Introspection, userinfo, refresh and code redemption read the token's client from storage
 * (Clients.holderOf), not from the per-instance cache, so that a client removed on another
 * instance ends its tokens at once. This measures that read next to what it is added to, in one
 * SQLite store as the IdP opens it, holding N access-token records, side by side in one run,
 * each twice (A B C C B A): the access-token record lookup (the one read a stored introspection
 * made before), the client from a warm cache (`Clients.find`), and the client from storage
 * (`Clients.holderOf`). Prints CPU µs and wall µs per call and the CPU model; compare rows of one
 * run. The client_credentials hot path does none of these.
 */
import { enter } from './lib/entry.mjs';

await enter({ program: 'load/client-check.mjs' }, () => import('./lib/main/client-check.mjs'));
