/**
 * The package entry's first import (index.ts): on a Node older than `engines.node`, importing
 * `@pqid/idp` prints one line saying which Node to use and exits, as `npm start` and `pqid` do,
 * instead of failing inside a module that needs a newer Node (node:sqlite, undici). Evaluated
 * before any other module of the package: ES modules run in the order they are imported, and
 * nothing this package imports statically is missing from an older Node.
 */
import { requireSupportedNode } from './node-version.ts';

requireSupportedNode('@pqid/idp');
