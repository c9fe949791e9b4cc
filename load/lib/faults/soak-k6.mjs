/** k6 running load/scenarios/soak.js, and the per-request lines it writes. */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOAD_DIR } from '../paths.mjs';

/** @typedef {import('./types.d.ts').Line} Line */

/**
 * Run soak.js with `configPath`; its console (one line per request) goes to `consoleFile`.
 * @param {string} k6
 * @param {string} configPath
 * @param {string} consoleFile
 * @param {import('node:stream').Writable} logStream
 * @returns {Promise<{ code: number, output: string }>}
 */
export function runSoakK6(k6, configPath, consoleFile, logStream) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      k6,
      [
        'run',
        '--quiet',
        '--no-usage-report',
        '--log-format',
        'raw',
        '--console-output',
        consoleFile,
        '-e',
        `LOAD_CONFIG=${configPath}`,
        join(LOAD_DIR, 'scenarios', 'soak.js'),
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, K6_NO_USAGE_REPORT: 'true', K6_NO_COLOR: 'true' },
      },
    );
    let output = '';
    /** @param {Buffer} d */
    const collect = (d) => {
      output += d;
      logStream.write(d);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

/**
 * Parse soak.js's per-request lines, in start order.
 * @param {string} file
 * @returns {Line[]}
 */
export function parseLines(file) {
  /** @param {string | undefined} x */
  const opt = (x) => (x === '-' ? undefined : x);
  const rows = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const p = line.trim().split(' ');
    if (p.length !== 9 || !/^\d+$/.test(p[0] ?? '')) continue;
    rows.push({
      t: Number(p[0]),
      vu: Number(p[1]),
      grant: p[2] ?? '',
      status: Number(p[3]),
      ms: Number(p[4]),
      wall: Number(p[5]),
      old: opt(p[6]),
      fresh: opt(p[7]),
      error: opt(p[8]),
    });
  }
  return rows.sort((a, b) => a.t - b.t);
}
