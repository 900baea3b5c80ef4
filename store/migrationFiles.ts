// Migration files, the same for every backend: `migrations/<backend>/NNNN_name.sql`, numbered without
// gaps, each identified by its number, name and a checksum of its content. A backend's runner
// records what it applied; verifyApplied is the one rule that refuses an edited or renamed
// migration, or a database written by a newer squadron.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assetPath } from '../core/assets.js';
import { StoreError } from './errors.js';

export type Backend = 'sqlite' | 'postgres';

export interface MigrationFile {
  version: number;
  name: string;
  fileName: string;
  sql: string;
  checksum: string;
}

/** A row of a backend's `schema_migrations` table, as verifyApplied needs it. */
export interface AppliedMigration {
  version: number;
  name: string;
  checksum: string;
}

const FILE_PATTERN = /^(\d{4})_([a-z0-9_]+)\.sql$/;

/** The packaged migrations of a backend. */
export function migrationsFolder(backend: Backend): string {
  return assetPath('migrations', backend);
}

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
 * Throws unless every applied migration is one of `files`, unrenamed and unedited; returns the files
 * still to apply (so an up-to-date database costs one read of its bookkeeping table and no write).
 */
export function verifyApplied(applied: AppliedMigration[], files: MigrationFile[]): MigrationFile[] {
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
  const done = new Set(applied.map((r) => r.version));
  return files.filter((f) => !done.has(f.version));
}

function pad(version: number): string {
  return String(version).padStart(4, '0');
}
