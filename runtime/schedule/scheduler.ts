// Runs a mission's task graph: a task starts once its dependencies have completed (router and
// send_to targets once a completed task activates them), at most `max_parallel` at a time. A task
// that can no longer start (a route not taken, a skipped dependency) is marked skipped as soon as
// that is known. The first failure stops new starts and cancels the tasks in flight; the mission fails
// once they have stopped. Every transition is stored before it is acted on, so the same loop resumes
// a stored run.

import type { TaskSpec } from '../../config/graph.js';
import type { FinishedRunStatus } from '../../core/statuses.js';
import { commanderAgents } from '../agents/definitions.js';
import { runCommander, type TaskOutcome, type UpstreamResult } from '../agents/commander.js';
import { runDirect } from '../agents/direct.js';
import { RunInterrupted } from '../kernel/session.js';
import { waitingTask } from './waiting.js';
import { renderObjective } from '../../config/objective.js';
import { ancestorsOf } from './taskGraph.js';
import { tasksToSkip } from './skipping.js';
import type { RunContext } from '../agents/runContext.js';
import { runIteratedTask, UnitSlots, withItemDigests } from '../iteration/index.js';

export type MissionStatus = FinishedRunStatus;

export interface MissionResult {
  status: MissionStatus;
  error?: string;
}

interface TaskRecord {
  summary: string;
  output?: unknown;
}

/**
 * Executes one task to its outcome: here, in this process (executeTaskHere), or by queueing it for
 * whichever runner claims it (runtime/schedule/queuedTasks.ts). 'interrupted' when it stopped unfinished.
 */
export type TaskExecutor = (ctx: RunContext, task: TaskSpec, upstream: UpstreamResult[]) => Promise<TaskOutcome | 'interrupted'>;

export async function runMission(base: RunContext, interrupt: AbortSignal, execute: TaskExecutor = executeTaskHere): Promise<MissionResult> {
  const { mission, store, runId, bus } = base;
  const failing = new AbortController();
  const ctx: RunContext = { ...base, signal: AbortSignal.any([interrupt, failing.signal]) };

  const tasks = mission.tasks;
  const dynamicTargets = new Set(tasks.flatMap((t) => [...t.router.map((r) => r.target), ...t.sendTo]));
  const activated = new Set(tasks.filter((t) => !dynamicTargets.has(t.name)).map((t) => t.name));
  const activatedBy = new Map<string, string>();
  for (const route of await store.routes.list(runId)) {
    activated.add(route.to);
    activatedBy.set(route.to, route.from);
  }
  const completed = new Map<string, TaskRecord>();
  const skipped = new Map<string, string>();
  for (const row of await store.tasks.list(runId)) {
    if (row.status === 'completed') {
      const record: TaskRecord = { summary: row.summary ?? '' };
      if (row.output !== undefined && row.output !== null) record.output = row.output;
      completed.set(row.name, record);
    } else if (row.status === 'skipped') {
      skipped.set(row.name, 'skipped before the run was resumed');
    }
  }

  const running = new Map<string, Promise<string>>();
  // max_parallel counts units of work: a task is one, each running item of an iterated task is one
  // (the iterated task itself takes a slot per item, not one for itself).
  const slots = new UnitSlots(mission.maxParallel);
  let failure: string | undefined;
  // Settling a task (store, then mark completed, activate, skip) is one step at a time, as it was
  // when it was synchronous: two tasks finishing together never interleave their bookkeeping.
  let settling: Promise<unknown> = Promise.resolve();
  const settleInTurn = (task: TaskSpec, outcome: TaskOutcome | 'interrupted'): Promise<string> => {
    const next = settling.then(() => settle(task, outcome));
    settling = next.catch(() => undefined);
    return next;
  };

  // Not started again before the run is resumed: a task whose own budget refused a call (resume
  // --budget continues it), and a task waiting for its operator.
  const startable = (task: TaskSpec) =>
    activated.has(task.name) && !completed.has(task.name) && !running.has(task.name) && task.dependsOn.every((d) => completed.has(d)) && !ctx.budget?.taskStopped(task.name) && !ctx.operator?.hasParked(task.name);

  const skipUnreachable = async (): Promise<void> => {
    for (const { task, reason } of tasksToSkip({ tasks, activated, completed: new Set(completed.keys()), skipped })) {
      await store.tasks.ensure(runId, task);
      await store.tasks.setStatus(runId, task, 'skipped');
      skipped.set(task, reason);
      bus.emit({ type: 'task.skipped', task, reason });
    }
  };

  try {
    await skipUnreachable();
    for (;;) {
      // Once the mission's budget has refused a call, tasks in flight finish what they can afford; none starts.
      if (failure === undefined && !interrupt.aborted && !ctx.budget?.missionStopped) {
        for (const task of tasks) {
          if (slots.free === 0) break;
          if (!startable(task)) continue;
          const upstream = upstreamOf(task, tasks, activatedBy, completed);
          // An iterated task runs here, in the run's coordinator: its items take this run's slots (on
          // PostgreSQL each item is then queued as a unit of work for any runner: ctx.itemDispatch).
          const unit = task.iterator === undefined;
          if (unit) slots.tryTake();
          const run = (unit ? execute(ctx, task, upstream) : executeTaskHere(ctx, task, upstream, slots)).finally(() => unit && slots.release());
          running.set(task.name, run.then((outcome) => settleInTurn(task, outcome)));
        }
      }
      if (running.size === 0) break;
      const finished = await Promise.race(running.values());
      running.delete(finished);
    }
  } catch (error) {
    // Bookkeeping failed (the database, most likely): stop the other tasks and wait for them, so
    // nothing writes after the caller closes the store.
    failing.abort();
    await Promise.allSettled(running.values());
    throw error;
  }

  async function settle(task: TaskSpec, outcome: TaskOutcome | 'interrupted'): Promise<string> {
    if (outcome === 'interrupted') return task.name;
    if (outcome.status === 'failed') {
      if (failure === undefined) {
        failure = `task "${task.name}" failed: ${outcome.error}`;
        failing.abort();
      }
      return task.name;
    }
    const targets: { to: string; kind: 'route' | 'send_to' }[] = [];
    if (outcome.route !== undefined) targets.push({ to: outcome.route, kind: 'route' });
    for (const to of task.sendTo) targets.push({ to, kind: 'send_to' });
    await store.transaction(async (tx) => {
      const done: { summary: string; output?: unknown; route?: string } = { summary: outcome.summary };
      if (outcome.output !== undefined) done.output = outcome.output;
      if (outcome.route !== undefined) done.route = outcome.route;
      await tx.tasks.complete(runId, task.name, done);
      for (const target of targets) {
        if (await tx.routes.record(runId, task.name, target.to, target.kind)) activatedBy.set(target.to, task.name);
      }
    });
    const record: TaskRecord = { summary: outcome.summary };
    if (outcome.output !== undefined) record.output = outcome.output;
    completed.set(task.name, record);
    bus.emit({ type: 'task.completed', task: task.name, summary: outcome.summary, ...(outcome.route ? { route: outcome.route } : {}) });
    for (const target of targets) {
      activated.add(target.to);
      bus.emit({ type: 'route.chosen', from: task.name, to: target.to, kind: target.kind });
    }
    await skipUnreachable();
    return task.name;
  }

  if (interrupt.aborted) return { status: 'interrupted', error: 'interrupted' };
  if (failure !== undefined) return { status: 'failed', error: failure };
  if (ctx.budget?.stop) return { status: 'stopped', error: ctx.budget.stop.message };
  // Nothing else could proceed: what is left waits for the operator (approve, deny, answer; resume).
  if (ctx.operator?.waiting) return { status: 'waiting', error: 'waiting for the operator' };
  // Every task has now completed or been skipped: nothing else can have stopped the loop.
  const stuck = tasks.filter((t) => !completed.has(t.name) && !skipped.has(t.name)).map((t) => t.name);
  if (stuck.length > 0) throw new Error(`scheduler: tasks ${stuck.join(', ')} neither ran nor were skipped`);
  return { status: 'completed' };
}

/**
 * Runs a task's commander (a direct task's worker) in this process; a stored session is continued from where it stopped. An
 * iterated task's items take `slots` (the run's units of work) when given, else slots of their own.
 */
export async function executeTaskHere(
  ctx: RunContext,
  task: TaskSpec,
  completedUpstream: UpstreamResult[],
  slots: UnitSlots = new UnitSlots(ctx.mission.maxParallel),
): Promise<TaskOutcome | 'interrupted'> {
  const { store, runId, bus } = ctx;
  const upstream = await withItemDigests(store, runId, ctx.mission.tasks, completedUpstream);
  await store.tasks.ensure(runId, task.name);
  await store.tasks.markRunning(runId, task.name);
  ctx.budget?.taskStarts(task.name);
  bus.emit({ type: 'task.started', task: task.name });
  try {
    if (task.iterator !== undefined) {
      const outcome = await runIteratedTask(ctx, task, upstream, { slots, ...(ctx.itemDispatch ? { items: ctx.itemDispatch } : {}) });
      if (outcome === 'interrupted') throw new RunInterrupted();
      if (outcome.status === 'failed') {
        await store.tasks.fail(runId, task.name, outcome.error);
        bus.emit({ type: 'task.failed', task: task.name, error: outcome.error });
      }
      return outcome;
    }
    const rendered = renderObjective(task, ctx.graph.variables, ctx.inputs);
    if (rendered.text === undefined) throw new Error(rendered.diagnostics.map((d) => d.message).join('; '));
    const objective = rendered.text;
    const outcome = task.direct ? await runDirect(ctx, task, upstream, objective) : await runCommander(ctx, task, await commanderAgents(ctx, task, objective), upstream, objective);
    if (outcome.status === 'failed') {
      await store.tasks.fail(runId, task.name, outcome.error);
      bus.emit({ type: 'task.failed', task: task.name, error: outcome.error });
    }
    return outcome;
  } catch (error) {
    if (await waitingTask(ctx, task.name, error)) return 'interrupted';
    if (error instanceof RunInterrupted || ctx.signal.aborted) {
      await store.tasks.setStatus(runId, task.name, 'cancelled');
      bus.emit({ type: 'task.cancelled', task: task.name });
      return 'interrupted';
    }
    const message = error instanceof Error ? error.message : String(error);
    await store.tasks.fail(runId, task.name, message);
    bus.emit({ type: 'task.failed', task: task.name, error: message });
    return { status: 'failed', error: message };
  }
}

/** Completed ancestors (dependencies and activating tasks, transitively), earliest declared first. */
function upstreamOf(
  task: TaskSpec,
  tasks: readonly TaskSpec[],
  activatedBy: ReadonlyMap<string, string>,
  completed: ReadonlyMap<string, TaskRecord>,
): UpstreamResult[] {
  return ancestorsOf(tasks, task.name, activatedBy)
    .filter((t) => completed.has(t.name))
    .map((t) => {
      const record = completed.get(t.name)!;
      const result: UpstreamResult = { name: t.name, summary: record.summary };
      if (record.output !== undefined) result.output = record.output;
      return result;
    });
}
