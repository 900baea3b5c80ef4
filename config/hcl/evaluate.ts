// Evaluates an expression AST against an EvalContext: variables come only from ctx.variables (plus
// names bound by `for` and splats), functions only from ctx.functions. Errors are diagnostics at
// the sub-expression's range; a failed sub-expression evaluates to Unknown so errors do not cascade.

import type { ConditionalExpr, Expression, ScopeTraversalExpr } from './ast.js';
import { CODES } from './codes.js';
import { toBoolValue, typeName } from './convert.js';
import { evalCall } from './eval-call.js';
import { evalFor, evalObject, evalSplat, evalTuple } from './eval-collections.js';
import { report, type Env } from './eval-env.js';
import { evalBinary, evalUnary } from './eval-operators.js';
import { applySteps } from './eval-steps.js';
import { evalTemplate } from './eval-template.js';
import { nfc } from './nfc.js';
import { FAILED, index } from './eval-traversal.js';
import { markState, recordMarked, traversalMark } from './marks.js';
import { didYouMean } from './suggest.js';
import { isUnknown, unknown, type EvalContext, type EvalResult, type Value } from './value.js';

export function evaluate(expr: Expression, ctx: EvalContext): EvalResult {
  const marks = markState(ctx.sensitive);
  const env: Env = { ctx, locals: undefined, diags: [], evalExpr, marks };
  try {
    const value = evalExpr(expr, env);
    return marks === undefined ? { value, diagnostics: env.diags } : { value, diagnostics: env.diags, sensitive: marks.found };
  } catch (err) {
    // The parser bounds nesting, but a value can still be built deeper than the stack allows
    // (jsondecode of a document nested 20,000 levels) or larger than a string may be: that is
    // the user's expression failing, reported at it, not a crash.
    if (!(err instanceof RangeError)) throw err;
    report(env, expr.range, CODES.tooComplex, `Expression too complex: evaluating it failed (${err.message}).`, 'Simplify the expression or the values it reads.');
    return { value: unknown, diagnostics: env.diags };
  }
}

/** Evaluates `e`; with marks, also what it read of a secret, reported and passed up to its parent. */
function evalExpr(e: Expression, env: Env): Value {
  const marks = env.marks;
  if (marks === undefined) return evalNode(e, env);
  const outer = marks.current;
  marks.current = undefined;
  const value = evalNode(e, env);
  const mine = marks.current;
  marks.current = outer ?? mine;
  if (mine !== undefined) recordMarked(marks, e, value, mine);
  return value;
}

function evalNode(e: Expression, env: Env): Value {
  switch (e.kind) {
    case 'Literal':
      // The parser's placeholder for a broken expression: its syntax error says it all.
      if (e.invalid === true) return unknown;
      return typeof e.value === 'string' ? nfc(e.value) : e.value;
    case 'Template':
      return evalTemplate(e, env);
    case 'ScopeTraversal':
      return evalScopeTraversal(e, env);
    case 'RelativeTraversal':
      return applySteps(env, evalExpr(e.source, env), e.steps);
    case 'FunctionCall':
      return evalCall(e, env);
    case 'Tuple':
      return evalTuple(e, env);
    case 'Object':
      return evalObject(e, env);
    case 'Unary':
      return evalUnary(e, env);
    case 'Binary':
      return evalBinary(e, env);
    case 'Conditional':
      return evalConditional(e, env);
    case 'For':
      return evalFor(e, env);
    case 'Splat':
      return evalSplat(e, env);
    case 'Index': {
      const coll = evalExpr(e.collection, env);
      const key = evalExpr(e.key, env);
      const r = index(env, coll, key, e.range);
      return r === FAILED ? unknown : r;
    }
    case 'Parentheses':
      return evalExpr(e.expr, env);
  }
}

function lookupRoot(e: ScopeTraversalExpr, env: Env): Value | typeof FAILED {
  const locals = env.locals;
  if (locals !== undefined && e.root in locals) return locals[e.root]!;
  const vars = env.ctx.variables;
  if (Object.prototype.hasOwnProperty.call(vars, e.root)) return vars[e.root]!;
  const names = new Set(Object.keys(vars));
  if (locals !== undefined) for (const k in locals) if (k !== '') names.add(k);
  const hint = didYouMean(e.root, names);
  report(
    env,
    e.rootRange,
    CODES.unknownVariable,
    `Unknown variable: There is no variable named "${e.root}".`,
    hint ?? (names.size > 0 ? `Available variables: ${[...names].sort().slice(0, 12).join(', ')}.` : 'No variables are available in this expression.'),
  );
  return FAILED;
}

function evalScopeTraversal(e: ScopeTraversalExpr, env: Env): Value {
  const root = lookupRoot(e, env);
  if (root === FAILED) return unknown;
  if (env.marks !== undefined && (env.locals === undefined || !(e.root in env.locals))) env.marks.current ??= traversalMark(env.marks, e);
  return e.steps.length === 0 ? root : applySteps(env, root, e.steps);
}

function evalConditional(e: ConditionalExpr, env: Env): Value {
  // The condition's mark stays with the condition: the value chosen is not computed from it.
  const before = env.marks?.current;
  const c = evalExpr(e.condition, env);
  if (env.marks !== undefined) env.marks.current = before;
  if (isUnknown(c)) {
    // Both branches are checked for errors, but the result is not known yet.
    evalExpr(e.trueExpr, env);
    evalExpr(e.falseExpr, env);
    return unknown;
  }
  if (c === null) {
    report(env, e.condition.range, CODES.invalidCondition, 'Null condition: The condition value is null. Conditions must either be true or false.', 'Make the condition produce true or false.');
    return unknown;
  }
  const b = toBoolValue(c);
  if (!b.ok) {
    report(env, e.condition.range, CODES.invalidCondition, `Incorrect condition type: The condition expression must be of type bool, but have ${typeName(c)}.`, 'Use a comparison such as x != "" to produce a bool.');
    return unknown;
  }
  return evalExpr(b.value ? e.trueExpr : e.falseExpr, env);
}
