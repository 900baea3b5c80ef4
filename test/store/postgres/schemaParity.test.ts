// Every SQLite table and column has its PostgreSQL twin with a compatible type, the same
// nullability, the same primary key and the same named indexes: read from both catalogs, so a
// migration added on one side only fails here.

import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../../store/index.js';
import { migrate } from '../../../store/migrate.js';
import { connectPostgres } from '../../../store/postgres/index.js';
import { startPostgres, type TestPostgres } from '../../support/postgres.js';

interface Column {
  table: string;
  column: string;
  type: string;
  notNull: boolean;
  primaryKey: boolean;
}

let server: TestPostgres;
let sqliteColumns: Column[];
let postgresColumns: Column[];
let sqliteIndexes: string[];
let postgresIndexes: string[];
let sqliteBooleans: Set<string>;

beforeAll(async () => {
  server = await startPostgres();
  const url = await server.createDatabase();
  await (await connectPostgres(url)).close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    postgresColumns = (
      await client.query<{ table: string; column: string; type: string; not_null: boolean; primary_key: boolean }>(`
        SELECT c.table_name AS table, c.column_name AS column, c.data_type AS type, c.is_nullable = 'NO' AS not_null,
               EXISTS (SELECT 1 FROM information_schema.table_constraints t
                       JOIN information_schema.key_column_usage k USING (constraint_schema, constraint_name, table_name)
                       WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema
                         AND k.table_name = c.table_name AND k.column_name = c.column_name) AS primary_key
        FROM information_schema.columns c
        WHERE c.table_schema = 'public' AND c.table_name <> 'schema_migrations'`)
    ).rows.map((r) => ({ table: r.table, column: r.column, type: r.type, notNull: r.not_null, primaryKey: r.primary_key }));
    postgresIndexes = (await client.query<{ indexname: string }>("SELECT indexname FROM pg_indexes WHERE schemaname = 'public'")).rows.map((r) => r.indexname);
  } finally {
    await client.end();
  }

  const db = new Database(':memory:');
  migrate(db, migrationsFolder('sqlite'), () => '2026-01-01T00:00:00.000Z');
  const tables = db
    .prepare<[], { name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT IN ('schema_migrations', 'sqlite_sequence')")
    .all();
  sqliteColumns = tables.flatMap(({ name }) =>
    db
      .prepare<[string], { name: string; type: string; notnull: number; pk: number }>('SELECT name, type, "notnull", pk FROM pragma_table_info(?)')
      .all(name)
      .map((c) => ({ table: name, column: c.name, type: c.type, notNull: c.notnull === 1 || c.pk > 0, primaryKey: c.pk > 0 })),
  );
  // SQLite has no boolean: a flag is an INTEGER column checked to be 0 or 1.
  sqliteBooleans = new Set(tables.flatMap(({ name, sql }) => [...sql.matchAll(/CHECK \((\w+) IN \(0, 1\)\)/g)].map((m) => `${name}.${m[1]}`)));
  sqliteIndexes = db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").pluck().all();
  db.close();
});

afterAll(async () => {
  await server?.stop();
});

const key = (c: Column): string => `${c.table}.${c.column}`;

/** The PostgreSQL types a SQLite column may become (see migrations/postgres/0001_initial.sql). */
function compatibleTypes(c: Column): string[] {
  if (c.type === 'TEXT' && c.column.endsWith('_json')) return ['json'];
  if (c.type === 'TEXT' && c.column.endsWith('_at')) return ['timestamp with time zone'];
  if (c.type === 'TEXT') return ['text'];
  if (c.type === 'INTEGER' && sqliteBooleans.has(key(c))) return ['boolean'];
  if (c.type === 'INTEGER' && c.primaryKey) return ['bigint'];
  if (c.type === 'INTEGER') return ['integer', 'bigint'];
  if (c.type === 'REAL') return ['double precision'];
  return [`(no PostgreSQL type for SQLite ${c.type})`];
}

describe('schema parity between migrations/sqlite and migrations/postgres', () => {
  it('has every SQLite table and column in PostgreSQL, and nothing more', () => {
    expect(sqliteColumns.length).toBeGreaterThan(50);
    expect(postgresColumns.map(key).sort()).toEqual(sqliteColumns.map(key).sort());
  });

  it('gives every column a compatible type, the same nullability and the same primary key', () => {
    const pgByKey = new Map(postgresColumns.map((c) => [key(c), c]));
    const mismatches = sqliteColumns.flatMap((s) => {
      const p = pgByKey.get(key(s));
      if (p === undefined) return [];
      const problems: string[] = [];
      if (!compatibleTypes(s).includes(p.type)) problems.push(`${key(s)}: SQLite ${s.type} but PostgreSQL ${p.type} (expected ${compatibleTypes(s).join(' or ')})`);
      if (s.notNull !== p.notNull) problems.push(`${key(s)}: NOT NULL ${s.notNull} in SQLite, ${p.notNull} in PostgreSQL`);
      if (s.primaryKey !== p.primaryKey) problems.push(`${key(s)}: primary key ${s.primaryKey} in SQLite, ${p.primaryKey} in PostgreSQL`);
      return problems;
    });
    expect(mismatches).toEqual([]);
  });

  it('has every named SQLite index in PostgreSQL', () => {
    expect(sqliteIndexes.length).toBeGreaterThan(0);
    expect(postgresIndexes).toEqual(expect.arrayContaining(sqliteIndexes));
  });
});
