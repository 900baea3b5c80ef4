// A store error mid-run is a crash, not an answer. When the database fails under a call — full
// (SQLITE_FULL, PostgreSQL's disk_full), an I/O error, a corrupt page, a lost PostgreSQL connection —
// the store stops: that call and every later one through it reject with the same STORE_FAILED error,
// so nothing the process does afterwards can be recorded as an outcome (a task "failed" by the
// database, an event saying so, a half-finished transaction committed). The database is left as a
// SIGKILL at that instant would leave it, and `resume` continues from the ledger once the cause is
// gone. Every store opened through openDatabase is wrapped here, on both backends.

import { heldByAnotherProcess, isBusy, StoreError } from './errors.js';
import type { Store } from './store.js';

interface DriverError {
  code?: unknown;
  message?: unknown;
}

// SQLite result codes (primary or extended) that say the storage, not the statement, failed.
const SQLITE_FAILURES = /^SQLITE_(FULL|IOERR|CORRUPT|NOTADB|CANTOPEN|READONLY|NOMEM|PROTOCOL|BUSY|LOCKED)(_|$)/;
// PostgreSQL SQLSTATE classes: 08 connection exception, 53 insufficient resources (disk full, out of
// memory), 57P0x the server shutting down or the backend terminated, 58 system error (I/O), XX internal.
const POSTGRES_FAILURES = /^(08...|53...|57P0[1-4]|58...|XX...)$/;
// The node-postgres client and the socket under it.
const CONNECTION_FAILURES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
const CONNECTION_MESSAGES = /Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|connection timeout/i;

/** Whether an error from a store call means the database itself failed (rather than the call). */
export function isStorageFailure(error: unknown): boolean {
  if (error instanceof StoreError) return error.code === 'STORE_FAILED' || error.code === 'DATABASE_BUSY';
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as DriverError;
  if (typeof code === 'string' && (SQLITE_FAILURES.test(code) || POSTGRES_FAILURES.test(code) || CONNECTION_FAILURES.has(code))) return true;
  return typeof message === 'string' && CONNECTION_MESSAGES.test(message);
}

/** The stop of one store (shared by its transactions and its redactor views). */
export interface FailStop {
  /** The failure that stopped the store, once one has. */
  readonly error: StoreError | undefined;
  /** Called once, at the first failure. */
  onFailure(listener: (error: StoreError) => void): void;
  /**
   * The store without the stop, for the writes that close a run after a failure (its status, its
   * lease): best effort, they may fail for the same cause.
   */
  readonly unguarded: Store;
}

interface State {
  error: StoreError | undefined;
  listeners: ((error: StoreError) => void)[];
}

const stops = new WeakMap<Store, FailStop>();

/** The stop of a store opened through openDatabase (undefined for a bare store, as unit tests build). */
export function failStopOf(store: Store): FailStop | undefined {
  return stops.get(store);
}

export function withFailStop(store: Store): Store {
  return wrap(store, { error: undefined, listeners: [] }, store);
}

function wrap(store: Store, state: State, root: Store): Store {
  const stopped = (): Promise<never> => Promise.reject(state.error);
  const noted = (error: unknown): unknown => {
    if (state.error === undefined && isStorageFailure(error)) {
      const detail = error instanceof Error ? error.message : String(error);
      const code = (error as DriverError).code;
      const named = typeof code === 'string' && !detail.includes(code) ? ` (${code})` : '';
      state.error = error instanceof StoreError ? error : isBusy(error) ? heldByAnotherProcess(store.path, error) : new StoreError('STORE_FAILED', `the database failed: ${detail}${named}`, { cause: error });
      for (const listener of state.listeners.splice(0)) listener(state.error);
    }
    return state.error ?? error;
  };
  // A call that succeeded after another failed (a transaction whose body swallowed a failed write)
  // still reports the failure: its work may stand on what was lost.
  const guarded = <T>(call: () => Promise<T>): Promise<T> => {
    if (state.error) return stopped();
    let pending: Promise<T>;
    try {
      pending = call();
    } catch (error) {
      return Promise.reject(noted(error));
    }
    return Promise.resolve(pending).then(
      (value) => (state.error ? stopped() : value),
      (error: unknown) => Promise.reject(noted(error)),
    );
  };
  const repos = new Map<string | symbol, unknown>();
  const wrapped: Store = new Proxy(store, {
    get(target, prop) {
      switch (prop) {
        case 'close':
          return () => target.close();
        case 'transaction':
          return <T>(fn: (tx: Store) => Promise<T>) => guarded(() => target.transaction((tx) => fn(wrap(tx, state, root))));
        case 'withRedactor':
          return (redactor: Parameters<Store['withRedactor']>[0]) => wrap(target.withRedactor(redactor), state, root);
        case 'checkpoint':
          return () => guarded(() => target.checkpoint());
      }
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'object' || value === null) return value;
      let repo = repos.get(prop);
      if (repo === undefined) repos.set(prop, (repo = guardedRepo(value, guarded)));
      return repo;
    },
  });
  stops.set(wrapped, {
    get error() {
      return state.error;
    },
    onFailure(listener) {
      if (state.error) listener(state.error);
      else state.listeners.push(listener);
    },
    unguarded: root,
  });
  return wrapped;
}

/** The repository with every method behind `guarded`; other members (a queue's signal) as they are. */
function guardedRepo(repo: object, guarded: <T>(call: () => Promise<T>) => Promise<T>): object {
  return new Proxy(repo, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => guarded(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
    },
  });
}
