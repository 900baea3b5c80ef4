// The one interface the repositories of store/queries/ run their statements through, and what every
// such repository receives. Two thin drivers implement it: store/sqlite/driver.ts (better-sqlite3,
// synchronous: its results are plain values) and store/postgres/driver.ts (pg, asynchronous: its
// results are promises). The repositories always `await` a driver's result, so one body serves both;
// awaiting a plain value costs a microtask, not a round trip.

import type { ColumnCodec } from '../columns.js';
import type { Dialect } from './dialect.js';
import type { AnyStatement, Statement } from './statement.js';

export type Awaitable<T> = T | Promise<T>;

export interface Driver {
  readonly dialect: Dialect;
  /** Every row the statement returns. */
  all<P extends readonly unknown[], R>(statement: Statement<P, R>, values: P): Awaitable<R[]>;
  /** The first row, or undefined. */
  get<P extends readonly unknown[], R>(statement: Statement<P, R>, values: P): Awaitable<R | undefined>;
  /** Runs a write; resolves to the number of rows it changed. */
  run<P extends readonly unknown[]>(statement: Statement<P, unknown>, values: P): Awaitable<number>;
  /**
   * Runs `fn` holding a lock: on PostgreSQL the locking statement (`SELECT … FOR NO KEY UPDATE`, an
   * advisory lock) first, then `fn`, in one transaction (the one open, or its own); on SQLite `fn`
   * as it is, since its single writer already serialises what the lock is for.
   */
  withLock<P extends readonly unknown[], T>(statement: Statement<P, unknown>, values: P, fn: (tx: Driver) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` atomically: inside the transaction already open, or in one of its own (BEGIN IMMEDIATE
   * on SQLite, a pooled client's BEGIN on PostgreSQL). `fn` must use `tx`, not this driver.
   */
  atomic<T>(fn: (tx: Driver) => Promise<T>): Promise<T>;
  /** Whether a write transaction is open on this driver's connection (SQLite); false on PostgreSQL's pool. */
  inTransaction(): boolean;
  /**
   * Whether `table` has `column`: false only on a SQLite database of an older schema opened read-only
   * (read as it is); a writable or PostgreSQL database is always migrated to the current schema.
   */
  hasColumn(table: string, column: string): boolean;
  /** Prepares the statements now (SQLite, eager mode: an older schema refuses them as it opens); otherwise nothing. */
  prepare(...statements: AnyStatement[]): void;
}

/** What every repository of store/queries/ receives. */
export interface QueryContext {
  db: Driver;
  codec: ColumnCodec;
  /** Milliseconds since the epoch; injectable so lease staleness can be tested without sleeping. */
  clock: () => number;
  /** The clock as an ISO-8601 UTC string with milliseconds. */
  now: () => string;
  /**
   * now() for the columns that order rows by creation: on PostgreSQL with microseconds that increase
   * within the millisecond (it has no rowid to break a tie); on SQLite now() itself.
   */
  stamp: () => string;
}
