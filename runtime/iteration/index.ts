// Iterated tasks: the scheduler hands a task with an `iterator` here (runIteratedTask), and the run
// entry point checks every dataset's items before anything runs (datasetProblems).

import { datasetItems } from '../../config/datasetItems.js';
import type { Mission, TaskSpec } from '../../config/graph.js';
import type { Value } from '../../config/hcl/value.js';
import type { TaskOutcome, UpstreamResult } from '../agents/commander.js';
import type { RunContext } from '../agents/runContext.js';
import { runParallelItems, type IterationDeps } from './parallel.js';
import { runSequentialItems } from './sequential.js';
import { itemsForIteration } from '../kernel/filledDatasets.js';

export { UnitSlots } from './slots.js';
export { itemLabel, parseItemLabel } from '../../core/sessionLabels.js';
export type { IterationDeps, ItemDispatch, ItemAttempt, AttemptResult } from './parallel.js';
export { readOnce, runItemHere } from './parallel.js';
export { withItemDigests } from '../agents/digest.js';

/**
 * The items of the dataset a task iterates over, as this run sees them (a dataset filled at run time
 * is read from the run, and locked: runtime/iteration/filledDatasets.ts).
 */
export async function taskItems(ctx: Pick<RunContext, 'mission' | 'inputs' | 'store' | 'runId'>, task: TaskSpec): Promise<Value[]> {
  const dataset = ctx.mission.datasets.find((d) => d.name === task.iterator?.dataset);
  return dataset === undefined ? [] : itemsForIteration(ctx.store, ctx.runId, task.name, dataset, ctx.inputs);
}

/** One line per bad item of every dataset an iterated task of the mission uses (empty when all are good). */
export function datasetProblems(mission: Mission, inputs: Readonly<Record<string, Value>>): string[] {
  const used = new Set(mission.tasks.flatMap((t) => (t.iterator ? [t.iterator.dataset] : [])));
  return mission.datasets.filter((d) => used.has(d.name)).flatMap((d) => datasetItems(d, inputs).problems);
}

export async function runIteratedTask(ctx: RunContext, task: TaskSpec, upstream: readonly UpstreamResult[], deps: IterationDeps): Promise<TaskOutcome | 'interrupted'> {
  const items = await taskItems(ctx, task);
  return task.iterator?.parallel ? runParallelItems(ctx, task, items, upstream, deps) : runSequentialItems(ctx, task, items, upstream, deps);
}
