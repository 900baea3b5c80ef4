// A task that stopped because one of its calls (or an item's) waits for the operator: it goes back to
// `pending` (resume starts it again, and its sessions continue where they stopped), and a
// task.waiting event names the requests, so the progress view and inspect can say what it waits for.

import { RunInterrupted } from '../kernel/session.js';
import type { RunContext } from '../agents/runContext.js';

/** True when the task parked (and was recorded as waiting); false for any other stop. */
export async function waitingTask(ctx: RunContext, task: string, error: unknown): Promise<boolean> {
  if (!(error instanceof RunInterrupted) || ctx.signal.aborted || !ctx.operator?.hasParked(task)) return false;
  await ctx.store.tasks.setStatus(ctx.runId, task, 'pending');
  const requests = (await ctx.store.operatorRequests.list(ctx.runId, { pendingOnly: true }))
    .filter((r) => r.task === task || r.task.startsWith(`${task}[`))
    .map((r) => r.id);
  ctx.bus.emit({ type: 'task.waiting', task, requests });
  return true;
}
