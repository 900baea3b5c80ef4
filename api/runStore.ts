// The database a caller opens: a SQLite file or a PostgreSQL connection string, brought to the
// current schema on open (or, read-only, checked to be at it). The server keeps one open; each CLI
// command opens the one that holds its run.

import { resolve } from 'node:path';
import type { Store } from '../store/index.js';
import { isPostgresUrl } from '../store/postgres/url.js';

export type RunStore = Store;
export type { EventRow, OperatorRequestRow, RunSummary } from '../store/index.js';

export interface OpenOptions {
  /** `read`: never writes (no migration, no lease); a database behind the current schema is refused. */
  access?: 'read';
  /** Told what opening did that a person should know (a migration applied, say). */
  onNote?: (message: string) => void;
  /** false: a database of an older schema is refused rather than upgraded (one found by searching). */
  upgrade?: boolean;
  /**
   * A long-lived server's own store: a call that fails (the database held by another process past
   * its busy timeout, say) fails alone, and later calls may succeed. Without it, the first such
   * failure stops the store for good, as a run's must (store/failStop.ts).
   */
  service?: boolean;
}

/** Opens (and, unless read-only, migrates) `db`: postgres://… as given, a SQLite path made absolute. */
export async function openRunStore(db: string, opts: OpenOptions = {}): Promise<RunStore> {
  const { openDatabase } = await import('../store/index.js');
  const { service, ...rest } = opts;
  return openDatabase(isPostgresUrl(db) ? db.trim() : resolve(db), { ...rest, ...(service ? { failStop: false } : {}) });
}

/**
 * Whether a store call failed because another process holds the database (SQLite's SQLITE_BUSY or
 * SQLITE_LOCKED past its busy timeout, or the store's DATABASE_BUSY for them): worth trying again.
 * Read from the error's code, so it answers without loading the store.
 */
export function isDatabaseBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(SQLITE_(BUSY|LOCKED)(_\w+)?|DATABASE_BUSY)$/.test(code);
}
