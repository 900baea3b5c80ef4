// Unary and binary operators with HCL semantics: arithmetic and comparison are numeric only
// (strings convert when they hold a number), `+` never concatenates, `&&`/`||` take bools,
// `==`/`!=` compare deeply without conversion. Unknown operands give Unknown results.

import type { BinaryExpr, Expression, UnaryExpr } from './ast.js';
import { CODES } from './codes.js';
import { toBoolValue, toNumberValue, valuesEqual } from './convert.js';
import { report, type Env } from './eval-env.js';
import { isUnknown, unknown, type Value } from './value.js';

export function evalUnary(e: UnaryExpr, env: Env): Value {
  const v = env.evalExpr(e.operand, env);
  if (isUnknown(v)) return unknown;
  if (e.op === '-') {
    const n = toNumberValue(v);
    if (!n.ok) {
      report(env, e.operand.range, CODES.invalidOperand, `Invalid operand: Unsuitable value for unary operand: ${n.reason}.`, 'Unary minus applies to numbers only.');
      return unknown;
    }
    return n.value === 0 ? 0 : -n.value;
  }
  const b = toBoolValue(v);
  if (!b.ok) {
    report(env, e.operand.range, CODES.invalidOperand, `Invalid operand: Unsuitable value for unary operand: ${b.reason}.`, '"!" applies to bools only.');
    return unknown;
  }
  return !b.value;
}

/**
 * A chain `a + b + c …` parses as a left-leaning tree as deep as the chain is long, so its left
 * spine is walked with a loop: thousands of terms need no stack. Operands are still evaluated
 * left to right, and `&&`/`||` still skip a right operand the left one decides.
 */
export function evalBinary(e: BinaryExpr, env: Env): Value {
  const spine: BinaryExpr[] = [e];
  let leftmost: Expression = e.left;
  while (leftmost.kind === 'Binary') {
    spine.push(leftmost);
    leftmost = leftmost.left;
  }
  let value = env.evalExpr(leftmost, env);
  for (let i = spine.length - 1; i >= 0; i--) value = applyBinary(spine[i]!, value, env);
  return value;
}

/** One operator, its left operand already evaluated. */
function applyBinary(e: BinaryExpr, left: Value, env: Env): Value {
  const op = e.op;
  if (op === '&&' || op === '||') return evalLogical(e, left, env);
  const right = env.evalExpr(e.right, env);
  if (op === '==' || op === '!=') {
    const eq = valuesEqual(left, right);
    if (eq === undefined) return unknown;
    return op === '==' ? eq : !eq;
  }
  const l = numericOperand(env, left, e, 'left');
  const r = numericOperand(env, right, e, 'right');
  if (l === undefined || r === undefined) return unknown;
  if (l === null || r === null) return unknown;
  switch (op) {
    case '+':
      return l + r;
    case '-':
      return l - r;
    case '*':
      return l * r;
    case '/':
      if (r === 0) {
        report(env, e.right.range, CODES.divisionByZero, "Invalid operand: Can't divide by zero.", 'Check the divisor before dividing, e.g. with a conditional.');
        return unknown;
      }
      return l / r;
    case '%':
      if (r === 0) {
        report(env, e.right.range, CODES.divisionByZero, "Invalid operand: Can't use modulo by zero.", 'Check the divisor before using %.');
        return unknown;
      }
      return l % r;
    case '<':
      return l < r;
    case '>':
      return l > r;
    case '<=':
      return l <= r;
    case '>=':
      return l >= r;
  }
  return unknown;
}

/** A number, `null` when unknown, or undefined after reporting an unsuitable operand. */
function numericOperand(env: Env, v: Value, e: BinaryExpr, side: 'left' | 'right'): number | null | undefined {
  if (isUnknown(v)) return null;
  const n = toNumberValue(v);
  if (n.ok) return n.value;
  const hint = e.op === '+' && (typeof v === 'string' || v === null)
    ? 'The "+" operator adds numbers; to join strings use a template ("${a}${b}") or join().'
    : `The "${e.op}" operator needs numbers on both sides.`;
  report(env, (side === 'left' ? e.left : e.right).range, CODES.invalidOperand, `Invalid operand: Unsuitable value for ${side} operand: ${n.reason}.`, hint);
  return undefined;
}

function boolOperand(env: Env, v: Value, e: BinaryExpr, side: 'left' | 'right'): boolean | null | undefined {
  if (isUnknown(v)) return null;
  const b = toBoolValue(v);
  if (b.ok) return b.value;
  report(env, (side === 'left' ? e.left : e.right).range, CODES.invalidOperand, `Invalid operand: Unsuitable value for ${side} operand: ${b.reason}.`, `The "${e.op}" operator needs true or false on both sides.`);
  return undefined;
}

/** `&&` and `||` skip the right operand when the left one already decides the result. */
function evalLogical(e: BinaryExpr, left: Value, env: Env): Value {
  const l = boolOperand(env, left, e, 'left');
  if (l === undefined) {
    env.evalExpr(e.right, env);
    return unknown;
  }
  if (e.op === '&&' && l === false) return false;
  if (e.op === '||' && l === true) return true;
  const r = boolOperand(env, env.evalExpr(e.right, env), e, 'right');
  if (r === undefined) return unknown;
  if (l === null) {
    // Unknown left: a known right operand can still decide.
    if (e.op === '&&' && r === false) return false;
    if (e.op === '||' && r === true) return true;
    return unknown;
  }
  if (r === null) return unknown;
  return r;
}
