// A sequential iterated task: one commander walks the items with dataset_next.

import type { TaskSpec } from '../../config/graph.js';
import type { Value } from '../../config/hcl/value.js';
import type { TaskOutcome, UpstreamResult } from '../agents/commander.js';
import type { RunContext } from '../runContext.js';
import type { IterationDeps } from './parallel.js';

export async function runSequentialItems(
  _ctx: RunContext,
  task: TaskSpec,
  _items: readonly Value[],
  _upstream: readonly UpstreamResult[],
  _deps: IterationDeps,
): Promise<TaskOutcome | 'interrupted'> {
  return { status: 'failed', error: `task "${task.name}": sequential iteration is not available yet; set parallel = true in its iterator` };
}
