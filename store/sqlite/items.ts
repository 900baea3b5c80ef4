// Items of iterated tasks on SQLite: one row per (run, task, index), see repos/items.ts.

import { StoreError } from '../errors.js';
import { toItemRow } from '../rowReaders.js';
import { parseRow, RawItem } from '../rowSchemas.js';
import type { ItemRow } from '../rows.js';
import type { ItemsRepo } from '../repos/items.js';
import type { RepoContext } from './context.js';

export function createItemsRepo({ db, codec, now }: RepoContext): ItemsRepo {
  const insert = db.prepare(`INSERT INTO task_items (run_id, task, idx) VALUES (?, ?, ?) ON CONFLICT (run_id, task, idx) DO NOTHING`);
  const insertAll = db.transaction((runId: string, task: string, count: number) => {
    for (let i = 0; i < count; i++) insert.run(runId, task, i);
  });
  const byTask = db.prepare('SELECT * FROM task_items WHERE run_id = ? AND task = ? ORDER BY idx');
  const one = db.prepare('SELECT * FROM task_items WHERE run_id = ? AND task = ? AND idx = ?');
  const running = db.prepare(
    `UPDATE task_items SET status = 'running', started_at = COALESCE(started_at, ?), finished_at = NULL, error = NULL
     WHERE run_id = ? AND task = ? AND idx = ?`,
  );
  const complete = db.prepare(
    `UPDATE task_items SET status = 'completed', summary = ?, output_json = ?, error = NULL, finished_at = ?
     WHERE run_id = ? AND task = ? AND idx = ?`,
  );
  const fail = db.prepare(`UPDATE task_items SET status = 'failed', error = ?, finished_at = ? WHERE run_id = ? AND task = ? AND idx = ?`);
  const retry = db.prepare<[string, string, number], number>(
    `UPDATE task_items SET status = 'pending', error = NULL, finished_at = NULL, attempt = attempt + 1
     WHERE run_id = ? AND task = ? AND idx = ? AND status IN ('failed', 'cancelled') RETURNING attempt`,
  ).pluck();
  const setStatus = db.prepare(
    `UPDATE task_items SET status = ?, finished_at = CASE WHEN ? THEN ? ELSE NULL END WHERE run_id = ? AND task = ? AND idx = ?`,
  );

  const read = (row: unknown): ItemRow => toItemRow(codec, parseRow(RawItem, 'task_items', row));
  const mustChange = (changes: number, runId: string, task: string, index: number): void => {
    if (changes === 0) throw new StoreError('NOT_FOUND', `no item ${task}[${index}] in run ${runId}`);
  };

  return {
    async ensure(runId, task, count) {
      // Inside a store transaction already (a savepoint then), else one of its own: 1,000 rows, one commit.
      if (db.inTransaction) for (let i = 0; i < count; i++) insert.run(runId, task, i);
      else insertAll(runId, task, count);
    },
    async list(runId, task) {
      return byTask.all(runId, task).map(read);
    },
    async get(runId, task, index) {
      const row = one.get(runId, task, index);
      return row === undefined ? undefined : read(row);
    },
    async markRunning(runId, task, index) {
      mustChange(running.run(now(), runId, task, index).changes, runId, task, index);
    },
    async complete(runId, task, index, r) {
      mustChange(complete.run(codec.text(r.summary), codec.jsonOrNull(r.output), now(), runId, task, index).changes, runId, task, index);
    },
    async fail(runId, task, index, error) {
      mustChange(fail.run(codec.text(error), now(), runId, task, index).changes, runId, task, index);
    },
    async retry(runId, task, index) {
      const attempt = retry.get(runId, task, index);
      if (attempt === undefined) throw new StoreError('NOT_FOUND', `no failed item ${task}[${index}] in run ${runId}`);
      return attempt;
    },
    async setStatus(runId, task, index, status) {
      const terminal = status !== 'pending' && status !== 'running';
      mustChange(setStatus.run(status, terminal ? 1 : 0, now(), runId, task, index).changes, runId, task, index);
    },
  };
}
