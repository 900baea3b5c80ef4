// The scheduler's executors on a shared queue (PostgreSQL): instead of running a task (or one item of
// a parallel iterated task) here, they queue its unit of work and wait for the runner that claims it
// (this process or any worker) to finish it, then hand back the stored outcome. The coordinator still
// decides what starts when — a task or an item takes one of the run's max_parallel slots from being
// queued until its outcome is read — so max_parallel holds across runners: the run never has more
// units queued or running than that, whichever runners execute them. When the run fails or is
// interrupted, the unit is cancelled and its runner stops at its next heartbeat; when the coordinator
// only hands the run over (a worker stopping), units are left to run, and the coordinator that takes
// the run over finds them by their keys (queueing a unit again returns it as it is: no duplicate).

import type { TaskOutcome } from '../agents/commander.js';
import type { RunContext } from '../agents/runContext.js';
import type { TaskExecutor } from './scheduler.js';
import type { UnitKey, UnitRow, UnitsRepo } from '../../store/index.js';
import { holderIsGone } from '../kernel/runStatus.js';
import { pause } from '../../core/pause.js';
import { itemLabel, type AttemptResult, type ItemDispatch } from '../iteration/index.js';
import { isBudgetStopped } from './unitRunner.js';

export interface QueueTiming {
  /** How often the state of a unit in flight is read. */
  pollMs: number;
  staleAfterMs: number;
}

/** The unit of work of one attempt of one item: a `task` unit named by the item's label, `task[i]`. */
export function itemUnitKey(runId: string, task: string, index: number, attempt: number): UnitKey {
  return { runId, kind: 'task', task: itemLabel(task, index), attempt };
}

export function queuedTaskExecutor(units: UnitsRepo, timing: QueueTiming, handOff: AbortSignal): TaskExecutor {
  const dispatch = unitDispatcher(units, timing, handOff);
  return async (ctx: RunContext, task) => {
    const attempt = (await ctx.store.tasks.get(ctx.runId, task.name))?.attempt ?? 1;
    return (await dispatch(ctx, { runId: ctx.runId, kind: 'task', task: task.name, attempt })) as TaskOutcome | 'interrupted';
  };
}

/** Items of parallel iterated tasks as units of work: each attempt of each item is queued for any runner. */
export function queuedItems(units: UnitsRepo, timing: QueueTiming, handOff: AbortSignal): ItemDispatch {
  const dispatch = unitDispatcher(units, timing, handOff);
  return {
    async run(ctx, task, _item, row) {
      const outcome = await dispatch(ctx, itemUnitKey(ctx.runId, task.name, row.index, row.attempt));
      return outcome === 'interrupted' ? { kind: 'interrupted' } : (outcome as AttemptResult);
    },
    async inFlight(ctx, task, rows) {
      const keys = new Map(rows.map((r) => [`${itemLabel(task, r.index)}\u0000${r.attempt}`, r.index]));
      const held = new Set<number>();
      for (const unit of await units.list(ctx.runId)) {
        const index = keys.get(`${unit.task}\u0000${unit.attempt}`);
        if (index !== undefined && (unit.state === 'queued' || unit.state === 'claimed')) held.add(index);
      }
      return held;
    },
  };
}

/** Queues a unit (or finds it queued, running or done) and waits for its outcome; 'interrupted' when it stopped unfinished. */
function unitDispatcher(units: UnitsRepo, timing: QueueTiming, handOff: AbortSignal): (ctx: RunContext, key: UnitKey) => Promise<unknown> {
  // One read of the units in flight per poll interval, shared by all of them (not the run's every
  // unit: a fan-out of 1,000 items would read back 1,000 rows ten times a second).
  const inFlight = new Set<string>();
  let snapshot: { at: number; rows: Promise<Map<string, UnitRow>> } | undefined;
  const current = (id: string): Promise<UnitRow | undefined> => {
    if (snapshot === undefined || Date.now() - snapshot.at >= timing.pollMs) {
      snapshot = { at: Date.now(), rows: units.getMany([...inFlight]).then((rows) => new Map(rows.map((r) => [r.id, r]))) };
    }
    return snapshot.rows.then((rows) => rows.get(id));
  };
  return async (ctx, key) => {
    // The coordinator's slots bound what it queues; the store's count also covers units a previous
    // coordinator of the run left queued or running (a takeover), so max_parallel holds across both.
    while ((await units.activeCount(ctx.runId, key)) >= ctx.mission.maxParallel) {
      if (ctx.signal.aborted) return 'interrupted';
      await pause(timing.pollMs, ctx.signal);
    }
    const unit = await units.enqueue(key);
    inFlight.add(unit.id);
    try {
      return await awaitOutcome(ctx, unit);
    } finally {
      inFlight.delete(unit.id);
    }
  };

  async function awaitOutcome(ctx: RunContext, unit: UnitRow): Promise<unknown> {
    let cancelled = false;
    for (;;) {
      const row = (cancelled ? await units.get(unit.id) : await current(unit.id)) ?? unit;
      if (row.state === 'done') {
        // A budget stopped the task on whichever runner ran it: the run stops as if it had been here.
        if (isBudgetStopped(row.outcome)) {
          ctx.budget?.noteStop(row.outcome.stop);
          return 'interrupted';
        }
        return row.outcome;
      }
      // Only a coordinator cancels units, and this one has not: a unit cancelled (or being cancelled)
      // was cancelled by an earlier coordinator of the run (an interrupt), and this one (a resume)
      // wants it done. A cancelled unit is queued again; a cancelling one once its holder gave it
      // back — or at once if that holder died, since no runner claims a cancelling unit.
      if (!cancelled && !ctx.signal.aborted && (row.state === 'cancelled' || (row.state === 'cancelling' && holderIsGone(row, timing.staleAfterMs)))) {
        const fresh = await units.get(unit.id); // not the shared snapshot: it may be a poll old
        const key = fresh && { runId: fresh.runId, kind: fresh.kind, task: fresh.task, attempt: fresh.attempt };
        if (key && fresh.state === 'cancelled') await units.enqueue(key);
        else if (key && fresh.state === 'cancelling' && holderIsGone(fresh, timing.staleAfterMs)) await units.requeue(key);
        snapshot = undefined;
        await pause(timing.pollMs, ctx.signal);
        continue;
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
  }
}
