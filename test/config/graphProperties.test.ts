// Properties of the graph rules and suggestions, over generated inputs: a DAG never reports a
// cycle; a path closed by one back edge always does, printed as a path that starts and ends at the
// same task; edit distance is symmetric and zero only for equal names.

import fc from 'fast-check';
import { expect, test } from 'vitest';
import { checkMissionGraph, type TaskEdges } from '../../config/graphRules.js';
import type { Diagnostic, Range } from '../../config/hcl/diagnostic.js';
import { editDistance } from '../../config/suggest.js';

const range = (line: number): Range => ({ file: 'f.hcl', start: { line, column: 1, offset: 0 }, end: { line, column: 2, offset: 0 } });

function tasksFrom(n: number, edges: Array<[number, number]>): TaskEdges[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `t${i}`,
    header: range(i + 1),
    // Edge [a, b] with a < b: t_b depends on t_a (a runs first).
    dependsOn: edges.filter(([, b]) => b === i).map(([a]) => ({ name: `t${a}`, range: range(100 + a) })),
    routes: [],
    sendTo: [],
  }));
}

const dag = fc.integer({ min: 2, max: 12 }).chain((n) =>
  fc.tuple(
    fc.constant(n),
    fc.uniqueArray(
      fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: n - 1 })).filter(([a, b]) => a < b),
      { selector: ([a, b]) => `${a}-${b}`, maxLength: 30 },
    ),
  ),
);

test('a DAG of depends_on never reports a cycle or a start problem', () => {
  fc.assert(
    fc.property(dag, ([n, edges]) => {
      const diags: Diagnostic[] = [];
      checkMissionGraph('m', range(1), tasksFrom(n, edges), diags);
      expect(diags).toEqual([]);
    }),
  );
});

test('a chain closed by a send_to back edge reports exactly one cycle, printed as a closed path', () => {
  fc.assert(
    fc.property(fc.integer({ min: 2, max: 15 }), (n) => {
      const chain = Array.from({ length: n - 1 }, (_, i): [number, number] => [i, i + 1]);
      const tasks = tasksFrom(n, chain);
      // The last task activates the second one, which waits on the first: a → … → last → second.
      tasks[n - 1]!.sendTo = [{ name: 't0', range: range(999) }];
      tasks[0]!.dependsOn = [];
      const diags: Diagnostic[] = [];
      checkMissionGraph('m', range(1), tasks, diags);
      const cycles = diags.filter((d) => d.code === 'GRA004');
      expect(cycles).toHaveLength(1);
      const path = cycles[0]!.message.replace('dependency cycle: ', '').split(' → ');
      expect(path[0]).toBe(path[path.length - 1]);
      expect(new Set(path).size).toBe(n);
    }),
  );
});

test('edit distance is symmetric and zero only for equal strings; one transposition costs one', () => {
  const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '_'), maxLength: 8 });
  fc.assert(
    fc.property(word, word, (a, b) => {
      expect(editDistance(a, b)).toBe(editDistance(b, a));
      expect(editDistance(a, b) === 0).toBe(a === b);
      expect(editDistance(a, b)).toBeLessThanOrEqual(Math.max(a.length, b.length));
    }),
  );
  expect(editDistance('tools', 'tols')).toBe(1);
  expect(editDistance('agnets', 'agents')).toBe(1);
});
