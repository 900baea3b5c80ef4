// Walks a mission's task graph: the ancestors whose results a task's commander is shown.

import type { TaskSpec } from '../config/graph.js';

/**
 * A task's ancestors through `depends_on` and, when known, the task that activated it (router or
 * send_to), transitively — in declaration order, earliest first.
 */
export function ancestorsOf(tasks: readonly TaskSpec[], name: string, activatedBy: ReadonlyMap<string, string> = new Map()): TaskSpec[] {
  const byName = new Map(tasks.map((t) => [t.name, t]));
  const seen = new Set<string>();
  const visit = (current: string): void => {
    const parents = [...(byName.get(current)?.dependsOn ?? [])];
    const activator = activatedBy.get(current);
    if (activator !== undefined) parents.push(activator);
    for (const parent of parents) {
      if (seen.has(parent)) continue;
      seen.add(parent);
      visit(parent);
    }
  };
  visit(name);
  return tasks.filter((t) => seen.has(t.name));
}
