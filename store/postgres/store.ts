// The Store on PostgreSQL: a `pg` pool (connect.ts connects and migrates), the repositories of
// repos/ on it, and transactions that check one client out of the pool: BEGIN … COMMIT (ROLLBACK
// when `fn` rejects), with `tx` a Store bound to that client; nested transactions are savepoints.
// Unlike SQLite's single connection, calls made through the outer store meanwhile do not wait for
// the transaction: they run on other pooled connections and see what it wrote once it commits.

import type pg from 'pg';
import { createColumnCodec } from '../columns.js';
import { isoTime } from '../ids.js';
import type { Redactor } from '../redact.js';
import type { Store } from '../store.js';
import { connectPostgres, type PostgresConnectOptions } from './connect.js';
import type { PgRepoContext, Sql, SqlResult } from './context.js';
import { createRepos } from '../queries/index.js';
import type { QueryContext } from '../sql/driver.js';
import { postgresDriver } from './driver.js';
import { createUnitsRepo } from './repos/units.js';
import { queueNotices, type QueueNotices } from './queueNotices.js';

export interface PostgresStoreOptions extends PostgresConnectOptions {
  /** Applied to every stored text that may carry user or model content; restored on read. */
  redactor?: Redactor;
  /** Milliseconds since the epoch; tests inject it to age leases without sleeping. */
  clock?: () => number;
}

/** What every view of one open store shares: the pool, the clock, the prepared statement names. */
interface Shared {
  pool: pg.Pool;
  display: string;
  clock: () => number;
  now: () => string;
  stamp: () => string;
  statementNames: Map<string, string>;
  notices: QueueNotices;
  close: () => Promise<void>;
}

/** Connects (one clear line on failure, the password masked), migrates, and returns the Store. */
export async function openPostgresStore(url: string, opts: PostgresStoreOptions = {}): Promise<Store> {
  const connection = await connectPostgres(url, opts);
  const clock = opts.clock ?? Date.now;
  let closing: Promise<void> | undefined;
  const notices = queueNotices(connection.pool);
  const shared: Shared = {
    pool: connection.pool,
    display: connection.target.display,
    clock,
    now: () => isoTime(clock()),
    stamp: microsecondStamp(clock),
    statementNames: new Map(),
    notices,
    close: () => (closing ??= notices.close().then(() => connection.close())),
  };
  return storeOn(shared, undefined, opts.redactor);
}

/** A transaction's client, how deep its savepoints go, and the nested transaction running at that depth. */
interface Bound {
  client: pg.PoolClient;
  depth: number;
  /** Nested transactions on one `tx` run one after another: their savepoints must not interleave. */
  nested: { tail: Promise<unknown> };
}

function storeOn(shared: Shared, bound: Bound | undefined, redactor: Redactor | undefined): Store {
  const sql = bound === undefined ? runner(shared, shared.pool) : runner(shared, bound.client);
  const atomic = <T>(fn: (tx: Sql) => Promise<T>): Promise<T> =>
    bound === undefined ? inTransaction(shared, (client) => fn(runner(shared, client))) : fn(sql);
  const codec = createColumnCodec(redactor);
  const ctx: PgRepoContext = { sql, atomic, codec, clock: shared.clock, now: shared.now, stamp: shared.stamp, queued: shared.notices };
  const q: QueryContext = { db: postgresDriver(sql, atomic, bound !== undefined), codec, clock: shared.clock, now: shared.now, stamp: shared.stamp };
  return {
    path: shared.display,
    close: shared.close,
    withRedactor: (next) => storeOn(shared, bound, next),
    checkpoint: async () => undefined,
    transaction<T>(fn: (tx: Store) => Promise<T>): Promise<T> {
      if (bound === undefined) return inTransaction(shared, (client) => fn(storeOn(shared, { client, depth: 0, nested: { tail: Promise.resolve() } }, redactor)));
      const inner: Bound = { client: bound.client, depth: bound.depth + 1, nested: { tail: Promise.resolve() } };
      const result = bound.nested.tail.then(() => inSavepoint(bound, () => fn(storeOn(shared, inner, redactor))));
      bound.nested.tail = result.catch(() => undefined);
      return result;
    },
    ...createRepos(q),
    units: createUnitsRepo(ctx),
  };
}

/** One client for BEGIN … COMMIT; a client whose ROLLBACK fails is discarded rather than reused. */
async function inTransaction<T>(shared: Shared, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await shared.pool.connect();
  // A connection lost mid-transaction rejects the pending query, which is how the step learns of it;
  // pg also emits 'error' on the client, which would crash the process if nothing listened.
  const ignore = (): void => undefined;
  client.on('error', ignore);
  let discard = false;
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    // After a failed COMMIT there is no transaction left; ROLLBACK then only warns.
    discard = await client.query('ROLLBACK').then(
      () => false,
      () => true,
    );
    throw err;
  } finally {
    client.removeListener('error', ignore);
    client.release(discard);
  }
}

async function inSavepoint<T>(bound: Bound, fn: () => Promise<T>): Promise<T> {
  const name = `squadron_${bound.depth + 1}`;
  await bound.client.query(`SAVEPOINT ${name}`);
  let result: T;
  try {
    result = await fn();
  } catch (err) {
    await bound.client.query(`ROLLBACK TO SAVEPOINT ${name}`);
    await bound.client.query(`RELEASE SAVEPOINT ${name}`);
    throw err;
  }
  await bound.client.query(`RELEASE SAVEPOINT ${name}`);
  return result;
}

/**
 * SQL on the pool or a client, each distinct text a named prepared statement: the server parses and
 * plans it once per connection instead of once per call.
 */
function runner(shared: Shared, on: pg.Pool | pg.PoolClient): Sql {
  return {
    async query(text: string, values: readonly unknown[] = []): Promise<SqlResult> {
      let name = shared.statementNames.get(text);
      if (name === undefined) {
        name = `squadron_${shared.statementNames.size + 1}`;
        shared.statementNames.set(text, name);
      }
      const result = await on.query<Record<string, unknown>>({ name, text, values: values as unknown[] });
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    },
  };
}

/**
 * ISO-8601 with microseconds: the clock's millisecond, then a counter that increases within it (up
 * to 999), so rows created in one millisecond by this store keep their order. Read back (connect.ts)
 * it is the clock's millisecond string, the same as SQLite stores.
 */
function microsecondStamp(clock: () => number): () => string {
  let lastMs = Number.NaN;
  let micros = 0;
  return () => {
    const ms = clock();
    micros = ms === lastMs ? Math.min(micros + 1, 999) : 0;
    lastMs = ms;
    return `${isoTime(ms).slice(0, -1)}${String(micros).padStart(3, '0')}Z`;
  };
}
