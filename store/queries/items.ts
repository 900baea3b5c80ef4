// Items of iterated tasks: one row per (run, task, index), see repos/items.ts.

import { StoreError } from '../errors.js';
import { toItemRow } from '../rowReaders.js';
import { parseRow, RawItem } from '../rowSchemas.js';
import type { ItemRow } from '../rows.js';
import type { ItemsRepo } from '../repos/items.js';
import type { QueryContext } from '../sql/driver.js';
import { sql } from '../sql/statement.js';

type Key = [runId: string, task: string, index: number];

// Every index in one statement (1,000 rows, one commit), counted by a recursive CTE (SQLite has no
// generate_series built in). `WHERE true` lets SQLite tell the upsert's ON CONFLICT from a join's ON.
const ENSURE = sql<[runId: string, task: string, count: number]>(
  `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i + 1 < $3::integer)
   INSERT INTO task_items (run_id, task, idx) SELECT $1::text, $2::text, i FROM s WHERE true
   ON CONFLICT (run_id, task, idx) DO NOTHING`,
);
const BY_TASK = sql<[runId: string, task: string]>('SELECT * FROM task_items WHERE run_id = $1 AND task = $2 ORDER BY idx');
const ONE = sql<Key>('SELECT * FROM task_items WHERE run_id = $1 AND task = $2 AND idx = $3');
const RUNNING = sql<[at: string, ...Key]>(
  `UPDATE task_items SET status = 'running', started_at = COALESCE(started_at, $1), finished_at = NULL, error = NULL
   WHERE run_id = $2 AND task = $3 AND idx = $4`,
);
const COMPLETE = sql<[summary: string, output: string | null, at: string, ...Key]>(
  `UPDATE task_items SET status = 'completed', summary = $1, output_json = $2, error = NULL, finished_at = $3
   WHERE run_id = $4 AND task = $5 AND idx = $6`,
);
const FAIL = sql<[error: string, at: string, ...Key]>(`UPDATE task_items SET status = 'failed', error = $1, finished_at = $2 WHERE run_id = $3 AND task = $4 AND idx = $5`);
const RETRY = sql<Key, { attempt: number }>(
  `UPDATE task_items SET status = 'pending', error = NULL, finished_at = NULL, attempt = attempt + 1
   WHERE run_id = $1 AND task = $2 AND idx = $3 AND status IN ('failed', 'cancelled') RETURNING attempt`,
);
const SET_STATUS = sql<[status: string, finishedAt: string | null, ...Key]>('UPDATE task_items SET status = $1, finished_at = $2 WHERE run_id = $3 AND task = $4 AND idx = $5');

export function createItemsRepo({ db, codec, now }: QueryContext): ItemsRepo {
  db.prepare(ENSURE, BY_TASK, ONE, RUNNING, COMPLETE, FAIL, RETRY, SET_STATUS);
  const read = (row: unknown): ItemRow => toItemRow(codec, parseRow(RawItem, 'task_items', row));
  const mustChange = (changed: number, runId: string, task: string, index: number): void => {
    if (changed === 0) throw new StoreError('NOT_FOUND', `no item ${task}[${index}] in run ${runId}`);
  };

  return {
    async ensure(runId, task, count) {
      if (count > 0) await db.run(ENSURE, [runId, task, count]);
    },
    async list(runId, task) {
      return (await db.all(BY_TASK, [runId, task])).map(read);
    },
    async get(runId, task, index) {
      const row = await db.get(ONE, [runId, task, index]);
      return row === undefined ? undefined : read(row);
    },
    async markRunning(runId, task, index) {
      mustChange(await db.run(RUNNING, [now(), runId, task, index]), runId, task, index);
    },
    async complete(runId, task, index, r) {
      mustChange(await db.run(COMPLETE, [codec.text(r.summary), codec.jsonOrNull(r.output), now(), runId, task, index]), runId, task, index);
    },
    async fail(runId, task, index, error) {
      mustChange(await db.run(FAIL, [codec.text(error), now(), runId, task, index]), runId, task, index);
    },
    async retry(runId, task, index) {
      const attempt = (await db.get(RETRY, [runId, task, index]))?.attempt;
      if (typeof attempt !== 'number') throw new StoreError('NOT_FOUND', `no failed item ${task}[${index}] in run ${runId}`);
      return attempt;
    },
    async setStatus(runId, task, index, status) {
      const terminal = status !== 'pending' && status !== 'running';
      mustChange(await db.run(SET_STATUS, [status, terminal ? now() : null, runId, task, index]), runId, task, index);
    },
  };
}
