#!/usr/bin/env node
/**
 * pqid load and size suite runner: `npm run load -- <scenario…|all> [--smoke] [options]`.
 *
 * Starts a fresh pqid IdP (child process, temp data dir, one client per algorithm), runs the k6
 * scenarios in load/scenarios against it, reads the IdP's CPU time from /proc/<pid>/stat around
 * every k6 run, starts node-oidc-provider for the comparison, and writes
 * load/reports/<timestamp>/{report.md,report.html,results.json} with SVG plots.
 *
 * What runs is in tables: the server variants and phases in lib/variants.mjs, the server
 * processes in lib/runner/servers.mjs, the scenarios below (lib/runner/scenarios/).
 */
import { enter } from './lib/entry.mjs';

await enter({ program: 'pqid load', buildsFirst: 'npm run load' }, () => import('./lib/main/run.mjs'));
