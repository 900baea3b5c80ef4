// The upstream results of a task as the store holds them: what a runner that did not schedule the run
// (a worker that claimed one of its tasks) shows the task's commander. The same selection as the
// scheduler's: completed ancestors through depends_on and the routes that activated the task.

import type { TaskSpec } from '../../config/graph.js';
import type { Store } from '../../store/index.js';
import type { UpstreamResult } from '../agents/commander.js';
import { ancestorsOf } from './taskGraph.js';

export async function storedUpstream(store: Store, runId: string, tasks: readonly TaskSpec[], task: TaskSpec): Promise<UpstreamResult[]> {
  const activatedBy = new Map((await store.routes.list(runId)).map((r) => [r.to, r.from]));
  const completed = new Map((await store.tasks.list(runId)).filter((t) => t.status === 'completed').map((t) => [t.name, t]));
  return ancestorsOf(tasks, task.name, activatedBy).flatMap((t) => {
    const row = completed.get(t.name);
    if (row === undefined) return [];
    const result: UpstreamResult = { name: t.name, summary: row.summary ?? '' };
    if (row.output !== undefined && row.output !== null) result.output = row.output;
    return [result];
  });
}
