// Items of iterated tasks on PostgreSQL: one row per (run, task, index), see repos/items.ts.

import { StoreError } from '../../errors.js';
import { toItemRow } from '../../rowReaders.js';
import { parseRow, RawItem } from '../../rowSchemas.js';
import type { ItemRow } from '../../rows.js';
import type { ItemsRepo } from '../../repos/items.js';
import type { PgRepoContext } from '../context.js';

export function createItemsRepo({ sql, codec, now }: PgRepoContext): ItemsRepo {
  const read = (row: unknown): ItemRow => toItemRow(codec, parseRow(RawItem, 'task_items', row));
  const mustChange = (rowCount: number, runId: string, task: string, index: number): void => {
    if (rowCount === 0) throw new StoreError('NOT_FOUND', `no item ${task}[${index}] in run ${runId}`);
  };

  return {
    async ensure(runId, task, count) {
      if (count <= 0) return;
      await sql.query(
        `INSERT INTO task_items (run_id, task, idx) SELECT $1, $2, i FROM generate_series(0, $3::integer - 1) AS i
         ON CONFLICT (run_id, task, idx) DO NOTHING`,
        [runId, task, count],
      );
    },
    async list(runId, task) {
      const { rows } = await sql.query('SELECT * FROM task_items WHERE run_id = $1 AND task = $2 ORDER BY idx', [runId, task]);
      return rows.map(read);
    },
    async get(runId, task, index) {
      const { rows } = await sql.query('SELECT * FROM task_items WHERE run_id = $1 AND task = $2 AND idx = $3', [runId, task, index]);
      return rows[0] === undefined ? undefined : read(rows[0]);
    },
    async markRunning(runId, task, index) {
      const { rowCount } = await sql.query(
        `UPDATE task_items SET status = 'running', started_at = COALESCE(started_at, $1), finished_at = NULL, error = NULL
         WHERE run_id = $2 AND task = $3 AND idx = $4`,
        [now(), runId, task, index],
      );
      mustChange(rowCount, runId, task, index);
    },
    async complete(runId, task, index, r) {
      const { rowCount } = await sql.query(
        `UPDATE task_items SET status = 'completed', summary = $1, output_json = $2, error = NULL, finished_at = $3
         WHERE run_id = $4 AND task = $5 AND idx = $6`,
        [codec.text(r.summary), codec.jsonOrNull(r.output), now(), runId, task, index],
      );
      mustChange(rowCount, runId, task, index);
    },
    async fail(runId, task, index, error) {
      const { rowCount } = await sql.query(
        `UPDATE task_items SET status = 'failed', error = $1, finished_at = $2 WHERE run_id = $3 AND task = $4 AND idx = $5`,
        [codec.text(error), now(), runId, task, index],
      );
      mustChange(rowCount, runId, task, index);
    },
    async retry(runId, task, index) {
      const { rows } = await sql.query(
        `UPDATE task_items SET status = 'pending', error = NULL, finished_at = NULL, attempt = attempt + 1
         WHERE run_id = $1 AND task = $2 AND idx = $3 AND status IN ('failed', 'cancelled') RETURNING attempt`,
        [runId, task, index],
      );
      const attempt = rows[0]?.['attempt'];
      if (typeof attempt !== 'number') throw new StoreError('NOT_FOUND', `no failed item ${task}[${index}] in run ${runId}`);
      return attempt;
    },
    async setStatus(runId, task, index, status) {
      const terminal = status !== 'pending' && status !== 'running';
      const { rowCount } = await sql.query('UPDATE task_items SET status = $1, finished_at = $2 WHERE run_id = $3 AND task = $4 AND idx = $5', [
        status,
        terminal ? now() : null,
        runId,
        task,
        index,
      ]);
      mustChange(rowCount, runId, task, index);
    },
  };
}
