/**
 * A claim between instances sharing one store, built on `insertIfAbsent`: whoever inserts the
 * lock record runs the job, the others wait for it to go. For rare one-time jobs only (the first
 * signing key of an algorithm, the demo seed), never on a request's hot path. The record expires
 * after `ttl` seconds, so an instance that dies holding it blocks the others for at most that long.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { IdpError } from '../errors/index.ts';
import type { Adapter } from './adapter.ts';
import { typed } from './model.ts';

/** A held lock: who holds it (a random id per claim). */
interface LockRecord {
  owner: string;
}

export interface LockOptions {
  /** Seconds until a lock left behind by a dead holder expires (default 30). */
  ttl?: number;
  /** Milliseconds to wait for the lock before giving up with an error (default 60 s). */
  wait?: number;
  /** Milliseconds between attempts (default 50). */
  poll?: number;
}

export class LockTimeout extends IdpError<'ERR_LOCK_TIMEOUT'> {
  constructor(message: string) {
    super('ERR_LOCK_TIMEOUT', message);
  }
}

/**
 * Run `fn` while holding the lock `name`. `fn` must re-read whatever it decides on: the previous
 * holder may just have done the job.
 */
export async function withLock<T>(
  locks: Adapter,
  name: string,
  fn: () => Promise<T>,
  opts: LockOptions = {},
): Promise<T> {
  const ttl = opts.ttl ?? 30;
  const deadline = Date.now() + (opts.wait ?? 60_000);
  const poll = opts.poll ?? 50;
  const owner = randomUUID();
  const store = typed<LockRecord>(locks);
  while (!(await store.insertIfAbsent(name, { owner }, ttl))) {
    if (Date.now() >= deadline) throw new LockTimeout(`could not acquire the lock ${name}`);
    await sleep(poll);
  }
  try {
    return await fn();
  } finally {
    // Only our own claim: after a ttl overrun another instance may hold it by now.
    const held = await store.find(name).catch(() => undefined);
    if (held?.owner === owner) await store.destroy(name).catch(() => {});
  }
}
