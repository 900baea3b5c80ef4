// Which tasks of a running mission can no longer start, and why. A router or send_to target that
// nothing activated once every task that could have activated it has finished or been skipped is
// skipped; so is every task that depends on a skipped one (transitively). Skipping never fails the
// mission: the tasks are reported as `skipped`, never as completed.

import type { TaskSpec } from '../../config/graph.js';

export interface SkipInput {
  tasks: readonly TaskSpec[];
  /** Tasks that may start once their dependencies completed (not router/send_to targets, or activated). */
  activated: ReadonlySet<string>;
  completed: ReadonlySet<string>;
  /** Tasks skipped so far, with their reasons. */
  skipped: ReadonlyMap<string, string>;
}

/** The tasks to skip now, in declaration order, found to a fixpoint (a skip can skip its dependents). */
export function tasksToSkip(input: SkipInput): { task: string; reason: string }[] {
  const skipped = new Map(input.skipped);
  const activators = new Map<string, string[]>();
  for (const task of input.tasks) {
    for (const target of [...task.router.map((r) => r.target), ...task.sendTo]) {
      activators.set(target, [...(activators.get(target) ?? []), task.name]);
    }
  }
  const out: { task: string; reason: string }[] = [];
  for (let changed = true; changed; ) {
    changed = false;
    for (const task of input.tasks) {
      if (input.completed.has(task.name) || skipped.has(task.name)) continue;
      const reason = skipReason(task, activators.get(task.name) ?? [], input, skipped);
      if (reason === undefined) continue;
      skipped.set(task.name, reason);
      out.push({ task: task.name, reason });
      changed = true;
    }
  }
  return out;
}

function skipReason(task: TaskSpec, activators: readonly string[], input: SkipInput, skipped: ReadonlyMap<string, string>): string | undefined {
  const skippedDependency = task.dependsOn.find((d) => skipped.has(d));
  if (skippedDependency !== undefined) return `depends on ${skippedDependency}, which was skipped`;
  if (input.activated.has(task.name)) return undefined;
  const settled = activators.every((a) => input.completed.has(a) || skipped.has(a));
  if (!settled) return undefined;
  const ran = activators.filter((a) => input.completed.has(a));
  if (ran.length === 0) return `only ${activators.join(', ')} could route to it, and ${activators.length === 1 ? 'it was' : 'they were'} skipped`;
  return `not routed to by ${ran.join(', ')}`;
}
