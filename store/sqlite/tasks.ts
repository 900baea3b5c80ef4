// Tasks: one row per task of a run, created lazily ('pending') and moved through its states.

import { StoreError } from '../errors.js';
import { newId } from '../ids.js';
import { toTaskRow } from '../rowReaders.js';
import { parseRow, RawTask } from '../rowSchemas.js';
import { TERMINAL_TASK_STATUSES } from '../../core/statuses.js';
import type { TaskRow, TaskStatus } from '../rows.js';
import type { RepoContext } from './context.js';
import type { TasksRepo } from '../repos/tasks.js';

export function createTasksRepo({ db, codec, now }: RepoContext): TasksRepo {
  const insert = db.prepare(
    `INSERT INTO tasks (id, run_id, name, status) VALUES (?, ?, ?, 'pending') ON CONFLICT (run_id, name) DO NOTHING`,
  );
  const byName = db.prepare('SELECT * FROM tasks WHERE run_id = ? AND name = ?');
  const byRun = db.prepare('SELECT * FROM tasks WHERE run_id = ? ORDER BY rowid');
  const running = db.prepare(
    `UPDATE tasks SET status = 'running', started_at = COALESCE(started_at, ?), finished_at = NULL, error = NULL
     WHERE run_id = ? AND name = ?`,
  );
  const complete = db.prepare(
    `UPDATE tasks SET status = 'completed', summary = ?, output_json = ?, route = ?, error = NULL, finished_at = ?
     WHERE run_id = ? AND name = ?`,
  );
  const fail = db.prepare(`UPDATE tasks SET status = 'failed', error = ?, finished_at = ? WHERE run_id = ? AND name = ?`);
  const retry = db.prepare<[string, string], number>(
    `UPDATE tasks SET status = 'pending', error = NULL, finished_at = NULL, attempt = attempt + 1
     WHERE run_id = ? AND name = ? AND status = 'failed' RETURNING attempt`,
  ).pluck();
  const setStatus = db.prepare(
    `UPDATE tasks SET status = ?, finished_at = CASE WHEN ? THEN ? ELSE NULL END WHERE run_id = ? AND name = ?`,
  );

  const read = (row: unknown): TaskRow => toTaskRow(codec, parseRow(RawTask, 'tasks', row));
  const mustChange = (changes: number, runId: string, name: string): void => {
    if (changes === 0) throw new StoreError('NOT_FOUND', `no task ${name} in run ${runId}`);
  };

  return {
    async ensure(runId, name) {
      insert.run(newId('tsk'), runId, name);
      return read(byName.get(runId, name));
    },
    async list(runId) {
      return byRun.all(runId).map(read);
    },
    async get(runId, name) {
      const row = byName.get(runId, name);
      return row === undefined ? undefined : read(row);
    },
    async markRunning(runId, name) {
      mustChange(running.run(now(), runId, name).changes, runId, name);
    },
    async complete(runId, name, r) {
      const changes = complete.run(codec.text(r.summary), codec.jsonOrNull(r.output), r.route ?? null, now(), runId, name).changes;
      mustChange(changes, runId, name);
    },
    async fail(runId, name, error) {
      mustChange(fail.run(codec.text(error), now(), runId, name).changes, runId, name);
    },
    async retry(runId, name) {
      const attempt = retry.get(runId, name);
      if (attempt === undefined) throw new StoreError('NOT_FOUND', `no failed task ${name} in run ${runId}`);
      return attempt;
    },
    async setStatus(runId, name, status) {
      mustChange(setStatus.run(status, TERMINAL_TASK_STATUSES.has(status) ? 1 : 0, now(), runId, name).changes, runId, name);
    },
  };
}

