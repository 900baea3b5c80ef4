// The SQLite migration runner: the files of migrations/sqlite/ applied in order, each in its own
// transaction with its `schema_migrations` row. Applied files are checksummed so an edited migration,
// a gap in numbering, or a database written by a newer squadron is refused before anything is
// touched (the rules are in migrationFiles.ts, shared with the PostgreSQL runner). An up-to-date
// database costs one read of schema_migrations and no write transaction.

import type Database from 'better-sqlite3';
import { z } from 'zod';
import { StoreError } from './errors.js';
import { readMigrations, verifyApplied, type AppliedMigration, type MigrationFile } from './migrationFiles.js';

export { migrationChecksum, readMigrations } from './migrationFiles.js';
export type { MigrationFile } from './migrationFiles.js';

/** A line of a migration file asking to be applied with foreign keys off. */
const FOREIGN_KEYS_OFF = /^-- squadron: foreign_keys off$/m;

const AppliedRow = z.object({ version: z.number().int(), name: z.string(), checksum: z.string() });

/**
 * Verifies every applied migration against its file, then applies the pending ones. `migrations` is
 * the folder, or its files already read (so an open reads and checksums them once). Safe against a
 * concurrent opener: each migration re-checks, under the write lock, whether it was applied meanwhile.
 */
export function migrate(db: Database.Database, migrations: string | MigrationFile[], now: () => string): { applied: string[] } {
  const files = typeof migrations === 'string' ? readMigrations(migrations) : migrations;
  const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get() !== undefined;
  if (hasTable && verifyApplied(appliedRows(db), files).length === 0) return { applied: [] };

  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    checksum TEXT NOT NULL,
    applied_at TEXT NOT NULL
  ) STRICT`);
  const pending = verifyApplied(appliedRows(db), files);
  const isApplied = db.prepare<[number], { version: number }>('SELECT version FROM schema_migrations WHERE version = ?');
  const record = db.prepare('INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)');
  const applied: string[] = [];
  for (const file of pending) {
    // A migration that rebuilds a referenced table (SQLite's 12-step procedure) runs with foreign
    // keys off, which can only change outside a transaction; they are checked before it commits.
    const keysOff = FOREIGN_KEYS_OFF.test(file.sql);
    const apply = db.transaction(() => {
      if (isApplied.get(file.version) !== undefined) return false;
      db.exec(file.sql);
      if (keysOff && (db.pragma('foreign_key_check') as unknown[]).length > 0) throw new Error('it leaves rows whose foreign keys point nowhere');
      record.run(file.version, file.name, file.checksum, now());
      return true;
    });
    let didApply: boolean;
    if (keysOff) db.pragma('foreign_keys = OFF');
    try {
      didApply = apply.immediate();
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new StoreError('MIGRATION_FAILED', `migration ${file.fileName} failed: ${reason}`, { cause: err });
    } finally {
      if (keysOff) db.pragma('foreign_keys = ON');
    }
    if (didApply) applied.push(file.fileName);
  }
  // Another process may have applied migrations between our check and our lock: verify once more.
  if (applied.length < pending.length) verifyApplied(appliedRows(db), files);
  return { applied };
}

const BOOKKEEPING_COLUMNS = ['applied_at', 'checksum', 'name', 'version'];

/**
 * How Squadron recognises its own database: a `schema_migrations` table with exactly the columns
 * this runner writes (version, name, checksum, applied_at). Other tools' tables of that name (Rails,
 * golang-migrate, …) have other columns. Which migrations are applied, and whether their checksums
 * match, is then checked by `pendingMigrations`; migrations added later do not change this test.
 */
export function hasSquadronSchema(db: Database.Database): boolean {
  const columns = db
    .prepare<[], { name: string; pk: number }>("SELECT name, pk FROM pragma_table_info('schema_migrations') ORDER BY name")
    .all();
  return columns.map((c) => c.name).join(',') === BOOKKEEPING_COLUMNS.join(',') && columns.find((c) => c.name === 'version')?.pk === 1;
}

/** The migrations not yet applied to a Squadron database, after verifying the applied ones (read-only). */
export function pendingMigrations(db: Database.Database, files: MigrationFile[]): MigrationFile[] {
  return verifyApplied(appliedRows(db), files);
}

function appliedRows(db: Database.Database): AppliedMigration[] {
  return db
    .prepare('SELECT version, name, checksum FROM schema_migrations ORDER BY version')
    .all()
    .map((r) => AppliedRow.parse(r));
}
