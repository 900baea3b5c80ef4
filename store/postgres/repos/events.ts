// Events on PostgreSQL: the run's typed event stream (redacted), readable incrementally by id.

import { toEventRow } from '../../rowReaders.js';
import { parseRow, RawEvent } from '../../rowSchemas.js';
import type { EventsRepo, NewEvent } from '../../repos/events.js';
import type { PgRepoContext } from '../context.js';

const COLUMNS = 6;
/** Rows per INSERT: a statement takes at most 65,535 parameters. */
const BATCH = 1000;

export function createEventsRepo({ sql, atomic, codec, now }: PgRepoContext): EventsRepo {
  const values = (e: NewEvent, at: string): unknown[] => [e.runId, e.type, e.task ?? null, e.sessionId ?? null, codec.json(e.data), at];

  return {
    async append(e) {
      await sql.query(
        'INSERT INTO events (run_id, type, task_name, session_id, data_json, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
        values(e, now()),
      );
    },
    async appendMany(events) {
      if (events.length === 0) return;
      const at = now();
      const insert = async (on: typeof sql, batch: readonly NewEvent[]): Promise<void> => {
        const rows = batch.map((_, i) => `(${Array.from({ length: COLUMNS }, (_, c) => `$${i * COLUMNS + c + 1}`).join(', ')})`);
        await on.query(
          `INSERT INTO events (run_id, type, task_name, session_id, data_json, created_at) VALUES ${rows.join(', ')}`,
          batch.flatMap((e) => values(e, at)),
        );
      };
      // One statement is one transaction (all the events or none, in the order given); more than a
      // statement holds take one transaction around several.
      if (events.length <= BATCH) return insert(sql, events);
      await atomic(async (tx) => {
        for (let i = 0; i < events.length; i += BATCH) await insert(tx, events.slice(i, i + BATCH));
      });
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
