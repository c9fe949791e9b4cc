/** One IdP instance of the fault script: idp/dist/main.js as a child process, restartable. */
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_DIR } from '../paths.mjs';

const MAIN = join(REPO_DIR, 'idp', 'dist', 'main.js');
/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * VmRSS of a process in MiB, or undefined when it is gone.
 * @param {number} pid
 */
export function rssMiB(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

export class Instance {
  /**
   * @param {string} name
   * @param {number} port
   * @param {Record<string, string>} env
   * @param {string} logDir where idp-<name>.log goes
   */
  constructor(name, port, env, logDir) {
    this.name = name;
    this.port = port;
    this.env = env;
    this.logDir = logDir;
    this.starts = 0;
    /** @type {import('node:child_process').ChildProcess | undefined} */
    this.child = undefined;
    /** @type {Promise<{ code: number | null, signal: NodeJS.Signals | null, at: number }>} */
    this.exited = Promise.resolve({ code: null, signal: null, at: 0 });
    /** @type {{ code: number | null, signal: NodeJS.Signals | null, at: number } | undefined} */
    this.exitInfo = undefined;
    /** @type {Record<string, unknown>} the last /healthz answer at start (with its detail, given the operator token) */
    this.health = {};
  }

  /** Start main.js and wait until /healthz answers 200 (bounded); resolves with the ms it took. */
  async start() {
    this.starts++;
    const out = createWriteStream(join(this.logDir, `idp-${this.name}.log`), { flags: 'a' });
    out.write(`\n--- start ${this.starts} at ${new Date().toISOString()}\n`);
    const child = spawn(process.execPath, [MAIN], {
      env: { ...this.env, PQID_PORT: String(this.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    this.child = child;
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal, at: Date.now() };
        resolve(this.exitInfo);
      }),
    );
    const t0 = Date.now();
    while (Date.now() - t0 < 60_000) {
      if (child.exitCode !== null)
        throw new Error(`instance ${this.name} exited with ${child.exitCode} at start`);
      try {
        const token = this.env.PQID_METRICS_TOKEN;
        const r = await fetch(`http://127.0.0.1:${this.port}/healthz`, {
          signal: AbortSignal.timeout(2000),
          headers: token ? { authorization: `Bearer ${token}` } : {},
        });
        if (r.status === 200) {
          this.health = /** @type {Record<string, unknown>} */ (await r.json());
          return Date.now() - t0;
        }
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    throw new Error(`instance ${this.name} not healthy after 60 s`);
  }

  get pid() {
    return this.child?.pid;
  }

  alive() {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** @param {NodeJS.Signals} signal */
  kill(signal) {
    this.child?.kill(signal);
  }

  async stop() {
    if (!this.alive()) return;
    this.kill('SIGTERM');
    const t = setTimeout(() => this.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(t);
  }
}
