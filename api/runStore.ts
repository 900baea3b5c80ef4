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
}

/** Opens (and, unless read-only, migrates) `db`: postgres://… as given, a SQLite path made absolute. */
export async function openRunStore(db: string, opts: OpenOptions = {}): Promise<RunStore> {
  const { openDatabase } = await import('../store/index.js');
  return openDatabase(isPostgresUrl(db) ? db.trim() : resolve(db), opts);
}
