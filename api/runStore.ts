// The database a long-lived caller (the server) keeps open: a SQLite file or a PostgreSQL
// connection string, brought to the current schema on open.

import { resolve } from 'node:path';
import type { Store } from '../store/index.js';
import { isPostgresUrl } from '../store/postgres/url.js';

export type RunStore = Store;

/** Opens (and migrates) `db`: postgres://… as given, a SQLite path made absolute. */
export async function openRunStore(db: string): Promise<RunStore> {
  const { openDatabase } = await import('../store/index.js');
  return openDatabase(isPostgresUrl(db) ? db.trim() : resolve(db));
}
