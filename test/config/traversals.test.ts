// freeTraversals: the names an expression reads, minus `for` locals and splat elements — including
// the per-element expression of a nested splat (`SplatExpr.eachExpr`), whose element root is `''`.

import { expect, test } from 'vitest';
import { parseHcl } from '../../config/hcl/index.js';
import type { Expression } from '../../config/hcl/ast.js';
import { freeTraversals } from '../../config/traversals.js';
import { traversalText } from '../../config/values.js';

function expr(source: string): Expression {
  const r = parseHcl(`x = ${source}\n`, 't.hcl');
  expect(r.diagnostics).toEqual([]);
  return r.file.body.attributes[0]!.expr;
}

const names = (source: string): string[] => freeTraversals(expr(source)).map(traversalText);

test('a nested splat reports its source and nothing for the element placeholder', () => {
  const e = expr('inputs.groups[*].members[*].name');
  expect(e.kind === 'Splat' && e.eachExpr !== undefined).toBe(true);
  expect(names('inputs.groups[*].members[*].name')).toEqual(['inputs.groups']);
});

test('references inside a nested splat are found', () => {
  expect(names('inputs.groups[*].members[*][vars.field]')).toEqual(['inputs.groups', 'vars.field']);
});

test('a dynamic index after a splat is found', () => {
  expect(names('inputs.rows[*][vars.column]')).toEqual(['inputs.rows', 'vars.column']);
});

test('a for variable stays bound inside a nested splat', () => {
  expect(names('[for k in inputs.keys : inputs.rows[*].cells[*][k]]')).toEqual(['inputs.keys', 'inputs.rows']);
});

test('a dynamic index on a splatted attribute is found', () => {
  expect(names('inputs.rows[*].cells[vars.i]')).toEqual(['inputs.rows', 'vars.i']);
});

test('a plain splat (static steps only) reports just its source', () => {
  const e = expr('inputs.rows[*].cells[0].name');
  expect(e.kind === 'Splat' && e.eachExpr === undefined).toBe(true);
  expect(names('inputs.rows[*].cells[0].name')).toEqual(['inputs.rows']);
});
