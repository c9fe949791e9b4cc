#!/usr/bin/env node
/**
 * CPU per composite JWT as the IdP signs it: `npm run build && node load/composite-handles.mjs
 * [--ms 1500] [--algs ML-DSA-65-ES256,…]`.
 *
 * For each composite, side by side in one process: the key manager's handle (a sealed key behind
 * the signer interface, idp/dist), the same key's signers delegated half by half (what the key
 * manager did before it recognised its own local signers: ML-DSA half on the pool, traditional
 * half through node:crypto on the event loop), the plain @pqid/jose key, and the pure ML-DSA key
 * of the composite's level (what the traditional half adds). Per token: process
 * CPU (event loop + libuv pool) and the event loop's own CPU (`process.threadCpuUsage`), with 16
 * signatures in flight as under load. Prints the CPU model and flags; compare rows of one run.
 */
import { enter } from './lib/entry.mjs';

await enter({ program: 'load/composite-handles.mjs' }, () => import('./lib/main/composite-handles.mjs'));
