// Takes units of work from the shared queue and runs them, at most `concurrency` at a time: the loop
// of `squadron worker`, and of a `run` on PostgreSQL for its own run's tasks and items (an item's
// unit is a task unit named by the item's label, `task[i]`: executeTaskUnit runs either). Claims
// while a slot is free; with the queue empty, waits for a notice that a unit was queued (with a slow
// poll behind it), or polls when notices are unavailable; and on stop waits for the units in flight
// (their handlers see the stop signal and give their units back).

import type { TaskSpec } from '../../config/graph.js';
import type { Value } from '../../config/hcl/value.js';
import type { ClaimFilter, LeaseOwner, UnitRow, UnitsRepo } from '../../store/index.js';
import { startHeartbeat } from './leaseHeartbeat.js';
import { pause } from '../../core/pause.js';
import type { RunContext } from '../agents/runContext.js';
import { executeTaskHere } from './scheduler.js';
import { storedUpstream } from './storedUpstream.js';
import { parseItemLabel, readOnce, runItemHere, taskItems, withItemDigests, type AttemptResult } from '../iteration/index.js';
import type { UpstreamResult } from '../agents/commander.js';
import type { BudgetStop } from '../budget/ledger.js';

export interface UnitLoopOptions {
  units: UnitsRepo;
  owner: LeaseOwner;
  filter: ClaimFilter;
  concurrency: number;
  /** How often an empty queue is polled when notices of queued units are unavailable (the listening connection is lost). */
  pollMs: number;
  /**
   * How often an empty queue is polled while notices arrive (LISTEN/NOTIFY): a runner wakes on a
   * notice, and this slow poll finds what no notice announces (a unit whose holder is gone).
   */
  idlePollMs?: number;
  staleAfterMs: number;
  /** Aborted to stop claiming; the handlers get it too. */
  stop: AbortSignal;
  handle: (unit: UnitRow) => Promise<void>;
  /** A claim failed (the database): the loop waits a poll interval and tries again. */
  onClaimError?: (error: unknown) => void;
}

/** Resolves once `stop` is aborted and every unit taken has been handled. */
export async function runUnitLoop(opts: UnitLoopOptions): Promise<void> {
  const active = new Set<Promise<void>>();
  const queued = opts.units.queued;
  // Listening before the first claim: a unit queued after it is announced.
  await queued?.ready();
  let freed: () => void = () => undefined;
  while (!opts.stop.aborted) {
    if (active.size >= opts.concurrency) {
      // The stop listener goes once a slot frees: one left per wait would pile up on the loop's
      // lifelong signal (Node warns past 10).
      await new Promise<void>((resolve) => {
        const done = (): void => {
          opts.stop.removeEventListener('abort', done);
          resolve();
        };
        freed = done;
        opts.stop.addEventListener('abort', done, { once: true });
      });
      continue;
    }
    const seen = queued?.seen ?? 0;
    let unit: UnitRow | undefined;
    try {
      unit = await opts.units.claim(opts.owner, opts.staleAfterMs, opts.filter);
    } catch (error) {
      opts.onClaimError?.(error);
    }
    if (unit === undefined) {
      if (queued && (await queued.ready())) await queued.wait(seen, opts.idlePollMs ?? opts.pollMs, opts.stop);
      else await pause(opts.pollMs, opts.stop);
      continue;
    }
    const running: Promise<void> = opts
      .handle(unit)
      .catch(() => undefined)
      .finally(() => {
        active.delete(running);
        freed();
      });
    active.add(running);
  }
  await Promise.allSettled([...active]);
}

/** How a task unit ended here: finished with the task's outcome, or given back unfinished. */
export type TaskUnitEnd = 'completed' | 'failed' | 'stopped' | 'released';

/**
 * Runs a claimed task unit with the run's context: renews the claim while the task runs (a lost or
 * cancelled claim stops it), continues the task's stored session if it has one, and finishes the
 * unit with the outcome — or gives it back when the task stopped unfinished.
 */
export async function executeTaskUnit(ctx: RunContext, unit: UnitRow, units: UnitsRepo, ownerId: string, heartbeatMs: number): Promise<TaskUnitEnd> {
  const item = parseItemLabel(unit.task);
  if (item !== undefined) return executeItemUnit(ctx, unit, item, units, ownerId, heartbeatMs);
  const task: TaskSpec | undefined = ctx.mission.tasks.find((t) => t.name === unit.task);
  if (task === undefined) {
    await units.finish(unit.id, ownerId, { status: 'failed', error: `task "${unit.task}" is not in the loaded config of mission "${ctx.mission.name}"` });
    return 'failed';
  }
  const lost = new AbortController();
  const heartbeat = startHeartbeat(() => units.heartbeat(unit.id, ownerId), () => lost.abort(), heartbeatMs);
  // The task's budget reservations are this unit's: they stop counting if the unit is taken over.
  ctx.budget?.hold(task.name, { owner: ownerId, unitId: unit.id });
  try {
    const upstream = await storedUpstream(ctx.store, ctx.runId, ctx.mission.tasks, task);
    const signal = AbortSignal.any([ctx.signal, lost.signal]);
    const outcome = await executeTaskHere({ ...ctx, signal }, task, upstream);
    await heartbeat.stop();
    if (outcome === 'interrupted') {
      // A budget refused the task's next call: the unit is done (taking it again would be refused
      // too) and tells the run's coordinator which budget stopped it.
      const stop = signal.aborted ? undefined : ctx.budget?.stopOf(task.name);
      if (stop) {
        await units.finish(unit.id, ownerId, { status: 'stopped', stop } satisfies BudgetStoppedOutcome);
        return 'stopped';
      }
      await units.release(unit.id, ownerId);
      return 'released';
    }
    await units.finish(unit.id, ownerId, outcome);
    return outcome.status;
  } finally {
    ctx.budget?.unhold(task.name);
    await heartbeat.stop();
  }
}

// What every item unit of one iterated task needs, read once per context of the run on this runner
// (keyed by its inputs object), not once per item unit: the task read once, its dataset's items, and
// its upstream results with their digests (its upstream tasks finished before its items were queued).
interface ItemTaskView {
  task: TaskSpec;
  items: Promise<Value[]>;
  upstream: Promise<UpstreamResult[]>;
}
const itemTaskViews = new WeakMap<object, Map<string, ItemTaskView>>();

function itemTaskView(ctx: RunContext, task: TaskSpec): ItemTaskView {
  let byTask = itemTaskViews.get(ctx.inputs);
  if (byTask === undefined) itemTaskViews.set(ctx.inputs, (byTask = new Map()));
  let view = byTask.get(task.name);
  if (view === undefined) {
    const upstream = storedUpstream(ctx.store, ctx.runId, ctx.mission.tasks, task).then((found) => withItemDigests(ctx.store, ctx.runId, ctx.mission.tasks, found));
    const items = taskItems(ctx, task);
    view = { task: readOnce(task), items, upstream };
    byTask.set(task.name, view);
    // A failed read is not kept: the next item unit reads again.
    upstream.catch(() => byTask!.delete(task.name));
    items.catch(() => byTask!.delete(task.name));
  }
  return view;
}

/**
 * Runs a claimed item unit (one attempt of one item of a parallel iterated task, queued by the run's
 * coordinator): as a task unit, with the claim renewed while it runs; the item's sessions are
 * continued if it has some (a runner that took it over), and an item already completed (its runner
 * died before finishing the unit) is not run again. The unit's outcome is the attempt's result.
 */
async function executeItemUnit(ctx: RunContext, unit: UnitRow, item: { task: string; index: number }, units: UnitsRepo, ownerId: string, heartbeatMs: number): Promise<TaskUnitEnd> {
  const end = async (result: AttemptResult & { kind: 'completed' | 'failed' }): Promise<TaskUnitEnd> => {
    await units.finish(unit.id, ownerId, result);
    return result.kind;
  };
  const task = ctx.mission.tasks.find((t) => t.name === item.task);
  const row = task?.iterator?.parallel ? await ctx.store.items.get(ctx.runId, item.task, item.index) : undefined;
  if (task === undefined || row === undefined) {
    return end({ kind: 'failed', error: `item ${unit.task} is not an item of a parallel iterated task of mission "${ctx.mission.name}" in the loaded config` });
  }
  if (row.status === 'completed') return end({ kind: 'completed' });
  if (row.attempt !== unit.attempt) return end({ kind: 'failed', error: `item ${unit.task} is at attempt ${row.attempt}, not ${unit.attempt}` });
  const lost = new AbortController();
  const heartbeat = startHeartbeat(() => units.heartbeat(unit.id, ownerId), () => lost.abort(), heartbeatMs);
  try {
    const view = itemTaskView(ctx, task);
    const items = await view.items;
    const value = items[item.index];
    if (value === undefined) return await end({ kind: 'failed', error: `the dataset of task "${task.name}" has ${items.length} items now; there is no item ${item.index}` });
    const result = await runItemHere({ ...ctx, signal: AbortSignal.any([ctx.signal, lost.signal]) }, view.task, value, row, await view.upstream, items.length);
    await heartbeat.stop();
    if (result.kind === 'interrupted') {
      await units.release(unit.id, ownerId);
      return 'released';
    }
    return await end(result);
  } finally {
    await heartbeat.stop();
  }
}

/** A task unit's outcome when a budget stopped its task (the run stops, resumable with a raised limit). */
export interface BudgetStoppedOutcome {
  status: 'stopped';
  stop: BudgetStop;
}

export function isBudgetStopped(outcome: unknown): outcome is BudgetStoppedOutcome {
  return typeof outcome === 'object' && outcome !== null && (outcome as { status?: unknown }).status === 'stopped' && typeof (outcome as { stop?: unknown }).stop === 'object';
}
