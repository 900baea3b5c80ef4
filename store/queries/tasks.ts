// Tasks: one row per task of a run, created lazily ('pending') and moved through its states; listed
// in creation order (SQLite's rowid; PostgreSQL's created_seq, migration 0004).

import { TERMINAL_TASK_STATUSES } from '../../core/statuses.js';
import { StoreError } from '../errors.js';
import { newId } from '../ids.js';
import { toTaskRow } from '../rowReaders.js';
import { parseRow, RawTask } from '../rowSchemas.js';
import type { TaskRow } from '../rows.js';
import type { TasksRepo } from '../repos/tasks.js';
import { insertionOrder } from '../sql/dialect.js';
import type { QueryContext } from '../sql/driver.js';
import { sql } from '../sql/statement.js';

type Key = [runId: string, name: string];

const INSERT = sql<[id: string, ...Key]>(`INSERT INTO tasks (id, run_id, name, status) VALUES ($1, $2, $3, 'pending') ON CONFLICT (run_id, name) DO NOTHING RETURNING *`);
const BY_NAME = sql<Key>('SELECT * FROM tasks WHERE run_id = $1 AND name = $2');
const BY_RUN = sql<[runId: string]>((d) => `SELECT * FROM tasks WHERE run_id = $1 ORDER BY ${insertionOrder(d, 'created_seq, id')}`);
const RUNNING = sql<[at: string, ...Key]>(
  `UPDATE tasks SET status = 'running', started_at = COALESCE(started_at, $1), finished_at = NULL, error = NULL
   WHERE run_id = $2 AND name = $3`,
);
const COMPLETE = sql<[summary: string, output: string | null, route: string | null, at: string, ...Key]>(
  `UPDATE tasks SET status = 'completed', summary = $1, output_json = $2, route = $3, error = NULL, finished_at = $4
   WHERE run_id = $5 AND name = $6`,
);
const FAIL = sql<[error: string, at: string, ...Key]>(`UPDATE tasks SET status = 'failed', error = $1, finished_at = $2 WHERE run_id = $3 AND name = $4`);
const RETRY = sql<Key, { attempt: number }>(
  `UPDATE tasks SET status = 'pending', error = NULL, finished_at = NULL, attempt = attempt + 1
   WHERE run_id = $1 AND name = $2 AND status = 'failed' RETURNING attempt`,
);
const SET_STATUS = sql<[status: string, finishedAt: string | null, ...Key]>('UPDATE tasks SET status = $1, finished_at = $2 WHERE run_id = $3 AND name = $4');

export function createTasksRepo({ db, codec, now }: QueryContext): TasksRepo {
  db.prepare(INSERT, BY_NAME, BY_RUN, RUNNING, COMPLETE, FAIL, RETRY, SET_STATUS);
  const read = (row: unknown): TaskRow => toTaskRow(codec, parseRow(RawTask, 'tasks', row));
  const mustChange = (changed: number, runId: string, name: string): void => {
    if (changed === 0) throw new StoreError('NOT_FOUND', `no task ${name} in run ${runId}`);
  };
  const byName = async (runId: string, name: string): Promise<TaskRow | undefined> => {
    const row = await db.get(BY_NAME, [runId, name]);
    return row === undefined ? undefined : read(row);
  };

  return {
    async ensure(runId, name) {
      const inserted = await db.get(INSERT, [newId('tsk'), runId, name]);
      if (inserted !== undefined) return read(inserted);
      const existing = await byName(runId, name);
      if (existing === undefined) throw new StoreError('NOT_FOUND', `no task ${name} in run ${runId}`);
      return existing;
    },
    async list(runId) {
      return (await db.all(BY_RUN, [runId])).map(read);
    },
    get: byName,
    async markRunning(runId, name) {
      mustChange(await db.run(RUNNING, [now(), runId, name]), runId, name);
    },
    async complete(runId, name, r) {
      mustChange(await db.run(COMPLETE, [codec.text(r.summary), codec.jsonOrNull(r.output), r.route ?? null, now(), runId, name]), runId, name);
    },
    async fail(runId, name, error) {
      mustChange(await db.run(FAIL, [codec.text(error), now(), runId, name]), runId, name);
    },
    async retry(runId, name) {
      const attempt = (await db.get(RETRY, [runId, name]))?.attempt;
      if (typeof attempt !== 'number') throw new StoreError('NOT_FOUND', `no failed task ${name} in run ${runId}`);
      return attempt;
    },
    async setStatus(runId, name, status) {
      mustChange(await db.run(SET_STATUS, [status, TERMINAL_TASK_STATUSES.has(status) ? now() : null, runId, name]), runId, name);
    },
  };
}
