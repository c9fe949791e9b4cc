/**
 * Versioned schema migrations for PostgreSQL. Each instance runs `migrate` at start; the whole
 * run is one transaction under an advisory lock, so instances starting together apply each
 * migration exactly once and none sees a half-built schema. Migrations are append-only: never
 * edit a released one, add the next number. A database already at a newer version (a rolling
 * upgrade where a newer instance migrated first) is left alone, as migrations must stay
 * backward compatible with the previous release.
 */
import type { Pool } from 'pg';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'records',
    // One table for every model, like the SQLite store. `payload` is `json` (not jsonb) so it
    // round-trips byte for byte and accepts any string JSON can hold. Times are the database's
    // clock (`now()`), so instances with skewed clocks agree on expiry. `seq` keeps insertion
    // order for list().
    sql: `
CREATE TABLE records (
  model       text NOT NULL,
  id          text NOT NULL,
  payload     json NOT NULL,
  grant_id    text,
  uid         text,
  consumed_at timestamptz,
  expires_at  timestamptz,
  seq         bigint GENERATED ALWAYS AS IDENTITY,
  PRIMARY KEY (model, id)
);
CREATE INDEX records_grant ON records (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX records_uid ON records (model, uid) WHERE uid IS NOT NULL;
CREATE INDEX records_expiry ON records (expires_at) WHERE expires_at IS NOT NULL;
`,
  },
  {
    version: 2,
    name: 'revoked_grants',
    // revokeGrant leaves a tombstone, and records of a grant are only written while holding the
    // grant's advisory lock after checking for it: an issuance racing a revocation (reuse
    // detection on another instance) can then never leave a live token behind. Functions keep it
    // one round trip; SET search_path FROM CURRENT pins them to this schema.
    sql: `
CREATE TABLE revoked_grants (
  grant_id   text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX revoked_grants_expiry ON revoked_grants (expires_at);

CREATE FUNCTION pqid_upsert_in_grant(p_model text, p_id text, p_payload json, p_grant text, p_uid text,
                                     p_expires_in float8) RETURNS boolean
LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('pqid:grant:' || p_grant, 0));
  IF EXISTS (SELECT 1 FROM revoked_grants WHERE grant_id = p_grant AND expires_at > now()) THEN
    RETURN false;
  END IF;
  INSERT INTO records (model, id, payload, grant_id, uid, consumed_at, expires_at)
  VALUES (p_model, p_id, p_payload, p_grant, p_uid, NULL, now() + make_interval(secs => p_expires_in))
  ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
    uid = excluded.uid, consumed_at = NULL, expires_at = excluded.expires_at;
  RETURN true;
END
$fn$;

CREATE FUNCTION pqid_revoke_grant(p_grant text, p_keep_secs float8) RETURNS void
LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('pqid:grant:' || p_grant, 0));
  INSERT INTO revoked_grants (grant_id, expires_at) VALUES (p_grant, now() + make_interval(secs => p_keep_secs))
  ON CONFLICT (grant_id) DO UPDATE SET expires_at = excluded.expires_at;
  DELETE FROM records WHERE grant_id = p_grant;
END
$fn$;
`,
  },
  {
    version: 3,
    name: 'login_failures',
    // Failed logins, one row each, so that a lockout counts attempts spread over instances.
    // `at` is the application's clock in ms (the limiter's sliding window is computed there).
    sql: `
CREATE TABLE login_failures (
  key        text NOT NULL,
  at         bigint NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX login_failures_key ON login_failures (key, at);
CREATE INDEX login_failures_expiry ON login_failures (expires_at);
`,
  },
  {
    version: 4,
    name: 'revoke_grant_counted',
    // revokeGrant says whether the grant still had a live record, so a revocation counts only
    // the grants it ended. A new function beside the old one: instances of the previous
    // version keep calling pqid_revoke_grant during a rolling upgrade. Under the grant's lock,
    // so of two revocations racing for one grant exactly one finds it live.
    sql: `
CREATE FUNCTION pqid_revoke_grant_counted(p_grant text, p_keep_secs float8) RETURNS boolean
LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
DECLARE
  v_live boolean;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('pqid:grant:' || p_grant, 0));
  INSERT INTO revoked_grants (grant_id, expires_at) VALUES (p_grant, now() + make_interval(secs => p_keep_secs))
  ON CONFLICT (grant_id) DO UPDATE SET expires_at = excluded.expires_at;
  WITH gone AS (DELETE FROM records WHERE grant_id = p_grant RETURNING expires_at)
  SELECT EXISTS (SELECT 1 FROM gone WHERE expires_at IS NULL OR expires_at > now()) INTO v_live;
  RETURN v_live;
END
$fn$;
`,
  },
];

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Apply every pending migration to `schema`; returns the versions applied now. */
export async function migrate(
  pool: Pool,
  schema: string,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  const client = await pool.connect();
  const applied: number[] = [];
  try {
    await client.query('BEGIN');
    // Transaction-scoped: released at COMMIT/ROLLBACK, and if this connection dies mid-way.
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`pqid:migrate:${schema}`]);
    // Only create a missing schema: CREATE SCHEMA IF NOT EXISTS needs CREATE on the database
    // even when the schema exists, which a least-privilege role may not have.
    const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (exists.rowCount === 0) await client.query(`CREATE SCHEMA ${quoteIdent(schema)}`);
    await client.query(`SET LOCAL search_path TO ${quoteIdent(schema)}`);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    integer PRIMARY KEY,
      name       text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const done = new Set(rows.map((r) => r.version));
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(m.version)) continue;
      await client.query(m.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        m.version,
        m.name,
      ]);
      applied.push(m.version);
    }
    await client.query('COMMIT');
    client.release();
    return applied;
  } catch (e) {
    // A failed ROLLBACK means the connection is broken: destroy it rather than pool it.
    const broken = await client.query('ROLLBACK').then(
      () => false,
      () => true,
    );
    client.release(broken ? (e as Error) : undefined);
    throw e;
  }
}
