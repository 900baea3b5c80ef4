// Events on PostgreSQL: the run's typed event stream (redacted), readable incrementally by id. Ids
// come from a sequence, so without care a writer could commit a lower id after a reader following
// the run (`afterId`) has passed it. Each insert therefore first takes a transaction-scoped advisory
// lock on its run: a run's events are numbered and committed one writer after another, and a reader
// never sees an id while a lower one of the same run is still to come. Across runs (the stream of
// every run's events), each writer also holds a shared lock for its whole transaction, taken first,
// and a reader of that stream takes it exclusively before it reads: it waits until every id already
// handed out is committed (or rolled back), and ids handed out later are higher than all of them.

import { toEventRow } from '../../rowReaders.js';
import { parseRow, RawEvent } from '../../rowSchemas.js';
import type { EventsRepo } from '../../repos/events.js';
import type { PgRepoContext } from '../context.js';

/** pg_advisory_xact_lock(class, key): 0x5345 "SE" for a run's event stream; the key is the run id hashed. */
const LOCK_EVENTS = 0x5345;
/** pg_advisory_xact_lock(class, 0): 0x5341 "SA", shared by every event writer, exclusive for a reader of all runs. */
const LOCK_ALL_EVENTS = 0x5341;

export function createEventsRepo({ sql, atomic, codec, now }: PgRepoContext): EventsRepo {
  return {
    async append(e) {
      // The locks are taken (in the FROM clause, the shared one first: every writer takes them in
      // that order, so none waits for another in a cycle) before the row, and so its id, is made.
      await sql.query(
        `INSERT INTO events (run_id, type, task_name, session_id, data_json, created_at)
         SELECT $1, $2, $3, $4, $5::json, $6::timestamptz FROM (SELECT pg_advisory_xact_lock_shared(${LOCK_ALL_EVENTS}, 0), pg_advisory_xact_lock(${LOCK_EVENTS}, hashtext($1::text))) AS locked`,
        [e.runId, e.type, e.task ?? null, e.sessionId ?? null, codec.json(e.data), now()],
      );
    },
    async appendMany(events) {
      if (events.length === 0) return;
      // One statement whatever the count (arrays, not a parameter per value), so one prepared plan
      // and one transaction: all the events or none, with ids in the order given.
      await sql.query(
        `INSERT INTO events (run_id, type, task_name, session_id, data_json, created_at)
         SELECT run_id, type, task_name, session_id, data_json, $6::timestamptz
         FROM (SELECT pg_advisory_xact_lock_shared(${LOCK_ALL_EVENTS}, 0) AS shared,
                 (SELECT count(pg_advisory_xact_lock(${LOCK_EVENTS}, hashtext(r))) FROM (SELECT DISTINCT r FROM unnest($1::text[]) AS r ORDER BY r) AS runs) AS each_run) AS locked,
           unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::json[]) WITH ORDINALITY
             AS e(run_id, type, task_name, session_id, data_json, n)
         ORDER BY n`,
        [
          events.map((e) => e.runId),
          events.map((e) => e.type),
          events.map((e) => e.task ?? null),
          events.map((e) => e.sessionId ?? null),
          events.map((e) => codec.json(e.data)),
          now(),
        ],
      );
    },
    async list(runId, opts = {}) {
      const { rows } = await sql.query('SELECT * FROM events WHERE run_id = $1 AND id > $2 ORDER BY id LIMIT $3', [
        runId,
        opts.afterId ?? 0,
        opts.limit ?? null,
      ]);
      return rows.map((row) => toEventRow(codec, parseRow(RawEvent, 'events', row)));
    },
    async listAll(opts) {
      // Two statements: the read's snapshot is taken after the lock is granted.
      const rows = await atomic(async (tx) => {
        await tx.query(`SELECT pg_advisory_xact_lock(${LOCK_ALL_EVENTS}, 0)`);
        return (await tx.query('SELECT * FROM events WHERE id > $1 ORDER BY id LIMIT $2', [opts.afterId, opts.limit])).rows;
      });
      return rows.map((row) => toEventRow(codec, parseRow(RawEvent, 'events', row)));
    },
  };
}
