/**
 * The fault script's own PostgreSQL cluster (scripts/pg-test.sh on its own port and directory,
 * so stopping and restarting it never disturbs the cluster other tests use).
 */
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_DIR } from '../paths.mjs';

const PG_SCRIPT = join(REPO_DIR, 'scripts', 'pg-test.sh');

/**
 * `scripts/pg-test.sh <cmd>` for the cluster on `port`; returns its output (the URL for `start`).
 * @param {number} port
 * @param {'start' | 'stop' | 'destroy'} cmd
 */
export const pgCtl = (port, cmd) =>
  execFileSync('bash', [PG_SCRIPT, cmd], {
    env: {
      ...process.env,
      PQID_PG_PORT: String(port),
      PQID_PG_DIR: join(tmpdir(), `pqid-pg-faults-${port}`),
      PQID_PG_DB: 'pqid_faults',
    },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
