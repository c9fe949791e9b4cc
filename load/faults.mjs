#!/usr/bin/env node
/**
 * pqid fault and soak script: `npm run faults -- [--long] | --soak [--minutes 10]`.
 *
 * Starts its own throw-away PostgreSQL cluster (scripts/pg-test.sh on its own port and
 * directory, so restarting it never disturbs the cluster other tests use), two IdP instances
 * (child processes of idp/dist/main.js on one database, one KEK, one issuer) behind a
 * round-robin balancer (load/lib/balancer.mjs), and drives token traffic with k6
 * (load/scenarios/soak.js: refresh_token rotations on per-VU chains plus client_credentials).
 *
 * Faults, one k6 run each, each with a verdict (load/lib/faults/cases/):
 *   kill     SIGKILL one instance mid-load, restart it later
 *   pg       stop PostgreSQL under load, keep it down a few seconds, start it again
 *   sigterm  SIGTERM one instance mid-load: it reports draining, leaves the rotation, drains
 *            and exits 0; restart it later
 * After every run the database is checked against what k6 saw (the grant invariant,
 * load/lib/faults/grants.mjs), and every surviving refresh token is redeemed once (200) and
 * then again (400).
 *
 * Soak: measure capacity (a short ramp, or --capacity), then --minutes at 70% of it, sampling
 * each instance's RSS from /proc and k6's p99 per 30 s window.
 *
 * Writes load/reports/<timestamp>-faults/ (or -soak/): results.json, report.md, *.svg, logs.
 */
import { enter } from './lib/entry.mjs';

await enter({ program: 'pqid faults', buildsFirst: 'npm run faults' }, () => import('./lib/main/faults.mjs'));
