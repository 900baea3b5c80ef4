// Events: the run's typed event stream (redacted), readable incrementally by id for `--follow`.

import { toEventRow } from '../rowReaders.js';
import { parseRow, RawEvent } from '../rowSchemas.js';
import type { EventRow } from '../rows.js';
import type { RepoContext } from './context.js';
import type { NewEvent, EventsRepo } from '../repos/events.js';

export function createEventsRepo({ db, codec, now }: RepoContext): EventsRepo {
  const insert = db.prepare(
    'INSERT INTO events (run_id, type, task_name, session_id, data_json, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const list = db.prepare('SELECT * FROM events WHERE run_id = ? AND id > ? ORDER BY id LIMIT ?');
  const listAll = db.prepare('SELECT * FROM events WHERE id > ? ORDER BY id LIMIT ?');

  const append = (e: NewEvent): void => {
    insert.run(e.runId, e.type, e.task ?? null, e.sessionId ?? null, codec.json(e.data), now());
  };
  const appendMany = db.transaction((events: readonly NewEvent[]) => {
    for (const e of events) append(e);
  });

  return {
    async append(e) {
      append(e);
    },
    async appendMany(events) {
      // Inside a store transaction (a durable step's events) the rows join it as they are: a
      // savepoint around them would add two statements per event and undo nothing the step's own
      // rollback does not.
      if (db.inTransaction) for (const e of events) append(e);
      else appendMany.immediate(events);
    },
    async list(runId, opts = {}) {
      return list.all(runId, opts.afterId ?? 0, opts.limit ?? -1).map((row) => toEventRow(codec, parseRow(RawEvent, 'events', row)));
    },
    async listAll(opts) {
      return listAll.all(opts.afterId, opts.limit).map((row) => toEventRow(codec, parseRow(RawEvent, 'events', row)));
    },
  };
}

