// Tasks: one row per task of a run, created lazily ('pending') and moved through its states.

import type { TaskRow, TaskStatus } from '../rows.js';

export interface TasksRepo {
  /** Creates the task as 'pending' if it has no row yet; returns the row either way. */
  ensure(runId: string, name: string): Promise<TaskRow>;
  /** In creation order. */
  list(runId: string): Promise<TaskRow[]>;
  get(runId: string, name: string): Promise<TaskRow | undefined>;
  /** Keeps the first started_at across retries; clears finished_at and error. */
  markRunning(runId: string, name: string): Promise<void>;
  complete(runId: string, name: string, r: { summary: string; output?: unknown; route?: string }): Promise<void>;
  fail(runId: string, name: string, error: string): Promise<void>;
  /** A failed task back to 'pending' for another attempt (error and finish cleared); returns the new attempt number. */
  retry(runId: string, name: string): Promise<number>;
  /** Terminal states set finished_at; 'pending' and 'running' clear it. */
  setStatus(runId: string, name: string, status: TaskStatus): Promise<void>;
}
