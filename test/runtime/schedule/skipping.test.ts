import { describe, expect, it } from 'vitest';
import type { TaskSpec } from '../../../config/graph.js';
import { tasksToSkip } from '../../../runtime/schedule/skipping.js';

const task = (name: string, opts: { dependsOn?: string[]; routes?: string[]; sendTo?: string[] } = {}): TaskSpec =>
  ({ name, dependsOn: opts.dependsOn ?? [], router: (opts.routes ?? []).map((target) => ({ target, condition: '' })), sendTo: opts.sendTo ?? [] }) as unknown as TaskSpec;

// triage routes to a or b; a sends to c; c routes to d; e depends on start (never skipped).
const tasks = [task('start'), task('triage', { routes: ['a', 'b'] }), task('a', { sendTo: ['c'] }), task('b'), task('c', { routes: ['d'] }), task('d'), task('e', { dependsOn: ['start'] })];
const roots = new Set(['start', 'triage', 'e']);

describe('tasksToSkip', () => {
  it('skips nothing while the tasks that could route to a target have not finished', () => {
    expect(tasksToSkip({ tasks, activated: roots, completed: new Set(['start']), skipped: new Map() })).toEqual([]);
  });

  it('skips the targets a finished router did not choose, and transitively what only they would start', () => {
    const activated = new Set([...roots, 'b']);
    expect(tasksToSkip({ tasks, activated, completed: new Set(['start', 'triage']), skipped: new Map() })).toEqual([
      { task: 'a', reason: 'not routed to by triage' },
      { task: 'c', reason: 'only a could route to it, and it was skipped' },
      { task: 'd', reason: 'only c could route to it, and it was skipped' },
    ]);
  });

  it('skips a task that depends on a skipped one, and never a completed or already skipped task', () => {
    const withDependent = [...tasks, task('after_b', { dependsOn: ['b'] })];
    const skipped = new Map([['b', 'not routed to by triage']]);
    const activated = new Set([...roots, 'after_b', 'c']); // a sent to c
    expect(tasksToSkip({ tasks: withDependent, activated, completed: new Set(['start', 'triage', 'a']), skipped })).toEqual([
      { task: 'after_b', reason: 'depends on b, which was skipped' },
    ]);
  });
});
