/**
 * The start of every load/ script that needs pqid built, run as `node load/<script>.mjs`. The
 * scripts import the packages and the IdP from their builds, statically, so before `npm run
 * build` Node would stop at link time, before any of their code runs, with ERR_MODULE_NOT_FOUND
 * and a stack trace. So each entry imports only this module, which checks first and then loads the
 * script's body (load/lib/main/): a Node outside `engines.node` gets one line and exit 1 (as
 * everywhere), a tree without a build one line and exit 2 (as the scripts' usage errors: what was
 * typed needs a step first). Plain JavaScript that an old Node can load.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { requireSupportedNode } from '../../scripts/node-check.mjs';
import { REPO_DIR } from './paths.mjs';

/** What `npm run build` (tsc -b) writes, one entry per package: the scripts load all three. */
export const BUILT = ['packages/jose/dist/index.js', 'packages/xmldsig/dist/index.js', 'idp/dist/index.js'];

/**
 * The first built file missing under `root`, or undefined when pqid is built.
 * @param {string} [root]
 */
export const missingBuild = (root = REPO_DIR) => BUILT.find((file) => !existsSync(join(root, file)));

/**
 * The checks, then the script's body.
 * @template T
 * @param {{ program: string, buildsFirst?: string }} who `program` starts the messages (e.g.
 *   `pqid load`, `load/client-check.mjs`); `buildsFirst`, the npm script that builds, then runs it
 * @param {() => Promise<T>} load imports the body, e.g. `() => import('./lib/main/run.mjs')`
 * @returns {Promise<T>}
 */
export async function enter({ program, buildsFirst }, load) {
  await requireSupportedNode(program);
  const missing = missingBuild();
  if (missing) {
    const how = buildsFirst ? `npm run build, or ${buildsFirst}, which builds first` : 'npm run build';
    process.stderr.write(`${program}: needs pqid built first (${missing} is missing). To fix: ${how}.\n`);
    process.exit(2);
  }
  // The scripts encrypt and verify through WebCrypto ML-KEM, ML-DSA and SHA-3, which Node 24 still
  // marks experimental: drop exactly those warnings, as the IdP's executables do.
  const { dropExpectedExperimentalWarnings } = await import('@pqid/idp/experimental-warnings');
  dropExpectedExperimentalWarnings();
  return load();
}
