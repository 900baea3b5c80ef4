// Attempts of a task: `resume --retry-failed` gives a failed task a fresh start. The failed attempt's
// sessions are kept (transcripts, ledger, usage) under the label "<task>#<attempt>", so the next
// attempt opens new sessions under the task's own name. Task names are identifiers: no '#' in them.

import type { Store } from '../../store/index.js';

export function attemptLabel(task: string, attempt: number): string {
  return `${task}#${attempt}`;
}

/** Whether a session's task label belongs to `task` (its current attempt or an earlier one, or one of its items: `task[3]`). */
export function isSessionOfTask(label: string, task: string): boolean {
  return label === task || label.startsWith(`${task}#`) || label.startsWith(`${task}[`);
}

/** Puts every failed task of the run back to pending for a new attempt; returns their names. */
export function retryFailedTasks(store: Store, runId: string): Promise<{ task: string; attempt: number }[]> {
  return store.transaction(async (tx) => {
    const retried: { task: string; attempt: number }[] = [];
    for (const row of await tx.tasks.list(runId)) {
      if (row.status !== 'failed') continue;
      const attempt = await tx.tasks.retry(runId, row.name);
      await tx.sessions.relabel(runId, row.name, attemptLabel(row.name, attempt - 1));
      retried.push({ task: row.name, attempt });
    }
    return retried;
  });
}
