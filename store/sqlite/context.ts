// What every repository receives: the connection, the column codec (redaction + JSON) and the clock.
// Repositories prepare their statements once, when the store opens (on a current schema, each is
// really prepared on first use: lazyStatements.ts).

import type Database from 'better-sqlite3';
import type { ColumnCodec } from '../columns.js';

export interface RepoContext {
  db: Database.Database;
  codec: ColumnCodec;
  /** Milliseconds since the epoch; injectable so lease staleness can be tested without sleeping. */
  clock: () => number;
  /** The clock as an ISO-8601 UTC string with milliseconds. */
  now: () => string;
}
