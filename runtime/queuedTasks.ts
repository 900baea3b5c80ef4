// The scheduler's task executor on a shared queue (PostgreSQL): instead of running a task here, it
// queues the task's unit of work and waits for the runner that claims it (this process or any
// worker) to finish it, then hands the scheduler the stored outcome. The scheduler still decides what
// starts when, so a run's max_parallel holds across runners: it never has more units in flight.
// When the run fails or is interrupted, the unit is cancelled and its runner stops at its next
// heartbeat; when the coordinator only hands the run over (a worker stopping), units are left to run.

import type { TaskOutcome } from './agents/commander.js';
import type { RunContext } from './runContext.js';
import type { TaskExecutor } from './scheduler.js';
import type { UnitRow, UnitsRepo } from '../store/index.js';
import { holderIsGone } from './runStatus.js';
import { pause } from '../core/pause.js';
import { isBudgetStopped } from './unitRunner.js';

export interface QueueTiming {
  /** How often the state of a unit in flight is read. */
  pollMs: number;
  staleAfterMs: number;
}

export function queuedTaskExecutor(units: UnitsRepo, timing: QueueTiming, handOff: AbortSignal): TaskExecutor {
  // One read of the run's units per poll interval, shared by every task in flight.
  let snapshot: { at: number; rows: Promise<Map<string, UnitRow>> } | undefined;
  const current = (runId: string, id: string): Promise<UnitRow | undefined> => {
    if (snapshot === undefined || Date.now() - snapshot.at >= timing.pollMs) {
      snapshot = { at: Date.now(), rows: units.list(runId).then((rows) => new Map(rows.map((r) => [r.id, r]))) };
    }
    return snapshot.rows.then((rows) => rows.get(id));
  };
  return async (ctx: RunContext, task) => {
    const attempt = (await ctx.store.tasks.get(ctx.runId, task.name))?.attempt ?? 1;
    const unit = await units.enqueue({ runId: ctx.runId, kind: 'task', task: task.name, attempt });
    let cancelled = false;
    for (;;) {
      const row = (cancelled ? await units.get(unit.id) : await current(ctx.runId, unit.id)) ?? unit;
      if (row.state === 'done') {
        // A budget stopped the task on whichever runner ran it: the run stops as if it had been here.
        if (isBudgetStopped(row.outcome)) {
          ctx.budget?.noteStop(row.outcome.stop);
          return 'interrupted';
        }
        return row.outcome as TaskOutcome;
      }
      if (row.state === 'cancelled') return 'interrupted';
      if (ctx.signal.aborted) {
        if (handOff.aborted) return 'interrupted';
        if (!cancelled) {
          await units.cancel(unit.id);
          cancelled = true;
          continue;
        }
        if (row.state === 'cancelling' && holderIsGone(row, timing.staleAfterMs)) return 'interrupted';
      }
      await pause(timing.pollMs, cancelled ? undefined : ctx.signal);
    }
  };
}
