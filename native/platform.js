// Which prebuilt binary fits this machine, named as napi-rs names them: the per-platform package
// `@pqid/liboqs-node-<triple>` holds `liboqs-node.<triple>.node`. Plain ESM for Node >= 20: the
// install script (scripts/install.mjs) and the loader (core.js) share it.
import { readFileSync } from 'node:fs';

export const PACKAGE = '@pqid/liboqs-node';
export const BINARY_NAME = 'liboqs-node';

/** glibc or musl: from /usr/bin/ldd first (cheap), then the process report (can be slow). */
function linuxLibc() {
  try {
    const ldd = readFileSync('/usr/bin/ldd', 'utf8');
    if (ldd.includes('musl')) return 'musl';
    if (ldd.includes('GNU C Library') || ldd.includes('GLIBC')) return 'gnu';
  } catch {
    // no ldd script: ask the runtime
  }
  const header = /** @type {{ glibcVersionRuntime?: string } | undefined} */ (
    // @ts-expect-error getReport().header is untyped
    process.report?.getReport?.()?.header
  );
  return header?.glibcVersionRuntime ? 'gnu' : 'musl';
}

/** `linux-x64-gnu`, `linux-arm64-musl`, `darwin-arm64`, `win32-x64-msvc`, … */
export function platformTriple(platform = process.platform, arch = process.arch) {
  if (platform === 'linux') return `linux-${arch}-${linuxLibc()}`;
  if (platform === 'win32') return `win32-${arch}-msvc`;
  return `${platform}-${arch}`;
}

/** The optional dependency that carries the prebuilt addon for this machine. */
export function prebuiltPackage(triple = platformTriple()) {
  return { name: `${PACKAGE}-${triple}`, file: `${BINARY_NAME}.${triple}.node` };
}
