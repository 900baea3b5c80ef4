// Walks a mission's task graph: the ancestors whose results a task's commander is shown.

import type { TaskSpec } from '../../config/graph.js';

/**
 * A task's ancestors through `depends_on` and the task(s) that activated it (router or send_to: the
 * one that did at run time, every possible one when planning), transitively — in declaration order,
 * earliest first.
 */
export function ancestorsOf(tasks: readonly TaskSpec[], name: string, activatedBy: ReadonlyMap<string, string | readonly string[]> = new Map()): TaskSpec[] {
  const byName = new Map(tasks.map((t) => [t.name, t]));
  const seen = new Set<string>();
  const visit = (current: string): void => {
    const parents = [...(byName.get(current)?.dependsOn ?? [])];
    const activators = activatedBy.get(current);
    if (activators !== undefined) parents.push(...(typeof activators === 'string' ? [activators] : activators));
    for (const parent of parents) {
      if (seen.has(parent)) continue;
      seen.add(parent);
      visit(parent);
    }
  };
  visit(name);
  return tasks.filter((t) => seen.has(t.name));
}
