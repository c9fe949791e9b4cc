// `npm run bench`: the Node version check, then packages/jose/bench/main.ts. The benchmark is
// TypeScript that Node runs directly; a Node without type stripping (20) would refuse the file
// with its own stack trace before any check inside it could run. Plain JavaScript that an old
// Node can load, like the module it uses for the check.
import { readFileSync } from 'node:fs';

/** The IdP's check: built (idp/dist), else its source, on a Node that strips types. */
async function nodeCheck() {
  try {
    return await import('@pqid/idp/node-version');
  } catch {
    return import('../idp/src/node-version.ts');
  }
}

const check = await nodeCheck().catch((e) => {
  if (e?.code === 'ERR_UNKNOWN_FILE_EXTENSION') return undefined;
  throw e;
});
if (check) check.requireSupportedNode('npm run bench');
else {
  // Not built, and this Node cannot load TypeScript: the benchmark cannot run on it either.
  const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stderr.write(
    `npm run bench: needs Node.js ${engines.node}; this is ${process.version}. To fix: run it through npm or with node_modules/.bin/node, the Node 24 that npm install put there.\n`,
  );
  process.exit(1);
}
await import('../packages/jose/bench/main.ts');
