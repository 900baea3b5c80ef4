// What every PostgreSQL repository receives: a way to run SQL (the pool, or the one client of a
// transaction), a way to make several statements atomic, the column codec (redaction + JSON) and the
// clock. Rows come back in the forms the SQLite store reads (see connect.ts's type parsers); `flags`
// turns booleans into SQLite's 0/1 so both backends share the row schemas of rowSchemas.ts.

import type { ColumnCodec } from '../columns.js';
import type { QueueSignal } from '../repos/units.js';

export interface SqlResult {
  rows: Record<string, unknown>[];
  rowCount: number;
}

export interface Sql {
  query(text: string, values?: readonly unknown[]): Promise<SqlResult>;
}

export interface PgRepoContext {
  sql: Sql;
  /**
   * Runs `fn` atomically: in a transaction of its own on one client, or, inside a transaction
   * already, on that transaction's client (its commit or rollback covers `fn` too).
   */
  atomic<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  codec: ColumnCodec;
  /** Milliseconds since the epoch; injectable so lease staleness can be tested without sleeping. */
  clock: () => number;
  /** The clock as an ISO-8601 UTC string with milliseconds. */
  now: () => string;
  /**
   * Like now(), with microseconds that increase within this store's millisecond: for the columns
   * that order rows by creation (PostgreSQL has no rowid to break a tie). Read back, it is the same
   * millisecond string as now().
   */
  stamp: () => string;
  /** Notices of queued units, shared by every view of the open store. */
  queued?: QueueSignal;
}

/** A row whose boolean columns are 0/1 (or null), as SQLite returns them. */
export function flags(row: Record<string, unknown>, ...names: string[]): Record<string, unknown> {
  const out = { ...row };
  for (const name of names) {
    const value = out[name];
    if (typeof value === 'boolean') out[name] = value ? 1 : 0;
  }
  return out;
}
