// The Store on one SQLite connection. Statements run synchronously (better-sqlite3) and resolve at
// once; what needs care is a transaction whose body awaits: it holds the connection's gate from
// BEGIN IMMEDIATE to COMMIT (or ROLLBACK when the body rejects), so calls made meanwhile through the
// outer store queue (FIFO) instead of joining it. The body's own store (`tx`) bypasses that queue;
// a transaction on `tx` is a savepoint.

import type Database from 'better-sqlite3';
import { createColumnCodec } from '../columns.js';
import { isoTime } from '../ids.js';
import type { Redactor } from '../redact.js';
import type { Store } from '../store.js';
import { beginImmediate } from './begin.js';
import { Gate } from './gate.js';
import { createRepos as createQueryRepos, REPO_NAMES, type RepoName, type Repos } from '../queries/index.js';
import type { QueryContext } from '../sql/driver.js';
import { sqliteDriver } from './driver.js';

export interface SqliteStoreOptions {
  redactor?: Redactor;
  clock?: () => number;
  /**
   * Prepare each statement when first used (driver.ts) rather than when the store opens: only for a
   * current schema (a store prepares ~90 statements and a command uses a handful; an older schema
   * opened read-only prepares them all at once, so that what it cannot answer is refused as it opens).
   */
  lazyStatements?: boolean;
}

/** A transaction's store: its nesting depth, and whether its transaction is still open. */
interface Scope {
  depth: number;
  open: boolean;
  /** The first error a call inside the outermost transaction met (shared by its savepoints). */
  failure: { error?: unknown };
}

export function sqliteStore(db: Database.Database, path: string, opts: SqliteStoreOptions): Store {
  const shared = fileGate(path);
  return view({ db, path, opts, repos: createRepos(db, opts), gate: shared.gate, scope: null, closed: shared.leave });
}

/**
 * The gate of a database file, shared by every connection this process opens on it (a :memory:
 * database is a connection's own). better-sqlite3 waits for a lock synchronously (busy_timeout),
 * blocking the whole thread (a transaction's BEGIN waits from the event loop, begin.ts; a statement
 * outside one still waits in SQLite): were a call on a second connection to the file run while the first
 * holds a transaction open across an await (a repository's body awaits between its statements),
 * it would wait out the timeout for a commit its own thread cannot reach, and fail SQLITE_BUSY. With
 * one gate per file, the second call queues until the transaction ends. Other processes keep their
 * own event loop, so busy_timeout still serves between processes.
 */
const fileGates = new Map<string, { gate: Gate; users: number }>();

function fileGate(path: string): { gate: Gate; leave: () => void } {
  if (path === ':memory:' || path === '') return { gate: new Gate(), leave: () => undefined };
  let entry = fileGates.get(path);
  if (entry === undefined) fileGates.set(path, (entry = { gate: new Gate(), users: 0 }));
  entry.users += 1;
  let left = false;
  const held = entry;
  return {
    gate: held.gate,
    leave: () => {
      if (left) return;
      left = true;
      held.users -= 1;
      if (held.users === 0 && fileGates.get(path) === held) fileGates.delete(path);
    },
  };
}

function createRepos(db: Database.Database, opts: SqliteStoreOptions): Repos {
  const clock = opts.clock ?? Date.now;
  const codec = createColumnCodec(opts.redactor);
  const now = (): string => isoTime(clock());
  const q: QueryContext = { db: sqliteDriver(db, { lazy: opts.lazyStatements === true }), codec, clock, now, stamp: now };
  return createQueryRepos(q);
}

interface View {
  db: Database.Database;
  path: string;
  opts: SqliteStoreOptions;
  repos: Repos;
  /** Who may use the connection now: the outer store's gate, or a transaction's own. */
  gate: Gate;
  scope: Scope | null;
  /** Called once the connection is closed (leaves the file's shared gate). */
  closed: () => void;
}

function view(v: View): Store {
  const { db, scope, gate } = v;
  const ended = (): Error => new Error('a store call was made through a transaction that had already ended (a missing await inside store.transaction)');
  // Inside a transaction, a call made after SQLite itself rolled the transaction back (it may on
  // SQLITE_FULL, IOERR, NOMEM) is refused with the error that did it: run, it would commit alone in
  // autocommit mode (the step's other writes, queued concurrently, lost with the rollback).
  const guard = <T>(fn: () => Promise<T>): Promise<T> =>
    gate.run(() => {
      if (scope === null) return fn();
      if (!scope.open) return Promise.reject(ended());
      if (!db.inTransaction) return Promise.reject(scope.failure.error ?? new Error('the store transaction was rolled back by SQLite after an error'));
      return fn().catch((error: unknown) => {
        scope.failure.error ??= error;
        throw error;
      });
    });
  const store = {
    path: v.path,
    withRedactor: (redactor) => {
      const opts = { ...v.opts, redactor };
      return view({ ...v, opts, repos: createRepos(db, opts) });
    },
    close: () =>
      scope !== null
        ? Promise.reject(new Error('close() was called inside a transaction'))
        : gate.run(async () => {
            db.close();
            v.closed();
          }),
    checkpoint: () =>
      guard(async () => {
        db.pragma('wal_checkpoint(TRUNCATE)');
      }),
    transaction: async <T>(fn: (tx: Store) => Promise<T>): Promise<T> => {
      await gate.acquire();
      try {
        if (scope !== null && !scope.open) throw ended();
        const depth = scope === null ? 0 : scope.depth + 1;
        const savepoint = `squadron_${depth}`;
        if (depth === 0) await beginImmediate(db);
        else db.exec(`SAVEPOINT ${savepoint}`);
        const inner: Scope = { depth, open: true, failure: scope?.failure ?? {} };
        try {
          const result = await fn(view({ ...v, gate: new Gate(), scope: inner }));
          inner.open = false;
          db.exec(depth === 0 ? 'COMMIT' : `RELEASE ${savepoint}`);
          return result;
        } catch (err) {
          inner.open = false;
          // SQLite may already have rolled back on its own (e.g. a full disk); then there is nothing to undo.
          if (db.inTransaction) db.exec(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
          throw err;
        }
      } finally {
        gate.release();
      }
    },
  } as Store;
  // Every transaction gets a view of its own, and most use one or two repositories: each is wrapped
  // on first use, not all of them up front.
  for (const name of REPO_NAMES) {
    let wrapped: object | undefined;
    Object.defineProperty(store, name, { enumerable: true, get: () => (wrapped ??= gated(v.repos[name], guard)) });
  }
  return store;
}

/** The repository with every method behind `guard`. */
function gated<R extends object>(repo: R, guard: <T>(fn: () => Promise<T>) => Promise<T>): R {
  const out: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(repo)) {
    if (typeof method !== 'function') continue;
    out[name] = (...args: unknown[]): Promise<unknown> => guard(() => (method as (...a: unknown[]) => Promise<unknown>).apply(repo, args));
  }
  return out as R;
}
