// Events: the run's typed event stream (redacted), readable incrementally by id for `--follow`.
// On PostgreSQL ids come from a sequence, so without care a writer could commit a lower id after a
// reader following the run (`afterId`) has passed it. Each insert there first takes a
// transaction-scoped advisory lock on its run: a run's events are numbered and committed one writer
// after another, and a reader never sees an id while a lower one of the same run is still to come.
// Across runs (the stream of every run's events), each writer also holds a shared lock for its whole
// transaction, taken first, and a reader of that stream takes it exclusively before it reads: it
// waits until every id already handed out is committed (or rolled back), and ids handed out later
// are higher than all of them. SQLite's single writer gives the same order without a lock.

import { toEventRow } from '../rowReaders.js';
import { parseRow, RawEvent } from '../rowSchemas.js';
import type { EventsRepo, NewEvent } from '../repos/events.js';
import { advisoryLockedValues } from '../sql/dialect.js';
import type { QueryContext } from '../sql/driver.js';
import { sql } from '../sql/statement.js';

/** pg_advisory_xact_lock(class, key): 0x5345 "SE" for a run's event stream; the key is the run id hashed. */
const LOCK_EVENTS = 0x5345;
/** pg_advisory_xact_lock(class, 0): 0x5341 "SA", shared by every event writer, exclusive for a reader of all runs. */
const LOCK_ALL_EVENTS = 0x5341;

// On PostgreSQL the locks are taken (in the FROM clause, the shared one first: every writer takes
// them in that order, so none waits for another in a cycle) before the row, and so its id, is made.
const INSERT = sql<[string, string, string | null, string | null, string, string]>(
  (d) => `INSERT INTO events (run_id, type, task_name, session_id, data_json, created_at)
  ${advisoryLockedValues(d, '$1::text, $2::text, $3::text, $4::text, $5::json, $6::timestamptz', LOCK_EVENTS, '$1::text', LOCK_ALL_EVENTS)}`,
);
// PostgreSQL only (dialect.arrays): one statement whatever the count, so one prepared plan and one
// transaction: all the events or none, with ids in the order given.
const INSERT_MANY = sql<[string[], string[], (string | null)[], (string | null)[], string[], string]>(
  `INSERT INTO events (run_id, type, task_name, session_id, data_json, created_at)
  SELECT run_id, type, task_name, session_id, data_json, $6::timestamptz
  FROM (SELECT pg_advisory_xact_lock_shared(${LOCK_ALL_EVENTS}, 0) AS shared,
          (SELECT count(pg_advisory_xact_lock(${LOCK_EVENTS}, hashtext(r))) FROM (SELECT DISTINCT r FROM unnest($1::text[]) AS r ORDER BY r) AS runs) AS each_run) AS locked,
    unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::json[]) WITH ORDINALITY
      AS e(run_id, type, task_name, session_id, data_json, n)
  ORDER BY n`,
);
const LIST = sql<[string, number, number | null]>('SELECT * FROM events WHERE run_id = $1 AND id > $2 ORDER BY id LIMIT $3');
const LIST_ALL = sql<[number, number]>('SELECT * FROM events WHERE id > $1 ORDER BY id LIMIT $2');
// The reader of every run's events waits for the writers holding the shared lock (PostgreSQL; see driver.withLock).
const LOCK_ALL = sql<[]>(`SELECT pg_advisory_xact_lock(${LOCK_ALL_EVENTS}, 0)`);

export function createEventsRepo({ db, codec, now }: QueryContext): EventsRepo {
  db.prepare(INSERT, LIST, LIST_ALL);
  const append = (e: NewEvent) => db.run(INSERT, [e.runId, e.type, e.task ?? null, e.sessionId ?? null, codec.json(e.data), now()]);
  const read = (row: unknown) => toEventRow(codec, parseRow(RawEvent, 'events', row));

  return {
    async append(e) {
      await append(e);
    },
    async appendMany(events) {
      if (events.length === 0) return;
      if (db.dialect.arrays) {
        await db.run(INSERT_MANY, [
          events.map((e) => e.runId),
          events.map((e) => e.type),
          events.map((e) => e.task ?? null),
          events.map((e) => e.sessionId ?? null),
          events.map((e) => codec.json(e.data)),
          now(),
        ]);
        return;
      }
      // Inside a store transaction (a durable step's events) the rows join it as they are: a
      // savepoint around them would add two statements per event and undo nothing the step's own
      // rollback does not.
      await db.atomic(async (tx) => {
        for (const e of events) await tx.run(INSERT, [e.runId, e.type, e.task ?? null, e.sessionId ?? null, codec.json(e.data), now()]);
      });
    },
    async list(runId, opts = {}) {
      return (await db.all(LIST, [runId, opts.afterId ?? 0, opts.limit ?? db.dialect.noLimit])).map(read);
    },
    async listAll(opts) {
      // Two statements on PostgreSQL: the read's snapshot is taken after the lock is granted.
      return (await db.withLock(LOCK_ALL, [], async (tx) => tx.all(LIST_ALL, [opts.afterId, opts.limit]))).map(read);
    },
  };
}
