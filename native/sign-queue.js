// Admission for signAsync: at most `slots` pool tasks in flight; signatures that arrive while
// all slots are busy wait here and leave together, in one native task per batch.
//
// Why: each N-API async work costs the JS thread ~10 µs (work and promise creation, a thread
// wake-up, a callback scope with a microtask checkpoint). On a 2-core machine that time is
// taken from the signing threads, capping signAsync near 1.5× one sync thread. A batch pays
// it once. Under light load nothing waits, so nothing is batched and latency is unchanged;
// once every slot is busy a job would have queued in libuv anyway.
import { availableParallelism } from 'node:os';

const DEFAULT_MAX_BATCH = 8; // 8 × ~85 µs: a batch adds at most ~0.7 ms to its first job

// Two slots per signing thread: when a task finishes, the next one is already queued in
// libuv, so no core idles while the JS thread wakes up to hand out work (with one slot per
// thread, 2-core utilisation fell to ~75%). Signing threads = min(cores, pool size); with
// Node's default pool of 4 on 2 cores that is 4 slots, all running at once. The pool's size is
// libuv's own setting, which it takes from UV_THREADPOOL_SIZE and Node offers no other way to
// learn: the one variable this package reads. Applications tune the queue with `configure` below
// (@pqid/jose's `configure({ nativeSigning })`).
function defaultSlots() {
  // biome-ignore lint/style/noProcessEnv: libuv's own setting; Node has no other way to tell it
  const pool = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  return Math.max(2, 2 * Math.min(availableParallelism(), pool));
}

/**
 * @param {any} native the raw binding (signAsync, SignBatch)
 * @param {(e: unknown) => Error} typed turns a native error into a LiboqsError
 */
export function createSignQueue(native, typed) {
  let slots = defaultSlots();
  let maxBatch = DEFAULT_MAX_BATCH;
  let busy = 0;
  /** FIFO of batches waiting for a slot: { batch, settle: [resolve, reject, …] }. */
  const waiting = [];

  const release = () => {
    busy--;
    while (busy < slots && waiting.length > 0) run(waiting.shift());
  };

  function run(w) {
    busy++;
    let done;
    try {
      done = w.batch.run();
    } catch (e) {
      done = Promise.reject(e); // settle its callers rather than leave them pending
    }
    done.then(
      (r) => {
        release();
        const failed = new Map(r.failures.map((f) => [f.index, f.message]));
        let start = 0;
        for (let i = 0; i < r.ends.length; i++) {
          const end = r.ends[i];
          // slice, not subarray: each signature owns its ArrayBuffer, as from signAsync.
          if (failed.has(i)) w.settle[2 * i + 1](typed(new Error(failed.get(i))));
          else w.settle[2 * i](r.signatures.slice(start, end));
          start = end;
        }
      },
      (e) => {
        release();
        const err = typed(e);
        for (let i = 1; i < w.settle.length; i += 2) w.settle[i](err);
      },
    );
  }

  return {
    /** Same arguments as native.signAsync; input errors throw synchronously. */
    sign(id, ref, h, message, ctx, rnd, det) {
      if (busy < slots && waiting.length === 0) {
        busy++;
        let pending;
        try {
          pending = native.signAsync(id, ref, h, message, ctx, rnd, det);
        } catch (e) {
          busy--;
          throw e;
        }
        return pending.then(
          (sig) => {
            release();
            return sig;
          },
          (e) => {
            release();
            throw typed(e);
          },
        );
      }
      let w = waiting.at(-1);
      if (w === undefined || w.settle.length >= 2 * maxBatch) {
        const batch = new native.SignBatch();
        batch.add(id, ref, h, message, ctx, rnd, det); // may throw: then no empty batch is queued
        w = { batch, settle: [] };
        waiting.push(w);
      } else {
        w.batch.add(id, ref, h, message, ctx, rnd, det);
      }
      const entry = w;
      return new Promise((resolve, reject) => entry.settle.push(resolve, reject));
    },

    configure(options = {}) {
      if (options.slots !== undefined) {
        if (!Number.isInteger(options.slots) || options.slots < 1)
          throw new RangeError('slots must be an integer ≥ 1');
        slots = options.slots;
      }
      if (options.maxBatch !== undefined) {
        if (!Number.isInteger(options.maxBatch) || options.maxBatch < 1)
          throw new RangeError('maxBatch must be an integer ≥ 1');
        maxBatch = options.maxBatch;
      }
      while (busy < slots && waiting.length > 0) run(waiting.shift());
      return {
        slots,
        maxBatch,
        inFlight: busy,
        waiting: waiting.reduce((n, w) => n + w.settle.length / 2, 0),
      };
    },
  };
}
