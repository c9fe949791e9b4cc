/**
 * The Go interop program (test/interop/go-hpke: Go's standard library crypto/hpke under a JOSE
 * layer written from the drafts): finding a Go ≥ 1.26, building the program without the network,
 * and running jobs through it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const GO_HPKE_SRC = fileURLToPath(new URL('../interop/go-hpke', import.meta.url));

/** The go binary on PATH or in the usual install places, and why it cannot be used if so. */
export function findGo(): { go?: string; why?: string } {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/local/go/bin', '/usr/lib/go/bin'];
  const go = dirs
    .filter((d) => d.startsWith('/'))
    .map((d) => join(d, 'go'))
    .find((p) => existsSync(p));
  if (!go) return { why: 'Go is not installed (crypto/hpke needs Go >= 1.26)' };
  const v = spawnSync(go, ['version'], { encoding: 'utf8', env: { ...process.env, GOTOOLCHAIN: 'local' } });
  const m = /go(\d+)\.(\d+)/.exec(v.stdout ?? '');
  if (!m || Number(m[1]) < 1 || (Number(m[1]) === 1 && Number(m[2]) < 26))
    return { why: `crypto/hpke needs Go >= 1.26, found ${(v.stdout || v.stderr || '?').trim()}` };
  return { go };
}

/** Builds the program to `bin` with the standard library only: no toolchain download, no module proxy. */
export function buildGoHpke(go: string, bin: string): void {
  execFileSync(go, ['build', '-o', bin, '.'], {
    cwd: GO_HPKE_SRC,
    env: { ...process.env, GOTOOLCHAIN: 'local', GOPROXY: 'off', GOFLAGS: '-buildvcs=false', GOWORK: 'off' },
    stdio: 'pipe',
  });
}

/** Runs `jobs` through the built program; one result per job. */
export function runGoHpke<R>(bin: string, jobs: unknown[]): R[] {
  const out = execFileSync(bin, [], { input: JSON.stringify({ jobs }), maxBuffer: 64 << 20 });
  const { results } = JSON.parse(out.toString()) as { results: R[] };
  if (results.length !== jobs.length) throw new Error(`go-hpke answered ${results.length} of ${jobs.length}`);
  return results;
}
