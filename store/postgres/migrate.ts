// The PostgreSQL migration runner: the files of migrations/postgres/, checksummed and verified by the
// same rules as SQLite's (migrationFiles.ts). Pending files are applied in one transaction that
// first takes an advisory lock, so two runners starting at once do not both migrate: the second
// waits, then finds the work done. An up-to-date database costs one query and takes no lock.

import type { ClientBase } from 'pg';
import { z } from 'zod';
import { StoreError } from '../errors.js';
import { verifyApplied, type AppliedMigration, type MigrationFile } from '../migrationFiles.js';

/** pg_advisory_xact_lock(class, id): 0x5351 "SQ" for Squadron, 1 for "migrating the schema". */
const LOCK_CLASS = 0x5351;
const LOCK_MIGRATE = 1;

const AppliedRow = z.object({ version: z.number().int(), name: z.string(), checksum: z.string() });

const UNDEFINED_TABLE = '42P01';
const UNDEFINED_COLUMN = '42703';

/**
 * Verifies the applied migrations of the database `client` is connected to (its current schema)
 * and applies the pending ones; returns the file names applied. `display` names the database in
 * messages (the redacted URL).
 */
export async function migratePostgres(client: ClientBase, files: MigrationFile[], display: string): Promise<{ applied: string[] }> {
  const before = await readApplied(client, display);
  if (before !== undefined && verifyApplied(before, files).length === 0) return { applied: [] };

  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_CLASS, LOCK_MIGRATE]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    integer PRIMARY KEY,
      name       text NOT NULL,
      checksum   text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const pending = verifyApplied((await readApplied(client, display)) ?? [], files);
    const applied: string[] = [];
    for (const file of pending) {
      try {
        await client.query(file.sql);
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw new StoreError('MIGRATION_FAILED', `migration postgres/${file.fileName} failed: ${reason}`, { cause: err });
      }
      await client.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [file.version, file.name, file.checksum]);
      applied.push(file.fileName);
    }
    await client.query('COMMIT');
    return { applied };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/**
 * The rows of schema_migrations in the current schema; undefined when there is no such table. A
 * table of that name with other columns (another tool's) means the database is not ours.
 */
async function readApplied(client: ClientBase, display: string): Promise<AppliedMigration[] | undefined> {
  let rows: unknown[];
  try {
    rows = (await client.query('SELECT version, name, checksum FROM schema_migrations ORDER BY version')).rows;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === UNDEFINED_TABLE) return undefined;
    if (code === UNDEFINED_COLUMN) throw notOurs(display);
    throw err;
  }
  return rows.map((r) => {
    const parsed = AppliedRow.safeParse(r);
    if (!parsed.success) throw notOurs(display);
    return parsed.data;
  });
}

function notOurs(display: string): StoreError {
  return new StoreError(
    'OPEN_FAILED',
    `${display} is not a Squadron database: its schema_migrations table belongs to another tool; nothing was changed (use another database, or another schema with options=-c search_path=<schema>)`,
  );
}
