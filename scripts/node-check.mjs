// The Node version check of the repository's own tools (`npm run bench`, load/'s measurement
// scripts), which may run before `npm run build`: the IdP's check (idp/src/node-version.ts) from
// idp/dist, else from its source on a Node that strips types. A Node that can do neither (not
// built, and too old to load TypeScript) gets the same kind of line, with the engines range.
// Plain JavaScript that an old Node can load.
import { readFileSync } from 'node:fs';

/** @returns {Promise<{ requireSupportedNode(program: string): void } | undefined>} */
async function idpCheck() {
  try {
    return await import('@pqid/idp/node-version');
  } catch {
    return import('../idp/src/node-version.ts').catch((e) => {
      if (e?.code === 'ERR_UNKNOWN_FILE_EXTENSION') return undefined;
      throw e;
    });
  }
}

/**
 * Exits with one line (status 1) when this Node is outside `engines.node`.
 * @param {string} program who says it, e.g. `npm run bench`
 */
export async function requireSupportedNode(program) {
  const check = await idpCheck();
  if (check) return check.requireSupportedNode(program);
  const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stderr.write(
    `${program}: needs Node.js ${engines.node}; this is ${process.version}. To fix: run it through npm or with node_modules/.bin/node, the Node 24 that npm install put there.\n`,
  );
  process.exit(1);
}
