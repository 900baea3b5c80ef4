// The migration runner: `NNNN_name.sql` files applied in order, each in its own transaction with its
// `schema_migrations` row. Applied files are checksummed so an edited migration, a gap in numbering,
// or a database written by a newer squadron is refused before anything is touched.

import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { StoreError } from './errors.js';

export interface MigrationFile {
  version: number;
  name: string;
  fileName: string;
  sql: string;
  checksum: string;
}

const FILE_PATTERN = /^(\d{4})_([a-z0-9_]+)\.sql$/;

const AppliedRow = z.object({ version: z.number().int(), name: z.string(), checksum: z.string() });

/** sha256 of the text with CRLF normalised, so a Windows checkout does not look like an edit. */
export function migrationChecksum(sql: string): string {
  return createHash('sha256').update(sql.replace(/\r\n/g, '\n'), 'utf8').digest('hex');
}

/** Reads and orders the migration files; misnamed, duplicate or missing numbers are errors. */
export function readMigrations(dir: string): MigrationFile[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch (err) {
    throw new StoreError('OPEN_FAILED', `cannot read the migrations folder ${dir}`, { cause: err });
  }
  const files: MigrationFile[] = [];
  for (const fileName of entries.filter((f) => f.endsWith('.sql')).sort()) {
    const m = FILE_PATTERN.exec(fileName);
    if (m === null) {
      throw new StoreError(
        'MIGRATION_SEQUENCE',
        `migration file ${fileName} is misnamed; expected NNNN_name.sql (four digits, lowercase name)`,
      );
    }
    const sql = readFileSync(join(dir, fileName), 'utf8');
    files.push({ version: Number(m[1]), name: m[2] ?? '', fileName, sql, checksum: migrationChecksum(sql) });
  }
  files.forEach((file, i) => {
    const previous = files[i - 1];
    if (previous !== undefined && previous.version === file.version) {
      throw new StoreError('MIGRATION_SEQUENCE', `migrations ${previous.fileName} and ${file.fileName} share number ${pad(file.version)}`);
    }
    if (file.version !== i + 1) {
      const after = previous === undefined ? 'at the start' : `after ${previous.fileName}`;
      throw new StoreError('MIGRATION_SEQUENCE', `migration ${pad(i + 1)} is missing ${after} (next file is ${file.fileName}); numbers must run 0001, 0002, … without gaps`);
    }
  });
  return files;
}

/**
 * Verifies every applied migration against its file, then applies the pending ones. Safe against a
 * concurrent opener: each migration re-checks, under the write lock, whether it was applied meanwhile.
 */
export function migrate(db: Database.Database, dir: string, now: () => string): { applied: string[] } {
  const files = readMigrations(dir);
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    checksum TEXT NOT NULL,
    applied_at TEXT NOT NULL
  ) STRICT`);
  const readApplied = db.prepare('SELECT version, name, checksum FROM schema_migrations ORDER BY version');
  const appliedRows = (): z.output<typeof AppliedRow>[] => readApplied.all().map((r) => AppliedRow.parse(r));

  verifyApplied(appliedRows(), files);

  const isApplied = db.prepare<[number], { version: number }>('SELECT version FROM schema_migrations WHERE version = ?');
  const record = db.prepare('INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)');
  const applied: string[] = [];
  for (const file of files) {
    const apply = db.transaction(() => {
      if (isApplied.get(file.version) !== undefined) return false;
      db.exec(file.sql);
      record.run(file.version, file.name, file.checksum, now());
      return true;
    });
    let didApply: boolean;
    try {
      didApply = apply.immediate();
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new StoreError('MIGRATION_FAILED', `migration ${file.fileName} failed: ${reason}`, { cause: err });
    }
    if (didApply) applied.push(file.fileName);
  }
  // Another process may have applied migrations between our check and our lock: verify once more.
  if (applied.length < files.length) verifyApplied(appliedRows(), files);
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
  const rows = db.prepare('SELECT version, name, checksum FROM schema_migrations ORDER BY version').all().map((r) => AppliedRow.parse(r));
  verifyApplied(rows, files);
  const applied = new Set(rows.map((r) => r.version));
  return files.filter((f) => !applied.has(f.version));
}

function verifyApplied(applied: z.output<typeof AppliedRow>[], files: MigrationFile[]): void {
  const known = files.at(-1);
  for (const row of applied) {
    const file = files[row.version - 1];
    const appliedName = `${pad(row.version)}_${row.name}.sql`;
    if (file === undefined) {
      const latest = known === undefined ? 'none' : known.fileName;
      throw new StoreError(
        'MIGRATION_UNKNOWN',
        `the database was written by a newer squadron (it has migration ${appliedName}; this version knows up to ${latest}); upgrade squadron to open it`,
      );
    }
    if (file.name !== row.name) {
      throw new StoreError(
        'MIGRATION_EDITED',
        `migration ${appliedName} was renamed to ${file.fileName} after it was applied; restore it and add a new migration instead`,
      );
    }
    if (file.checksum !== row.checksum) {
      throw new StoreError(
        'MIGRATION_EDITED',
        `migration ${file.fileName} was edited after it was applied (checksum ${row.checksum.slice(0, 12)}… recorded, ${file.checksum.slice(0, 12)}… now); restore it and add a new migration instead`,
      );
    }
  }
}

function pad(version: number): string {
  return String(version).padStart(4, '0');
}
