// Opens the SQLite database for writing (run, resume) or for reading (runs, inspect). Writing creates
// a missing database (0600, in 0700 folders) and migrates it; reading never creates, chmods or
// migrates a file it cannot write. Either way an existing file must be a Squadron database (see
// dbFile.ts and hasSquadronSchema), checked on a read-only connection before anything is written.
// Then WAL with synchronous=NORMAL and checkpoints every WAL_CHECKPOINT_PAGES, foreign keys on, a busy
// timeout, and the repositories with their statements prepared once.

import type Database from 'better-sqlite3';
import { accessSync, constants, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { BUSY_TIMEOUT_MS } from './begin.js';
import { createDbFile, examineDbFile, notSquadronDb } from '../dbFile.js';
import { heldByAnotherProcess, isBusy, StoreError } from '../errors.js';
import { isoTime } from '../ids.js';
import { hasSquadronSchema, migrate, pendingMigrations } from '../migrate.js';
import { migrationsFolder, readMigrations, type MigrationFile } from '../migrationFiles.js';
import type { Redactor } from '../redact.js';
import { sqliteStore, type SqliteStoreOptions } from './store.js';
import type { Store } from '../store.js';

export interface OpenStoreOptions {
  /**
   * 'write' (default) creates the database when missing and applies pending migrations; 'read'
   * needs an existing database and opens it read-only (pending migrations are applied only when the
   * file and its folder are writable, and reported through onNote).
   */
  access?: 'write' | 'read';
  /**
   * Told what an open did or could not do: an existing database upgraded to the current schema, or a
   * read-only one of an older schema read as it is.
   */
  onNote?: (message: string) => void;
  /**
   * false: an existing database of an older schema is refused (OPEN_FAILED) rather than upgraded. For
   * databases a command found by searching, which another (older) squadron may be using.
   */
  upgrade?: boolean;
  /** Applied to every stored text that may carry user or model content; restored on read. */
  redactor?: Redactor;
  /** Where the NNNN_name.sql files are; defaults to the packaged `migrations/sqlite/` (tests override it). */
  migrationsDir?: string;
  /**
   * NORMAL (default) survives a process crash, which is what resume is about; FULL also survives
   * power loss at a cost measured in bench/persistence.mjs.
   */
  synchronous?: 'NORMAL' | 'FULL';
  /**
   * Pages the write-ahead log may hold before a commit folds it back into the file (a checkpoint,
   * with two disk flushes). Default WAL_CHECKPOINT_PAGES; bench/persistence.mjs compares SQLite's 1000.
   */
  checkpointPages?: number;
  /** Milliseconds since the epoch; tests inject it to age leases without sleeping. */
  clock?: () => number;
}

const MEMORY = ':memory:';

/**
 * A model turn adds ~30 pages to the log (bench/persistence.mjs). At SQLite's default of 1000, one turn
 * in ~35 would pay for a checkpoint's flushes (~10-20 ms on an ordinary disk), which is the p99 of a
 * durable turn; at 10,000 it is one turn in ~350, and a log of at most ~40 MB between checkpoints.
 */
const WAL_CHECKPOINT_PAGES = 10_000;

export function openStore(path: string, opts: OpenStoreOptions = {}): Store {
  // Read and checksummed once per open; every step below compares against these.
  const files = readMigrations(opts.migrationsDir ?? migrationsFolder('sqlite'));
  if (path === MEMORY) {
    const db = connect(MEMORY, {});
    prepareWritable(db, MEMORY, files, opts);
    return storeOn(db, MEMORY, opts, true);
  }
  const file = resolve(path);
  return opts.access === 'read' ? openForReading(file, files, opts) : openForWriting(file, files, opts);
}

function openForWriting(file: string, files: MigrationFile[], opts: OpenStoreOptions): Store {
  if (examineDbFile(file) === 'missing') {
    createDbFile(file, (temp) => {
      const db = connect(temp, { fileMustExist: true });
      try {
        prepareWritable(db, temp, files, opts);
      } finally {
        db.close();
      }
    });
  }
  // Recognised on a read-only connection first: a file that is not ours is never opened for writing.
  const check = openToRecognise(file);
  try {
    refuseUpgrade(file, recognise(check, file, files), opts);
  } finally {
    check.close();
  }
  const db = connect(file, { fileMustExist: true });
  const { applied } = prepareWritable(db, file, files, opts);
  if (applied.length > 0) opts.onNote?.(upgraded(file, applied));
  return storeOn(db, file, opts, true);
}

function openForReading(file: string, files: MigrationFile[], opts: OpenStoreOptions): Store {
  if (examineDbFile(file) === 'missing') throw new StoreError('OPEN_FAILED', `no database at ${file}`);
  const check = openToRecognise(file);
  let pending: MigrationFile[];
  try {
    pending = recognise(check, file, files);
    refuseUpgrade(file, pending, opts);
  } finally {
    check.close();
  }
  if (pending.length > 0 && isWritable(file)) {
    const writer = connect(file, { fileMustExist: true });
    const { applied } = prepareWritable(writer, file, files, opts);
    writer.close();
    if (applied.length > 0) opts.onNote?.(upgraded(file, applied));
    pending = [];
  }
  const db = openReadOnly(file);
  try {
    // Statements are prepared as it opens when its schema is older: what it cannot answer is refused now.
    const store = storeOn(db, file, opts, pending.length === 0);
    if (pending.length > 0) opts.onNote?.(`reading ${file} as it is: it is read-only, so its schema was not upgraded (missing ${names(pending)})`);
    return store;
  } catch (err) {
    db.close();
    if (pending.length === 0) throw err;
    throw new StoreError(
      'OPEN_FAILED',
      `${file} has an older schema (missing ${names(pending)}) that this squadron cannot read, and it is read-only so it cannot be upgraded; open it once with write access to the file and its folder`,
      { cause: err },
    );
  }
}

function refuseUpgrade(file: string, pending: MigrationFile[], opts: OpenStoreOptions): void {
  if (pending.length === 0 || opts.upgrade !== false) return;
  throw new StoreError('OPEN_FAILED', `${file} has an older schema (missing ${names(pending)}), left as it is: an older squadron may still use it; name it with --db to upgrade it`);
}

/** Throws unless `db` is a Squadron database whose applied migrations match ours; returns the pending ones. */
function recognise(db: Database.Database, file: string, files: MigrationFile[]): MigrationFile[] {
  let ours: boolean;
  try {
    ours = hasSquadronSchema(db);
  } catch (err) {
    // e.g. "file is not a database" for a file with a SQLite header and garbage after it.
    throw new StoreError('OPEN_FAILED', `cannot open the database ${file}: ${(err as Error).message}`, { cause: err });
  }
  if (!ours) throw notSquadronDb(file, 'is a SQLite database without Squadron\'s schema');
  return pendingMigrations(db, files);
}

/**
 * The connection that decides whether a file is ours. With no -wal or -shm beside it, no connection
 * is open and the main file is complete (Squadron creates its databases checkpointed), so it is read
 * as immutable: SQLite then creates nothing beside another application's WAL-mode file either.
 */
function openToRecognise(file: string): Database.Database {
  const quiet = !existsSync(`${file}-wal`) && !existsSync(`${file}-shm`);
  return quiet ? connect(immutableUri(file), { readonly: true, fileMustExist: true, uri: true }) : openReadOnly(file);
}

/**
 * A read-only connection. SQLite reads a WAL database through its -shm file, which it must be able to
 * create when absent; in a folder we cannot write, with no -wal left to read, the file is complete
 * and unchangeable, so it is opened as immutable instead.
 */
function openReadOnly(file: string): Database.Database {
  const dir = dirname(file);
  const needsSideFiles = !existsSync(`${file}-shm`) && !canAccess(dir, constants.W_OK);
  if (needsSideFiles && existsSync(`${file}-wal`)) {
    throw new StoreError('OPEN_FAILED', `cannot read the database ${file}: its ${file}-wal holds changes that SQLite can only read with write access to ${dir}`);
  }
  return needsSideFiles ? connect(immutableUri(file), { readonly: true, fileMustExist: true, uri: true }) : connect(file, { readonly: true, fileMustExist: true });
}

function immutableUri(file: string): string {
  return `file:${file.split('/').map(encodeURIComponent).join('/')}?immutable=1`;
}

function connect(filename: string, options: { readonly?: boolean; fileMustExist?: boolean; uri?: boolean }): Database.Database {
  const { uri = false, ...dbOptions } = options;
  // better-sqlite3 reads SQLITE_USE_URI when its addon first loads; our paths are absolute (never
  // "file:…"), so URI names are on for every connection and the variable is not left to children.
  const previous = process.env['SQLITE_USE_URI'];
  process.env['SQLITE_USE_URI'] = '1';
  try {
    return new (betterSqlite3())(filename, dbOptions);
  } catch (err) {
    const shown = uri ? decodeURIComponent(filename.replace(/^file:/, '').replace(/\?immutable=1$/, '')) : filename;
    throw new StoreError('OPEN_FAILED', `cannot open the database ${shown}: ${(err as Error).message}`, { cause: err });
  } finally {
    if (previous === undefined) delete process.env['SQLITE_USE_URI'];
    else process.env['SQLITE_USE_URI'] = previous;
  }
}

let addon: typeof Database | undefined;

/**
 * better-sqlite3, required on first use. It is CommonJS: importing it made Node's ES module loader
 * parse its entry file for export names first (and set up the parser for that), a cost on every CLI
 * start that opens a database; require loads it as it is.
 */
function betterSqlite3(): typeof Database {
  return (addon ??= createRequire(import.meta.url)('better-sqlite3') as typeof Database);
}

function prepareWritable(db: Database.Database, file: string, files: MigrationFile[], opts: OpenStoreOptions): { applied: string[] } {
  const now = (): string => isoTime((opts.clock ?? Date.now)());
  try {
    // First: a connection opened while another of the process writes waits for it (journal_mode
    // itself can meet a lock), instead of failing at once as "held by another process".
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${opts.synchronous ?? 'NORMAL'}`);
    db.pragma(`wal_autocheckpoint = ${opts.checkpointPages ?? WAL_CHECKPOINT_PAGES}`);
    db.pragma('foreign_keys = ON');
    return migrate(db, files, now);
  } catch (err) {
    db.close();
    if (err instanceof StoreError) throw err;
    if (isBusy(err)) throw heldByAnotherProcess(file, err);
    throw new StoreError('OPEN_FAILED', `cannot open the database ${file}: ${(err as Error).message}`, { cause: err });
  }
}

function storeOn(db: Database.Database, file: string, opts: OpenStoreOptions, currentSchema: boolean): Store {
  db.pragma('foreign_keys = ON');
  const storeOpts: SqliteStoreOptions = { lazyStatements: currentSchema };
  if (opts.redactor !== undefined) storeOpts.redactor = opts.redactor;
  if (opts.clock !== undefined) storeOpts.clock = opts.clock;
  return sqliteStore(db, file, storeOpts);
}

/** Whether an older schema may be upgraded in place: SQLite needs the file and its folder (for -wal/-shm). */
function isWritable(file: string): boolean {
  return canAccess(file, constants.W_OK) && canAccess(dirname(file), constants.W_OK);
}

function canAccess(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}

function upgraded(file: string, applied: string[]): string {
  return `upgraded the database ${file} to the current schema (applied ${applied.join(', ')})`;
}

function names(files: MigrationFile[]): string {
  return files.map((f) => f.fileName).join(', ');
}
