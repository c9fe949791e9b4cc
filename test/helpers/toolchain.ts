/**
 * A machine without build tools, simulated without uninstalling anything: a directory of
 * symlinks to every command on PATH except the ones named, to use as the whole PATH.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** Rust and every C compiler driver Debian, Fedora or a rustup install puts on PATH. */
export const BUILD_TOOLS =
  /^(cargo|rustc|rustup|rustdoc|rust-gdb|cc|c89|c99|c\+\+|gcc|g\+\+|clang|clang\+\+|gcc-\d+|clang-\d+|.*-gcc(-\d+)?|.*-g\+\+(-\d+)?)$/;

/** A new directory holding a symlink for each command on `path` whose name `omit` does not match. */
export function pathWithout(omit: RegExp, path = process.env.PATH ?? ''): string {
  const bin = mkdtempSync(join(tmpdir(), 'pqid-path-without-'));
  for (const dir of path.split(delimiter)) {
    if (!dir || !existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (omit.test(name) || existsSync(join(bin, name))) continue;
      try {
        if (statSync(join(dir, name)).isFile()) symlinkSync(join(dir, name), join(bin, name));
      } catch {
        // dangling link or unreadable entry: not a command
      }
    }
  }
  return bin;
}

/** The first `cmd` on a PATH, as a spawn would find it, or undefined. */
export function onPath(cmd: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir && existsSync(join(dir, cmd))) return join(dir, cmd);
  }
  return undefined;
}

/** util-linux `script`: runs a command on a pseudo-terminal, as a person at a terminal would. */
export function hasScript(): boolean {
  return spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
}
