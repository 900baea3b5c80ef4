// Applies a chain of traversal steps (`.name`, `[key]`) to a value. A failed step has already
// reported its diagnostic; the result is then Unknown so later steps do not pile on more errors.

import type { TraversalStep } from './ast.js';
import type { Env } from './eval-env.js';
import { FAILED, getAttr, index } from './eval-traversal.js';
import { unknown, type Value } from './value.js';

export function applySteps(env: Env, start: Value, steps: readonly TraversalStep[]): Value {
  let v = start;
  for (const step of steps) {
    const r = step.kind === 'GetAttr' ? getAttr(env, v, step.name, step.range) : index(env, v, env.evalExpr(step.key, env), step.range);
    if (r === FAILED) return unknown;
    v = r;
  }
  return v;
}
