import { describe, expect, it } from 'vitest';
import type { TaskSpec } from '../../../config/graph.js';
import { ancestorsOf } from '../../../runtime/schedule/taskGraph.js';

const task = (name: string, dependsOn: string[] = []): TaskSpec => ({ name, dependsOn }) as unknown as TaskSpec;

describe('ancestorsOf', () => {
  const tasks = [task('a'), task('b'), task('c', ['a']), task('d', ['c', 'b']), task('routed'), task('e', ['routed'])];

  it('follows depends_on transitively and lists ancestors in declaration order', () => {
    expect(ancestorsOf(tasks, 'd').map((t) => t.name)).toEqual(['a', 'b', 'c']);
    expect(ancestorsOf(tasks, 'a')).toEqual([]);
  });

  it('includes the task that activated a routed task, and its ancestors', () => {
    expect(ancestorsOf(tasks, 'e', new Map([['routed', 'c']])).map((t) => t.name)).toEqual(['a', 'c', 'routed']);
  });
});
