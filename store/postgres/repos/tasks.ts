// Tasks on PostgreSQL: one row per task of a run, created lazily ('pending') and moved through its
// states; listed by created_seq (migration 0004), the order SQLite's rowid gives.

import { StoreError } from '../../errors.js';
import { newId } from '../../ids.js';
import { toTaskRow } from '../../rowReaders.js';
import { parseRow, RawTask } from '../../rowSchemas.js';
import { TERMINAL_TASK_STATUSES } from '../../../core/statuses.js';
import type { TaskRow } from '../../rows.js';
import type { TasksRepo } from '../../repos/tasks.js';
import type { PgRepoContext } from '../context.js';

export function createTasksRepo({ sql, codec, now }: PgRepoContext): TasksRepo {
  const read = (row: unknown): TaskRow => toTaskRow(codec, parseRow(RawTask, 'tasks', row));
  const mustChange = (rowCount: number, runId: string, name: string): void => {
    if (rowCount === 0) throw new StoreError('NOT_FOUND', `no task ${name} in run ${runId}`);
  };
  const byName = async (runId: string, name: string): Promise<TaskRow | undefined> => {
    const { rows } = await sql.query('SELECT * FROM tasks WHERE run_id = $1 AND name = $2', [runId, name]);
    return rows[0] === undefined ? undefined : read(rows[0]);
  };

  return {
    async ensure(runId, name) {
      const { rows } = await sql.query(
        `INSERT INTO tasks (id, run_id, name, status) VALUES ($1, $2, $3, 'pending') ON CONFLICT (run_id, name) DO NOTHING RETURNING *`,
        [newId('tsk'), runId, name],
      );
      if (rows[0] !== undefined) return read(rows[0]);
      const existing = await byName(runId, name);
      if (existing === undefined) throw new StoreError('NOT_FOUND', `no task ${name} in run ${runId}`);
      return existing;
    },
    async list(runId) {
      const { rows } = await sql.query('SELECT * FROM tasks WHERE run_id = $1 ORDER BY created_seq, id', [runId]);
      return rows.map(read);
    },
    get: byName,
    async markRunning(runId, name) {
      const { rowCount } = await sql.query(
        `UPDATE tasks SET status = 'running', started_at = COALESCE(started_at, $1), finished_at = NULL, error = NULL
         WHERE run_id = $2 AND name = $3`,
        [now(), runId, name],
      );
      mustChange(rowCount, runId, name);
    },
    async complete(runId, name, r) {
      const { rowCount } = await sql.query(
        `UPDATE tasks SET status = 'completed', summary = $1, output_json = $2, route = $3, error = NULL, finished_at = $4
         WHERE run_id = $5 AND name = $6`,
        [codec.text(r.summary), codec.jsonOrNull(r.output), r.route ?? null, now(), runId, name],
      );
      mustChange(rowCount, runId, name);
    },
    async fail(runId, name, error) {
      const { rowCount } = await sql.query(`UPDATE tasks SET status = 'failed', error = $1, finished_at = $2 WHERE run_id = $3 AND name = $4`, [
        codec.text(error),
        now(),
        runId,
        name,
      ]);
      mustChange(rowCount, runId, name);
    },
    async retry(runId, name) {
      const { rows } = await sql.query(
        `UPDATE tasks SET status = 'pending', error = NULL, finished_at = NULL, attempt = attempt + 1
         WHERE run_id = $1 AND name = $2 AND status = 'failed' RETURNING attempt`,
        [runId, name],
      );
      const attempt = rows[0]?.['attempt'];
      if (typeof attempt !== 'number') throw new StoreError('NOT_FOUND', `no failed task ${name} in run ${runId}`);
      return attempt;
    },
    async setStatus(runId, name, status) {
      const { rowCount } = await sql.query('UPDATE tasks SET status = $1, finished_at = $2 WHERE run_id = $3 AND name = $4', [
        status,
        TERMINAL_TASK_STATUSES.has(status) ? now() : null,
        runId,
        name,
      ]);
      mustChange(rowCount, runId, name);
    },
  };
}
