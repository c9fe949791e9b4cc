/** Child processes of the runner: start with a JSON "ready" line, CPU time from /proc, k6 runs. */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';

let clkTck = 100;
try {
  clkTck = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
} catch {
  // Linux's USER_HZ is 100 almost everywhere.
}

/**
 * utime + stime of a process in seconds (Linux /proc/<pid>/stat fields 14 and 15).
 * @param {number} pid
 */
export function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): utime is field 14 -> index 11, stime field 15 -> index 12.
  return (Number(fields[11]) + Number(fields[12])) / clkTck;
}

/**
 * A TCP port on 127.0.0.1 that was free a moment ago.
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Start `node script jsonArg` and resolve with the parsed ready line.
 * @param {string} nodeBin
 * @param {string} script
 * @param {Record<string, unknown>} arg
 * @param {{ timeoutMs?: number, cwd?: string, nodeArgs?: string[] }} [settings]
 * @returns {Promise<import('./types.d.ts').Server>}
 */
export function startChild(nodeBin, script, arg, { timeoutMs = 180_000, cwd, nodeArgs = [] } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(nodeBin, [...nodeArgs, script, JSON.stringify(arg)], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_ENV: 'production' },
    });
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not become ready in ${timeoutMs} ms: ${err.slice(-2000)}`));
    }, timeoutMs);
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{"ready":true'));
      if (line && timer) {
        clearTimeout(timer);
        resolve({ child, info: JSON.parse(line), stderr: () => err });
      }
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before it was ready: ${err.slice(-2000)}`));
    });
  });
}

/**
 * SIGTERM, then SIGKILL after 5 s; resolves once it has exited.
 * @param {import('node:child_process').ChildProcess | undefined} child
 */
export async function stopChild(child) {
  if (!child || child.exitCode !== null) return;
  const done = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await done;
  clearTimeout(timer);
}

/**
 * The k6 binary: $K6, then load/bin/k6 (install-k6.sh), then PATH.
 * @param {string} loadDir
 */
export function findK6(loadDir) {
  if (process.env.K6 && existsSync(process.env.K6)) return process.env.K6;
  const local = join(loadDir, 'bin', 'k6');
  if (existsSync(local)) return local;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const p = join(dir, 'k6');
    if (dir && existsSync(p)) return p;
  }
  return undefined;
}

/**
 * Run k6; resolves with the exit code (0 ok, 99 thresholds crossed) and its output.
 * @param {string} k6
 * @param {string} script
 * @param {string} configPath
 * @param {{ logStream?: import('node:stream').Writable }} [settings]
 * @returns {Promise<{ code: number, output: string }>}
 */
export function runK6(k6, script, configPath, { logStream } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      k6,
      ['run', '--quiet', '--no-usage-report', '-e', `LOAD_CONFIG=${configPath}`, script],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, K6_NO_USAGE_REPORT: 'true', K6_NO_COLOR: 'true' },
      },
    );
    let output = '';
    /** @param {Buffer} d */
    const collect = (d) => {
      output += d;
      logStream?.write(d);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}
