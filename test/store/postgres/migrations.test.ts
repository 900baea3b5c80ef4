import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder, readMigrations, StoreError } from '../../../store/index.js';
import { connectPostgres, type PostgresConnection } from '../../../store/postgres/index.js';
import { startPostgres, type TestPostgres } from '../../support/postgres.js';

let server: TestPostgres;
const open: PostgresConnection[] = [];
const folders: string[] = [];

beforeAll(async () => {
  server = await startPostgres();
});

afterAll(async () => {
  for (const c of open.splice(0)) await c.close();
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
  await server?.stop();
});

async function connect(url: string, migrationsDir?: string): Promise<PostgresConnection> {
  const connection = await connectPostgres(url, migrationsDir === undefined ? {} : { migrationsDir });
  open.push(connection);
  return connection;
}

async function query<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

async function connectError(url: string, migrationsDir?: string): Promise<StoreError> {
  try {
    await connect(url, migrationsDir);
  } catch (err) {
    if (err instanceof StoreError) return err;
    throw err;
  }
  throw new Error('connectPostgres succeeded but should have failed');
}

function copyMigrations(): string {
  const root = mkdtempSync(join(tmpdir(), 'squadron-pg-migrations-'));
  folders.push(root);
  const dir = join(root, 'postgres');
  mkdirSync(dir);
  for (const f of readdirSync(migrationsFolder('postgres'))) copyFileSync(join(migrationsFolder('postgres'), f), join(dir, f));
  return dir;
}

const files = readMigrations(migrationsFolder('postgres'));

describe('PostgreSQL migrations', () => {
  it('apply on a fresh database, each recorded with the checksum of its file', async () => {
    const url = await server.createDatabase();
    const connection = await connect(url);
    expect(connection.applied).toEqual(files.map((f) => f.fileName));
    const rows = await query<{ version: number; name: string; checksum: string }>(url, 'SELECT version, name, checksum FROM schema_migrations ORDER BY version');
    expect(rows).toEqual(files.map((f) => ({ version: f.version, name: f.name, checksum: f.checksum })));
    const tables = await query<{ table_name: string }>(url, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name");
    expect(tables.map((t) => t.table_name)).toEqual(
      ['api_tokens', 'budget_reservations', 'context_views', 'events', 'leases', 'loaded_tools', 'messages', 'model_turns', 'operator_requests', 'route_decisions', 'run_cancels', 'runs', 'schedule_fires', 'schedule_pauses', 'schema_migrations', 'sessions', 'stored_results', 'task_items', 'tasks', 'tool_calls', 'webhook_deliveries', 'webhook_log', 'webhook_runs', 'work_units'],
    );
  });

  it('are idempotent: connecting again applies nothing and leaves the bookkeeping as it was', async () => {
    const url = await server.createDatabase();
    await connect(url);
    const before = await query(url, 'SELECT version, applied_at FROM schema_migrations ORDER BY version');
    const again = await connect(url);
    expect(again.applied).toEqual([]);
    expect(await query(url, 'SELECT version, applied_at FROM schema_migrations ORDER BY version')).toEqual(before);
  });

  it('verify an up-to-date database without waiting for the migration lock', async () => {
    const url = await server.createDatabase();
    await connect(url);
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1, $2)', [0x5351, 1]);
      const again = await connect(url); // would wait for the holder if it took the lock
      expect(again.applied).toEqual([]);
    } finally {
      await holder.end();
    }
  });

  it('let one of two concurrent migrators apply the schema while the other waits on the lock, then finds it done', async () => {
    const url = await server.createDatabase();
    // Hold the migration lock so both migrators are certainly inside their transaction at once.
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock($1, $2)', [0x5351, 1]);
    const both = Promise.all([connectPostgres(url), connectPostgres(url)]);
    for (;;) {
      const [row] = await query<{ waiting: number }>(url, "SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
      if (row?.waiting === 2) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await holder.query('SELECT pg_advisory_unlock($1, $2)', [0x5351, 1]);
    await holder.end();
    const connections = await both;
    open.push(...connections);
    expect(connections.map((c) => c.applied.length).sort()).toEqual([0, files.length]);
    const rows = await query<{ version: number }>(url, 'SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(files.map((f) => f.version));
  });

  it('refuses a migration edited after it was applied, with the same rule as SQLite', async () => {
    const dir = copyMigrations();
    const url = await server.createDatabase();
    await connect(url, dir);
    appendFileSync(join(dir, '0001_initial.sql'), '\nCREATE TABLE sneaky (id integer);\n');
    const err = await connectError(url, dir);
    expect(err.code).toBe('MIGRATION_EDITED');
    expect(err.message).toMatch(/^migration 0001_initial\.sql was edited after it was applied/);
  });

  it('rolls back a failing migration with everything else pending, naming the file', async () => {
    const dir = copyMigrations();
    const next = String(files.length + 1).padStart(4, '0');
    appendFileSync(join(dir, `${next}_broken.sql`), 'CREATE TABLE half (id integer);\nINSERT INTO no_such_table VALUES (1);\n');
    const url = await server.createDatabase();
    const err = await connectError(url, dir);
    expect(err.code).toBe('MIGRATION_FAILED');
    expect(err.message).toContain(`postgres/${next}_broken.sql failed: relation "no_such_table" does not exist`);
    const tables = await query(url, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
    expect(tables).toEqual([]);
  });

  it('refuses a database whose schema_migrations table belongs to another tool, changing nothing', async () => {
    const url = await server.createDatabase();
    await query(url, 'CREATE TABLE schema_migrations (version text PRIMARY KEY, dirty boolean)');
    const err = await connectError(url);
    expect(err.code).toBe('OPEN_FAILED');
    expect(err.message).toMatch(/:\*\*\*@127\.0\.0\.1:\d+\/test_\w+ is not a Squadron database: its schema_migrations table belongs to another tool; nothing was changed/);
    const tables = await query(url, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
    expect(tables).toEqual([{ table_name: 'schema_migrations' }]);
  });

  it('reads json as the text written, timestamptz as ISO-8601 UTC and bigint ids as numbers', async () => {
    const url = await server.createDatabase();
    const connection = await connect(url);
    const inputs = '{"z":1,"a":[true,null],"s":"\\u0000"}';
    await connection.pool.query(
      "INSERT INTO runs (id, mission, config_path, status, inputs_json, started_at) VALUES ('run_1', 'm', '/c.hcl', 'running', $1, '2026-12-01T13:30:00.123Z')",
      [inputs],
    );
    await connection.pool.query("INSERT INTO events (run_id, type, data_json, created_at) VALUES ('run_1', 'run.started', '{}', now())");
    const { rows } = await connection.pool.query('SELECT r.inputs_json, r.started_at, e.id FROM runs r JOIN events e ON e.run_id = r.id');
    expect(rows).toEqual([{ inputs_json: inputs, started_at: '2026-12-01T13:30:00.123Z', id: 1 }]);
  });
});
