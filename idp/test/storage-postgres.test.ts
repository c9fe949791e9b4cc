/**
 * The storage contract on PostgreSQL (skipped without PQID_TEST_DATABASE_URL, required in CI),
 * plus migrations, fail-fast behaviour and recovery; URL parsing and error classification run
 * everywhere.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PG_DEFAULTS, parsePostgresUrl, redactDatabaseUrl } from '../src/config/database-url.ts';
import { ConfigError } from '../src/config/index.ts';
import { errorAnswer } from '../src/http/errors.ts';
import {
  isPgUnavailableError,
  isStorageUnavailable,
  StorageUnavailable,
  toStorageError,
} from '../src/storage/errors.ts';
import { MIGRATIONS } from '../src/storage/migrations.ts';
import { openStorage } from '../src/storage/open.ts';
import { PostgresStorage } from '../src/storage/postgres.ts';
import { defineStorageContract } from './storage-contract.ts';
import {
  adminQuery,
  dropSchemas,
  PG_SKIP_REASON,
  PG_URL,
  uniqueSchema,
  urlWithSchema,
} from './storage-pg.ts';

const schemas = new Set<string>();
const fresh = () => {
  const schema = uniqueSchema();
  schemas.add(schema);
  return urlWithSchema(schema);
};

if (!PG_URL) {
  describe('storage contract: postgres', () => {
    it.skip(PG_SKIP_REASON, () => {});
  });
  console.warn(PG_SKIP_REASON);
} else {
  defineStorageContract('postgres', {
    async fresh() {
      const url = fresh();
      return { storage: new PostgresStorage(url), another: async () => new PostgresStorage(url) };
    },
    cleanup: () => dropSchemas(schemas),
  });
}

describe.skipIf(!PG_URL)('postgres storage specifics', () => {
  afterAll(() => dropSchemas(schemas));

  it('is selected by a postgres:// URL and records its migrations', async () => {
    const url = fresh();
    const storage = openStorage(url);
    try {
      expect(storage).toBeInstanceOf(PostgresStorage);
      expect(storage.kind).toBe('postgres');
      expect(await storage.adapter('Client').list()).toEqual([]);
      const schema = new URL(url).searchParams.get('schema') as string;
      const { rows } = await adminQuery(
        `SELECT version, name FROM "${schema}".schema_migrations ORDER BY version`,
      );
      expect(rows).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })));
    } finally {
      await storage.close();
    }
  });

  it('migrates once when many instances start together', async () => {
    const url = fresh();
    const instances = Array.from({ length: 6 }, () => new PostgresStorage(url));
    try {
      await Promise.all(instances.map((s) => s.migrate()));
      await Promise.all(instances.map((s, i) => s.adapter('Client').upsert(`c${i}`, { i })));
      expect(await instances[0]?.adapter('Client').list()).toHaveLength(6);
      const schema = new URL(url).searchParams.get('schema') as string;
      const { rows } = await adminQuery(`SELECT count(*)::int AS n FROM "${schema}".schema_migrations`);
      expect(rows[0]?.n).toBe(MIGRATIONS.length);
      // A restart finds nothing to do.
      const again = new PostgresStorage(url);
      await again.migrate();
      await again.close();
    } finally {
      await Promise.all(instances.map((s) => s.close()));
    }
  });

  it('fails fast with StorageUnavailable when the database is unreachable', async () => {
    // Port 1 on loopback: nothing listens, connections are refused at once.
    const u = new URL(fresh());
    u.port = '1';
    const storage = new PostgresStorage(u.href);
    try {
      const started = performance.now();
      const err = await storage
        .adapter('AuthorizationCode')
        .consume('x')
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(performance.now() - started).toBeLessThan(2000);
      expect(err).toBeInstanceOf(StorageUnavailable);
      expect((err as StorageUnavailable).code).toBe('ERR_STORAGE_UNAVAILABLE');
      expect((err as Error).message).not.toContain('postgres@');
      expect(await storage.ping()).toBe(false);
    } finally {
      await storage.close();
    }
  });

  it('recovers by itself when the server drops every connection (restart, failover)', async () => {
    const url = fresh();
    const storage = new PostgresStorage(url, { onIdleError: () => {} });
    try {
      const a = storage.adapter('Client');
      await a.upsert('c', { v: 1 });
      await Promise.all([a.find('c'), a.find('c'), a.find('c')]); // several pooled connections
      const { rows } = await adminQuery(
        "SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = 'pqid' AND pid <> pg_backend_pid() AND query NOT LIKE '%pg_terminate_backend%'",
      );
      expect(rows[0]?.n).toBeGreaterThan(0);
      // Requests may fail with StorageUnavailable for a moment, never with anything else, and
      // the same storage object serves again without being reopened.
      let ok = false;
      for (let i = 0; i < 20 && !ok; i++) {
        try {
          expect(await a.find('c')).toEqual({ v: 1 });
          ok = true;
        } catch (e) {
          expect(isStorageUnavailable(e)).toBe(true);
          await sleep(100);
        }
      }
      expect(ok).toBe(true);
      expect(await storage.ping()).toBe(true);
    } finally {
      await storage.close();
    }
  });

  it('maps a statement timeout to StorageUnavailable', async () => {
    const url = urlWithSchema(uniqueSchema(), { statement_timeout_ms: '200' });
    schemas.add(new URL(url).searchParams.get('schema') as string);
    const storage = new PostgresStorage(url);
    try {
      await storage.adapter('Client').upsert('c', { v: 1 });
      // Hold the row lock from outside, so consume waits past its statement timeout.
      const schema = storage.settings.schema;
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      try {
        await client.query('BEGIN');
        await client.query(`SELECT 1 FROM "${schema}".records WHERE id = 'c' FOR UPDATE`);
        await expect(storage.adapter('Client').consume('c')).rejects.toBeInstanceOf(StorageUnavailable);
        await client.query('ROLLBACK');
      } finally {
        await client.end();
      }
      expect(await storage.adapter('Client').consume('c')).toBe(true);
    } finally {
      await storage.close();
    }
  });
});

describe('postgres URL and error handling (no database needed)', () => {
  it('parses pqid settings out of the URL and keeps the rest for the driver', () => {
    const { connectionString, settings } = parsePostgresUrl(
      'postgres://u:secret@db.example:5433/pqid?sslmode=require&schema=idp&pool_max=20&connect_timeout_ms=1500',
    );
    expect(settings).toEqual({ ...PG_DEFAULTS, schema: 'idp', poolMax: 20, connectTimeoutMs: 1500 });
    expect(connectionString).toBe('postgres://u:secret@db.example:5433/pqid?sslmode=require');
    expect(parsePostgresUrl('postgresql://h/db').settings).toEqual(PG_DEFAULTS);
  });

  it.each([
    ['postgres://h', /needs a database name/],
    ['postgres://h/db?schema=x;drop', /schema must be/],
    ['postgres://h/db?pool_max=-1', /pool_max must be a positive integer/],
    ['postgres://h/db?statement_timeout_ms=soon', /statement_timeout_ms must be a positive integer/],
  ])('rejects %s', (url, message) => {
    expect(() => parsePostgresUrl(url)).toThrow(message);
    expect(() => openStorage(url)).toThrow(ConfigError);
  });

  it('never shows the password', () => {
    expect(redactDatabaseUrl('postgres://pqid:s3cr%40t@db:5432/pqid')).toBe(
      'postgres://pqid:***@db:5432/pqid',
    );
    expect(redactDatabaseUrl('postgres://pqid@db/pqid')).toBe('postgres://pqid@db/pqid');
    expect(() => parsePostgresUrl('postgres://pqid:s3cret@/')).toThrow(/^(?!.*s3cret)/);
  });

  it('classifies driver errors: unavailability vs. bugs', () => {
    const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });
    for (const e of [
      coded('ECONNREFUSED'),
      coded('57P01', 'terminating connection due to administrator command'),
      coded('57P03', 'the database system is starting up'),
      coded('08006'),
      coded('53300', 'too many connections'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new AggregateError([coded('ECONNREFUSED')], ''),
    ])
      expect(isPgUnavailableError(e), String(e)).toBe(true);
    for (const e of [coded('42P01', 'relation does not exist'), coded('23505'), new TypeError('bug'), 'str'])
      expect(isPgUnavailableError(e), String(e)).toBe(false);
    const wrapped = toStorageError(coded('ECONNREFUSED'), 'find');
    expect(wrapped).toBeInstanceOf(StorageUnavailable);
    expect(isStorageUnavailable(wrapped)).toBe(true);
    const bug = new TypeError('bug');
    expect(toStorageError(bug, 'find')).toBe(bug);
    expect(errorAnswer(wrapped)).toEqual({
      status: 503,
      headers: { 'retry-after': '1', 'cache-control': 'no-store' },
      body: { error: 'temporarily_unavailable', error_description: expect.any(String) },
    });
  });
});
