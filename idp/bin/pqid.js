#!/usr/bin/env node
// `pqid` (npx pqid, npm run pqid): the compiled CLI. This file is committed rather than built so
// that npm links it at install time, before `npm run build` has made dist/.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write(
    'pqid: the CLI is not built yet: run `npm run build` first (npm start and npm test build too)\n',
  );
  process.exit(1);
}
await import(cli.href);
