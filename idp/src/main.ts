#!/usr/bin/env node
/**
 * `npm start`: the provider. This module only checks the Node version, so that an older Node gets
 * one line instead of a stack trace from a module it lacks (node:sqlite), and keeps Node's
 * expected WebCrypto ML-DSA warnings out of the output (experimental-warnings.ts); start.ts does
 * the rest.
 */
import { dropExpectedExperimentalWarnings } from './experimental-warnings.ts';
import { requireSupportedNode } from './node-version.ts';

requireSupportedNode('pqid');
dropExpectedExperimentalWarnings();
await import('./start.ts');
