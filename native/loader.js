// Finds and loads the addon. Order: a source build this install made (scripts/install.mjs makes
// one only when no usable prebuilt binary was present, or when asked to), then the prebuilt
// binary from the per-platform optional dependency, then any other local build. When none loads,
// ERR_NATIVE_UNAVAILABLE says why (the reason the install script recorded, or each failure) and
// `.fix` says what to do about it. A binary whose binding surface is not the one this JS needs
// (binding-abi.js) is skipped like one that fails to load.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { bindingMismatch } from './binding-abi.js';
import { LiboqsError } from './errors.js';
import { BINARY_NAME, PACKAGE, platformTriple, prebuiltPackage } from './platform.js';

export const REBUILD = `npm rebuild ${PACKAGE}`;
const FROM_SOURCE = `PQID_NATIVE_BUILD_FROM_SOURCE=1 ${REBUILD}`;

/** What scripts/install.mjs recorded, or undefined when it never ran here. */
export function readBuildStatus(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, 'build-status.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * @typedef {{ source: 'prebuilt' | 'source', file: string, package?: string, version?: string }} Binary
 * @returns {{ list: Binary[], skipped: string[] }}
 */
function candidates(dir, status) {
  const own = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  const skipped = [];
  const pre = prebuiltPackage();
  /** @type {Binary | undefined} */
  let prebuilt;
  try {
    const pkgJson = createRequire(join(dir, 'package.json')).resolve(`${pre.name}/package.json`);
    const { version } = JSON.parse(readFileSync(pkgJson, 'utf8'));
    // A prebuilt binary of another version is another ABI of our own JS: never load it.
    if (version !== own) skipped.push(`${pre.name}@${version} does not match ${PACKAGE}@${own}`);
    else
      prebuilt = { source: 'prebuilt', package: pre.name, version, file: join(dirname(pkgJson), pre.file) };
  } catch {
    // not installed: no binary published for this platform, or optional dependencies omitted
  }
  const prefix = `${BINARY_NAME}.${process.platform}-${process.arch}`;
  const local = (existsSync(dir) ? readdirSync(dir) : [])
    .filter((f) => f.startsWith(prefix) && f.endsWith('.node'))
    .map((f) => /** @type {Binary} */ ({ source: 'source', file: join(dir, f) }));
  const built =
    status?.ok && status.source !== 'prebuilt' && status.file ? join(dir, status.file) : undefined;
  const first = local.filter((b) => b.file === built);
  const rest = local.filter((b) => b.file !== built);
  return { list: [...first, ...(prebuilt ? [prebuilt] : []), ...rest], skipped };
}

/**
 * @param {string} dir the package directory
 * @param {{ load?: (file: string) => any }} [options] `load` replaces `require` (tests only)
 * @returns {{ addon: any, binary: Binary }}
 */
export function loadNative(dir, options = {}) {
  const status = readBuildStatus(dir);
  const triple = platformTriple();
  const { list, skipped } = candidates(dir, status);
  const load = options.load ?? createRequire(join(dir, 'package.json'));
  const failures = [...skipped];
  let firstCause;
  for (const binary of list) {
    let addon;
    try {
      addon = load(binary.file);
    } catch (cause) {
      firstCause ??= cause;
      failures.push(`${binary.package ?? binary.file} failed to load: ${cause?.message ?? cause}`);
      continue;
    }
    const stale = bindingMismatch(addon);
    if (!stale) return { addon, binary };
    failures.push(`${binary.package ?? binary.file} is ${stale}`);
  }
  if (list.length > 0) {
    throw new LiboqsError(
      'ERR_NATIVE_UNAVAILABLE',
      `${PACKAGE} native addon is unavailable for ${triple}: ${failures.join('; ')}`,
      { cause: firstCause, fix: `build it for this machine from source: ${FROM_SOURCE}` },
    );
  }
  const why =
    status && !status.ok && status.reason
      ? status.reason
      : status?.ok
        ? `the recorded build ${status.file ?? ''} is missing`
        : `no prebuilt binary (${prebuiltPackage(triple).name}) is installed and no source build was made (install scripts did not run: npm --ignore-scripts, or an allowScripts policy)`;
  throw new LiboqsError(
    'ERR_NATIVE_UNAVAILABLE',
    `${PACKAGE} native addon is unavailable for ${triple}: ${[why, ...failures].join('; ')}`,
    { fix: status?.fix ?? `run \`${REBUILD}\`` },
  );
}
