// Opens (or creates) the SQLite database: a private file (0600), WAL with synchronous=NORMAL, foreign
// keys on, a busy timeout for concurrent readers, then the migrations, then the repositories with
// their statements prepared once.

import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { assetPath } from '../config/assets.js';
import { createColumnCodec } from './columns.js';
import { StoreError } from './errors.js';
import { isoTime } from './ids.js';
import { migrate } from './migrate.js';
import type { Redactor } from './redact.js';
import type { RepoContext } from './repos/context.js';
import { createEventsRepo } from './repos/events.js';
import { createLedgerRepo } from './repos/ledger.js';
import { createLeasesRepo } from './repos/leases.js';
import { createMessagesRepo } from './repos/messages.js';
import { createRoutesRepo } from './repos/routes.js';
import { createRunsRepo } from './repos/runs.js';
import { createSessionsRepo } from './repos/sessions.js';
import { createTasksRepo } from './repos/tasks.js';
import { createTurnsRepo } from './repos/turns.js';
import type { Store } from './store.js';

export interface OpenStoreOptions {
  /** Applied to every stored text that may carry user or model content; restored on read. */
  redactor?: Redactor;
  /** Where the NNNN_name.sql files are; defaults to the packaged `migrations/` (tests override it). */
  migrationsDir?: string;
  /**
   * NORMAL (default) survives a process crash, which is what resume is about; FULL also survives
   * power loss at a cost measured in bench/persistence.mjs.
   */
  synchronous?: 'NORMAL' | 'FULL';
  /** Milliseconds since the epoch; tests inject it to age leases without sleeping. */
  clock?: () => number;
}

const MEMORY = ':memory:';
const FILE_MODE = 0o600;

export function openStore(path: string, opts: OpenStoreOptions = {}): Store {
  const file = path === MEMORY ? MEMORY : resolve(path);
  if (file !== MEMORY) preparePrivateFile(file);

  let db: Database.Database;
  try {
    db = new Database(file);
  } catch (err) {
    throw new StoreError('OPEN_FAILED', `cannot open the database ${file}: ${(err as Error).message}`, { cause: err });
  }
  const clock = opts.clock ?? Date.now;
  const now = (): string => isoTime(clock());
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${opts.synchronous ?? 'NORMAL'}`);
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, opts.migrationsDir ?? assetPath('migrations'), now);
  } catch (err) {
    db.close();
    if (err instanceof StoreError) throw err;
    // e.g. "file is not a database" when the path points at something else.
    throw new StoreError('OPEN_FAILED', `cannot open the database ${file}: ${(err as Error).message}`, { cause: err });
  }
  // SQLite gives -wal/-shm the database file's mode, but files left by an older, laxer version may not.
  if (file !== MEMORY) for (const side of [`${file}-wal`, `${file}-shm`]) tightenMode(side);

  const ctx: RepoContext = { db, codec: createColumnCodec(opts.redactor), clock, now };
  return {
    path: file,
    close: () => db.close(),
    transaction: <T>(fn: () => T): T => db.transaction(fn).immediate(),
    checkpoint: () => {
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
    runs: createRunsRepo(ctx),
    tasks: createTasksRepo(ctx),
    sessions: createSessionsRepo(ctx),
    messages: createMessagesRepo(ctx),
    ledger: createLedgerRepo(ctx),
    turns: createTurnsRepo(ctx),
    events: createEventsRepo(ctx),
    routes: createRoutesRepo(ctx),
    leases: createLeasesRepo(ctx),
  };
}

/** Creates parent folders and the file itself with owner-only permissions before SQLite touches it. */
function preparePrivateFile(file: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    closeSync(openSync(file, 'a', FILE_MODE));
    tightenMode(file);
  } catch (err) {
    throw new StoreError('OPEN_FAILED', `cannot create the database ${file}: ${(err as Error).message}`, { cause: err });
  }
}

function tightenMode(file: string): void {
  if (!existsSync(file)) return;
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, FILE_MODE);
}
