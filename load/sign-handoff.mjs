#!/usr/bin/env node
/**
 * What handing a signature to the libuv pool costs: `npm run build && node load/sign-handoff.mjs
 * [--ms 1500] [--in-flight 8]`.
 *
 * The load report's "signature" part of a token (sign-floor − floor) is larger than the
 * signature's arithmetic. This prints, side by side in one process, process CPU per signature
 * (event loop + pool) and the event loop's own CPU for ES256 (OpenSSL P-256) and ML-DSA-65
 * (@pqid/jose's preferred backend, a prepared key): signed synchronously on the event loop, on the
 * pool one at a time (a pool thread is woken for each, as when requests trickle in), and with
 * `--in-flight` signatures queued at once (the pool stays awake). Prints the CPU model and flags;
 * compare rows of one run only.
 */
import { enter } from './lib/entry.mjs';

await enter({ program: 'load/sign-handoff.mjs' }, () => import('./lib/main/sign-handoff.mjs'));
