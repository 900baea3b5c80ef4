// Events on PostgreSQL: the run's typed event stream (redacted), readable incrementally by id.

import { toEventRow } from '../../rowReaders.js';
import { parseRow, RawEvent } from '../../rowSchemas.js';
import type { EventsRepo } from '../../repos/events.js';
import type { PgRepoContext } from '../context.js';

export function createEventsRepo({ sql, codec, now }: PgRepoContext): EventsRepo {
  return {
    async append(e) {
      await sql.query(
        'INSERT INTO events (run_id, type, task_name, session_id, data_json, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
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
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::json[]) WITH ORDINALITY
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
  };
}
