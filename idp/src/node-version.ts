/**
 * The Node.js versions pqid supports: `engines.node` of this package, the same in every package of
 * the repository (a `||` list of `^X.Y.Z` and `>=X.Y.Z`). The entry points check it before they
 * load anything that needs a newer Node (node:sqlite above all), so an older one gets one line
 * saying what to do instead of a stack trace. Keep this module free of newer syntax and APIs: it
 * has to run on the old versions it turns away.
 */
import { existsSync, readFileSync } from 'node:fs';

type Version = [number, number, number];

function parse(version: string): Version | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return 0;
}

/** One alternative of the range: `^X.Y.Z` (X.Y.Z and later in major X) or `>=X.Y.Z`. */
interface Alternative {
  from: Version;
  sameMajor: boolean;
}

/** `engines.node` of the package this module belongs to, parsed. */
export function supportedNode(): { range: string; alternatives: Alternative[] } {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    engines?: { node?: string };
  };
  const range = (pkg.engines?.node ?? '').trim();
  const alternatives = range.split('||').map((part) => {
    const m = /^(\^|>=)\s*(\d+\.\d+\.\d+)$/.exec(part.trim());
    if (!m)
      throw new Error(`engines.node must be a || list of ^X.Y.Z and >=X.Y.Z, not ${JSON.stringify(range)}`);
    return { from: parse(m[2] as string) as Version, sameMajor: m[1] === '^' };
  });
  return { range, alternatives };
}

export function satisfies(version: string, alternatives: Alternative[]): boolean {
  const v = parse(version);
  if (!v) return false;
  return alternatives.some((a) => compare(v, a.from) >= 0 && (!a.sameMajor || v[0] === a.from[0]));
}

/** Why this Node cannot run `program`, in one line; undefined when it can. */
export function unsupportedNode(
  program: string,
  version: string = process.versions.node,
): string | undefined {
  const { alternatives } = supportedNode();
  if (satisfies(version, alternatives)) return undefined;
  const wanted = alternatives
    .map((a) => `${a.from[0]}.${a.from[1]}${a.sameMajor ? ` or a later ${a.from[0]}.x` : ' or newer'}`)
    .join(', or ');
  // In a clone of the repository, `npm install` has put the pinned Node in node_modules/.bin.
  const pinned = new URL('../../node_modules/.bin/node', import.meta.url);
  const how = existsSync(pinned)
    ? 'run it through npm (npm start, npx pqid) or with node_modules/.bin/node, the Node 24 that npm install put there'
    : 'install Node.js 24 LTS from https://nodejs.org/en/download or with a version manager such as nvm';
  return `${program}: needs Node.js ${wanted}; this is v${version}. To fix: ${how}.`;
}

/** Exits with that line (status 1) when this Node is too old. */
export function requireSupportedNode(program: string): void {
  const problem = unsupportedNode(program);
  if (problem === undefined) return;
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
