// A parallel iterated task: one commander (and its worker) per item, or one worker per item of a
// direct task, each item a unit of work in the store. Items that completed in an earlier process are
// never run again; an interrupted item's sessions are found again by their label and continued; a
// failed item is re-run from fresh sessions
// (its old ones keep their transcripts under `task[i]#attempt`). The run's `max_parallel` slots bound
// all units at once, `concurrency_limit` this task's items. An item's attempt runs here, or on
// PostgreSQL is queued for any runner (deps.items: runtime/schedule/queuedTasks.ts).

import type { TaskSpec } from '../../config/graph.js';
import type { Value } from '../../config/hcl/value.js';
import { renderObjective } from '../../config/objective.js';
import type { ItemRow } from '../../store/index.js';
import { commanderAgents } from '../agents/definitions.js';
import { runCommander, type CommanderSteps, type TaskOutcome, type UpstreamResult } from '../agents/commander.js';
import { runDirect } from '../agents/direct.js';
import type { RunEvent } from '../kernel/events.js';
import { RunInterrupted } from '../kernel/session.js';
import type { AttemptResult, ItemDispatch, RunContext } from '../agents/runContext.js';

export type { AttemptResult, ItemAttempt, ItemDispatch } from '../agents/runContext.js';
import { attemptLabel } from '../kernel/taskAttempts.js';
import { itemLabel } from '../../core/sessionLabels.js';
import type { UnitSlots } from './slots.js';
import { pause } from '../../core/pause.js';

export interface IterationDeps {
  slots: UnitSlots;
  /** Waits `ms` (start_delay); injectable so tests need no real time. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /**
   * Where an item's attempt executes: here (runItemHere, the default), or on a shared queue
   * (PostgreSQL: runtime/schedule/queuedTasks.ts queues the item as a unit of work and waits for its outcome).
   */
  items?: ItemDispatch;
}

type ItemResult = 'completed' | 'failed' | 'interrupted';

export async function runParallelItems(
  ctx: RunContext,
  task: TaskSpec,
  items: readonly Value[],
  upstream: readonly UpstreamResult[],
  deps: IterationDeps,
): Promise<TaskOutcome | 'interrupted'> {
  const iterator = task.iterator!;
  const { store, runId, bus } = ctx;
  const resolved = readOnce(task);
  const total = items.length;
  await store.items.ensure(runId, task.name, total);
  const rows = await store.items.list(runId, task.name);
  let completed = rows.filter((r) => r.status === 'completed').length;
  const failedItems: number[] = [];
  const firstError = new Map<number, string>();
  const sleep = deps.sleep ?? pause;
  const stopStarting = new AbortController();
  const signal = AbortSignal.any([ctx.signal, stopStarting.signal]);
  let interrupted = false;

  const runOne = async (row: ItemRow): Promise<ItemResult> => {
    let current = row;
    for (;;) {
      const index = current.index;
      const announce = (emit: (event: RunEvent) => void): void => {
        completed++;
        emit({ type: 'item.finished', task: task.name, index, status: 'completed', completed, failed: failedItems.length, total });
      };
      // Here, the item.finished event rides on the commit that completes the item; an item run by
      // another runner (deps.items) is announced once its outcome is read.
      const result = deps.items
        ? await deps.items.run(ctx, resolved, items[index]!, current, upstream, total)
        : await runItemHere(ctx, resolved, items[index]!, current, upstream, total, announce);
      if (result.kind === 'interrupted') return 'interrupted';
      if (result.kind === 'completed') {
        if (!result.announced) announce((event) => bus.emit(event));
        return 'completed';
      }
      if (current.attempt <= iterator.maxRetries && !ctx.signal.aborted) {
        current = await freshAttempt(ctx, task.name, current.index, current.attempt);
        continue;
      }
      failedItems.push(current.index);
      firstError.set(current.index, result.error);
      bus.emit({ type: 'item.finished', task: task.name, index: current.index, status: 'failed', error: result.error, completed, failed: failedItems.length, total });
      if (iterator.onFailure === 'stop') stopStarting.abort();
      return 'failed';
    }
  };

  // An item that failed in an earlier attempt of the task (resume --retry-failed) starts afresh; an
  // interrupted one (running, cancelled) continues its sessions.
  const todo: ItemRow[] = [];
  for (const row of rows) {
    if (row.status === 'completed') continue;
    todo.push(row.status === 'failed' ? await freshAttempt(ctx, task.name, row.index, row.attempt) : row);
  }
  // A coordinator that took a run over starts with the items already queued or running elsewhere, so
  // they take the run's slots before any new item is queued (item 0 stays first for a smoke test).
  if (deps.items && todo.length > 0) {
    const inFlight = await deps.items.inFlight(ctx, task.name, todo);
    const first = (row: ItemRow): boolean => (iterator.smoketest && row.index === 0) || inFlight.has(row.index);
    todo.splice(0, todo.length, ...todo.filter(first), ...todo.filter((row) => !first(row)));
  }

  const runInSlot = async (row: ItemRow): Promise<ItemResult | 'not started'> => {
    try {
      await deps.slots.take(signal);
    } catch {
      return 'not started';
    }
    try {
      return await runOne(row);
    } finally {
      deps.slots.release();
    }
  };

  let queue = todo;
  if (iterator.smoketest && queue[0]?.index === 0) {
    const first = await runInSlot(queue[0]);
    if (first === 'interrupted' || first === 'not started') interrupted = true;
    else if (first === 'failed') {
      return { status: 'failed', error: `the smoke test failed: item 0 failed (${firstError.get(0)}); no other item was started` };
    }
    queue = queue.slice(1);
  }

  if (!interrupted && queue.length > 0) {
    const lanes = Math.min(iterator.concurrencyLimit, queue.length);
    // Lane k starts with item k of the queue, k × start_delay after the lanes begin, so a lane that
    // finishes early cannot run a staggered item before its time; after that, lanes take what is left.
    let next = lanes;
    const lane = async (k: number): Promise<void> => {
      if (k > 0 && iterator.startDelayMs > 0) {
        await sleep(k * iterator.startDelayMs, signal);
      }
      if (!signal.aborted) {
        const result = await runInSlot(queue[k]!);
        if (result === 'interrupted') interrupted = true;
      }
      while (!signal.aborted && next < queue.length) {
        const row = queue[next++]!;
        const result = await runInSlot(row);
        if (result === 'interrupted') interrupted = true;
      }
    };
    await Promise.all(Array.from({ length: lanes }, (_, k) => lane(k)));
  }

  if (interrupted || ctx.signal.aborted) return 'interrupted';
  const failed = failedItems.length;
  const notRun = total - completed - failed;
  const counts = `${completed} of ${total} item${total === 1 ? '' : 's'} succeeded, ${failed} failed${notRun > 0 ? `, ${notRun} not started` : ''}`;
  const failedList = [...failedItems].sort((a, b) => a - b);
  if (failed > 0 && iterator.onFailure === 'stop') {
    const index = failedList[0]!;
    return { status: 'failed', error: `${counts} (on_failure = "stop"): item ${index} failed: ${firstError.get(index)}` };
  }
  if (total > 0 && completed === 0) {
    return { status: 'failed', error: `${counts}: every item failed (item ${failedList[0]}: ${firstError.get(failedList[0]!)})` };
  }
  const failedText = failed > 0 ? ` Failed items: ${failedList.slice(0, 20).join(', ')}${failed > 20 ? ', …' : ''}.` : '';
  return { status: 'completed', summary: `Iterated task "${task.name}": ${counts}.${failedText} Read the items' outputs with query_task_output.` };
}

/**
 * The task with its objective, objective source and location read: those are getters that parse
 * the task's block again on every read, so a task whose items run is read once, not once per item.
 */
export function readOnce(task: TaskSpec): TaskSpec {
  return { ...task, objective: task.objective, objectiveSource: task.objectiveSource, location: task.location };
}


/**
 * Runs one attempt of one item in this process, storing its result on the item's row. Its writes
 * ride on the commander's commits (CommanderSteps): the item is marked running in the commit that
 * opens its session and instruction, and completed (with its item.finished event, when `announce`
 * is given — the coordinator's count) in the commit that stores the results of the turn that
 * completed it.
 */
export async function runItemHere(
  ctx: RunContext,
  task: TaskSpec,
  item: Value,
  row: ItemRow,
  upstream: readonly UpstreamResult[],
  total: number,
  announce?: (emit: (event: RunEvent) => void) => void,
): Promise<AttemptResult> {
  const { store, runId, bus } = ctx;
  const index = row.index;
  const started: RunEvent = { type: 'item.started', task: task.name, index, attempt: row.attempt, total };
  let begun = false;
  let announced = false;
  const steps: CommanderSteps = {
    begin: async (tx) => {
      await tx.store.items.markRunning(runId, task.name, index);
      tx.emit(started);
      begun = true;
    },
    end: async (outcome, tx) => {
      if (outcome.status === 'failed') return false;
      await tx.store.items.complete(runId, task.name, index, itemResult(outcome));
      if (announce) {
        announce(tx.emit);
        announced = true;
      }
      return true;
    },
  };
  try {
    const rendered = renderObjective(task, ctx.graph.variables, ctx.inputs, { value: item, index });
    if (rendered.text === undefined) throw new Error(rendered.diagnostics.map((d) => d.message).join('; '));
    // The item's sessions are labelled task[i]: found again on resume, apart from the other items'.
    // (`task` is a plain object here: runParallelItems read the block-backed getters once.)
    const itemTask: TaskSpec = { ...task, name: itemLabel(task.name, index) };
    // A direct task's item is one worker session; otherwise a commander with its agents.
    const outcome = task.direct
      ? await runDirect(ctx, itemTask, upstream, rendered.text, steps)
      : await runCommander(ctx, itemTask, await commanderAgents(ctx, itemTask, rendered.text), upstream, rendered.text, undefined, steps);
    if (outcome.status === 'failed') {
      await store.items.fail(runId, task.name, index, outcome.error);
      return { kind: 'failed', error: outcome.error };
    }
    if (!outcome.stored) await store.items.complete(runId, task.name, index, itemResult(outcome));
    return { kind: 'completed', announced: outcome.stored === true && announced };
  } catch (error) {
    if (!begun) bus.emit(started);
    if (error instanceof RunInterrupted || ctx.signal.aborted) {
      await store.items.setStatus(runId, task.name, index, 'cancelled');
      return { kind: 'interrupted' };
    }
    const message = error instanceof Error ? error.message : String(error);
    await store.items.fail(runId, task.name, index, message);
    return { kind: 'failed', error: message };
  }
}

function itemResult(outcome: { summary: string; output?: unknown }): { summary: string; output?: unknown } {
  const done: { summary: string; output?: unknown } = { summary: outcome.summary };
  if (outcome.output !== undefined) done.output = outcome.output;
  return done;
}

/** A failed item's next attempt: its sessions move aside (kept, readable) so the attempt opens fresh ones. */
async function freshAttempt(ctx: RunContext, task: string, index: number, failedAttempt: number): Promise<ItemRow> {
  const label = itemLabel(task, index);
  return ctx.store.transaction(async (tx) => {
    await tx.sessions.relabel(ctx.runId, label, attemptLabel(label, failedAttempt));
    await tx.items.retry(ctx.runId, task, index);
    return (await tx.items.get(ctx.runId, task, index))!;
  });
}
