#!/usr/bin/env node
/**
 * CPU per access-token write in the IdP's SQLite layout: `node load/sqlite-write.mjs [N]`.
 *
 * N inserts (default 20,000) into a `records` table already holding N rows, WAL with
 * `synchronous = NORMAL` as the IdP opens it, one autocommit per insert as the token endpoint
 * does, for four layouts side by side, each run twice (A B C D D C B A): today's upsert (with the
 * grant-tombstone check), a plain INSERT, no expiry index, and WITHOUT ROWID. Prints process
 * CPU (user, system) and wall time per insert, and the CPU model; compare rows of one run.
 */
import { enter } from './lib/entry.mjs';

await enter({ program: 'load/sqlite-write.mjs' }, () => import('./lib/main/sqlite-write.mjs'));
