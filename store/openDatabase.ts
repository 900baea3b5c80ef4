// The one place that decides which store a database location names: a `postgres://` or
// `postgresql://` connection string opens the PostgreSQL store (its driver loaded only then), anything
// else is a SQLite file path. The CLI, the API and the runtime all open their store through here.

import { withFailStop } from './failStop.js';
import type { Redactor } from './redact.js';
import { openStore } from './sqlite/open.js';
import type { Store } from './store.js';
import { isPostgresUrl } from './postgres/url.js';

export interface OpenDatabaseOptions {
  /** 'read' opens SQLite read-only; on PostgreSQL the same pool is used, and the caller only reads. */
  access?: 'write' | 'read';
  /** Told what a read-only SQLite open did or could not do (an upgrade applied, an old schema). */
  onNote?: (message: string) => void;
  /** false: a SQLite database of an older schema is refused, not upgraded (see OpenStoreOptions.upgrade). */
  upgrade?: boolean;
  redactor?: Redactor;
  /**
   * false: no fail-stop. For a long-lived service's own store (`squadron serve`), where a failed call
   * (the database busy past busy_timeout, a dropped connection) fails that call only and the caller
   * tries again later; a run's store always stops at its first failure.
   */
  failStop?: boolean;
}

/** The store, behind its fail-stop (failStop.ts) unless told otherwise: a database that fails under a call stops the store. */
export async function openDatabase(db: string, opts: OpenDatabaseOptions = {}): Promise<Store> {
  const stop = opts.failStop === false ? (s: Store): Store => s : withFailStop;
  if (isPostgresUrl(db)) {
    const { openPostgresStore } = await import('./postgres/store.js');
    return stop(await openPostgresStore(db, opts.redactor ? { redactor: opts.redactor } : {}));
  }
  return stop(openStore(db, opts));
}
