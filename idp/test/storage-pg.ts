/**
 * PostgreSQL for tests: `PQID_TEST_DATABASE_URL` (start one with `scripts/pg-test.sh start`).
 * Without it the PostgreSQL suites are skipped locally, but in CI (`CI` set) its absence is an
 * error, so a broken setup can never pass as "skipped". Each caller gets its own schema, so test
 * files and concurrent runs on one database never see each other's rows.
 */
import { randomBytes } from 'node:crypto';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { tempDir } from './helpers.ts';

export const PG_URL = process.env.PQID_TEST_DATABASE_URL || undefined;

if (!PG_URL && process.env.CI) {
  throw new Error(
    'PQID_TEST_DATABASE_URL is not set but CI is: PostgreSQL tests must run in CI. ' +
      'Start a cluster with `export PQID_TEST_DATABASE_URL="$(scripts/pg-test.sh start)"`.',
  );
}

export const PG_SKIP_REASON =
  'PostgreSQL tests skipped: set PQID_TEST_DATABASE_URL (export PQID_TEST_DATABASE_URL="$(scripts/pg-test.sh start)")';

/** A fresh schema name, unique per call. */
export const uniqueSchema = (prefix = 'pqid_t') =>
  `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;

/** The test database URL pointing at `schema` (pqid's `schema=` URL parameter). */
export function urlWithSchema(schema: string, extra: Record<string, string> = {}): string {
  if (!PG_URL) throw new Error(PG_SKIP_REASON);
  const u = new URL(PG_URL);
  u.searchParams.set('schema', schema);
  for (const [k, v] of Object.entries(extra)) u.searchParams.set(k, v);
  return u.href;
}

/** Run one statement with a short-lived connection (set-up and clean-up only). */
export async function adminQuery(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  if (!PG_URL) throw new Error(PG_SKIP_REASON);
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

export async function dropSchemas(schemas: Iterable<string>): Promise<void> {
  for (const s of schemas) await adminQuery(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
}

/**
 * A loopback TCP proxy in front of the test database, so a test can take "PostgreSQL" down and
 * bring it back without touching the shared server: `down()` refuses new connections and cuts
 * open ones (what clients see when the server restarts), `up()` listens again on the same port.
 */
export interface DbProxy {
  url(schema: string): string;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function dbProxy(): Promise<DbProxy> {
  if (!PG_URL) throw new Error(PG_SKIP_REASON);
  const target = new URL(PG_URL);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const sock of [client, upstream]) {
          sockets.add(sock);
          sock.on('close', () => sockets.delete(sock));
          sock.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as AddressInfo).port;
        server = s;
        resolve();
      });
    });
  const down = async () => {
    const s = server;
    server = undefined;
    for (const sock of sockets) sock.destroy();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  await listen();
  return {
    url(schema) {
      const u = new URL(urlWithSchema(schema));
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.href;
    },
    down,
    up: listen,
    close: down,
  };
}

/** A fresh, empty store for one test: its database URL. */
export type FreshStore = () => string;

/**
 * Both engines, for suites that run on each: SQLite (a file in a new temporary directory) and
 * PostgreSQL (a new schema; undefined without a test database, so the suite is skipped).
 * `dispose` (in afterAll) removes every store made.
 */
export function freshStores(prefix: string): {
  engines: Array<[string, FreshStore | undefined]>;
  dispose(): Promise<void>;
} {
  const dirs: Array<() => void> = [];
  const schemas: string[] = [];
  const sqlite: FreshStore = () => {
    const d = tempDir();
    dirs.push(d.cleanup);
    return `sqlite:${join(d.dir, 'shared.sqlite')}`;
  };
  const postgres: FreshStore = () => {
    const schema = uniqueSchema(prefix);
    schemas.push(schema);
    return urlWithSchema(schema);
  };
  return {
    engines: [
      ['sqlite', sqlite],
      ['postgres', PG_URL ? postgres : undefined],
    ],
    async dispose() {
      for (const c of dirs) c();
      if (PG_URL) await dropSchemas(schemas);
    },
  };
}
