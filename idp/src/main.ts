#!/usr/bin/env node
/**
 * `npm start`: the provider. This module only checks the Node version, so that an older Node gets
 * one line instead of a stack trace from a module it lacks (node:sqlite); start.ts does the rest.
 */
import { requireSupportedNode } from './node-version.ts';

requireSupportedNode('pqid');
await import('./start.ts');
