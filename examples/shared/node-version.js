/**
 * The examples' check of the Node version against `engines.node` of their package.json, first
 * thing at start: below it an example may start and then fail at a reader's first request, or
 * die in a dependency with a stack trace; one line saying which Node to use is better. `semver`
 * reads the range as npm does.
 */
import { readFileSync } from 'node:fs';
import semver from 'semver';

/**
 * Why this Node cannot run the example whose package.json is `packageJson`, in one line; undefined
 * when it can.
 * @param {string} label who says it, e.g. "example resource server"
 * @param {string} how the command that runs it on the right Node, e.g. "npm run example:rp"
 * @param {URL} packageJson
 * @param {string} [version]
 * @returns {string | undefined}
 */
export function unsupportedNode(label, how, packageJson, version = process.versions.node) {
  const range = JSON.parse(readFileSync(packageJson, 'utf8')).engines.node;
  if (semver.satisfies(version, range)) return undefined;
  // `^22.20.0 || >=24.7.0` as "22.20 or a later 22.x, or 24.7 or newer".
  const wanted = new semver.Range(range).set.map((comparators) => {
    const [from, below] = comparators.map((c) => c.semver);
    const lowest = `${from?.major}.${from?.minor}`;
    return below ? `${lowest} or a later ${from?.major}.x` : `${lowest} or newer`;
  });
  return `${label}: needs Node.js ${wanted.join(', or ')}; this is v${version}. To fix: ${how}, which runs on the Node 24 that npm install put in node_modules/.bin`;
}

/**
 * Exits with that line (status 1) when this Node is too old.
 * @param {string} label
 * @param {string} how
 * @param {URL} packageJson
 */
export function requireSupportedNode(label, how, packageJson) {
  const problem = unsupportedNode(label, how, packageJson);
  if (problem === undefined) return;
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
