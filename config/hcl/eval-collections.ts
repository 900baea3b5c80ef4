// Evaluation of collection-building expressions: tuple and object constructors, `for`
// expressions (with `if` filters and `...` grouping) and splats (`list[*].x`, `list.*.x`).

import type { Expression, ForExpr, ObjectExpr, SplatExpr, TupleExpr } from './ast.js';
import { CODES } from './codes.js';
import { setKey, sortedKeys, toBoolValue, toStringValue, typeName } from './convert.js';
import { report, withLocals, type Env } from './eval-env.js';
import { applySteps } from './eval-steps.js';
import { isObjectValue, isUnknown, unknown, type ObjectValue, type Value } from './value.js';

export function evalTuple(e: TupleExpr, env: Env): Value {
  return e.items.map((item) => env.evalExpr(item, env));
}

export function evalObject(e: ObjectExpr, env: Env): Value {
  const out: ObjectValue = {};
  let anyUnknownKey = false;
  for (const item of e.items) {
    let key: string | undefined;
    if (item.keyIsIdentifier && item.key.kind === 'ScopeTraversal') {
      key = item.key.root;
    } else {
      const k = env.evalExpr(item.key, env);
      if (isUnknown(k)) anyUnknownKey = true;
      else if (k === null) {
        report(env, item.key.range, CODES.invalidObjectKey, "Null value as key: Can't use a null value as a key.", 'Make sure the key expression produces a string.');
      } else {
        const s = toStringValue(k);
        if (s.ok) key = s.value;
        else report(env, item.key.range, CODES.invalidObjectKey, `Incorrect key type: Can't use this value as a key: ${s.reason}.`, 'Object keys must be strings.');
      }
    }
    const v = env.evalExpr(item.value, env);
    if (key !== undefined) setKey(out, key, v);
  }
  return anyUnknownKey ? unknown : out;
}

export function evalFor(e: ForExpr, env: Env): Value {
  const coll = env.evalExpr(e.collection, env);
  if (isUnknown(coll)) return unknown;
  if (coll === null) {
    report(env, e.collection.range, CODES.invalidForExpression, "Iteration over null value: A null value cannot be used as the collection in a 'for' expression.", 'Supply a list or object, e.g. with coalesce(x, []).');
    return unknown;
  }
  const entries: Array<[Value, Value]> = [];
  if (Array.isArray(coll)) coll.forEach((v, i) => entries.push([i, v]));
  else if (isObjectValue(coll)) for (const k of sortedKeys(coll)) entries.push([k, coll[k]!]);
  else {
    report(env, e.collection.range, CODES.invalidForExpression, `Iteration over non-iterable value: A value of type ${typeName(coll)} cannot be used as the collection in a 'for' expression.`, 'Iterate over a list or an object.');
    return unknown;
  }

  const tuple: Value[] = [];
  const obj: ObjectValue = {};
  const groups = new Map<string, Value[]>();
  let resultUnknown = false;
  for (const [k, v] of entries) {
    const vars: Record<string, Value> = { [e.valueVar]: v };
    if (e.keyVar !== undefined) vars[e.keyVar] = k;
    const inner = withLocals(env, vars);
    if (e.condition) {
      const c = env.evalExpr(e.condition, inner);
      if (isUnknown(c)) {
        resultUnknown = true;
        continue;
      }
      if (c === null) {
        report(env, e.condition.range, CODES.invalidCondition, "Condition is null: The value of the 'if' clause must not be null.", 'Make the filter produce true or false.');
        return unknown;
      }
      const b = toBoolValue(c);
      if (!b.ok) {
        report(env, e.condition.range, CODES.invalidCondition, `Invalid 'for' condition: The 'if' clause value is invalid: ${b.reason}.`, 'Make the filter produce true or false.');
        return unknown;
      }
      if (!b.value) continue;
    }
    if (!e.isObject) {
      tuple.push(env.evalExpr(e.valueExpr, inner));
      continue;
    }
    const keyExpr = e.keyExpr as Expression;
    const kv = env.evalExpr(keyExpr, inner);
    const value = env.evalExpr(e.valueExpr, inner);
    if (isUnknown(kv)) {
      resultUnknown = true;
      continue;
    }
    if (kv === null) {
      report(env, keyExpr.range, CODES.invalidForExpression, "Invalid object key: Key expression in 'for' expression must not produce a null value.", 'Make the key expression produce a string.');
      return unknown;
    }
    const ks = toStringValue(kv);
    if (!ks.ok) {
      report(env, keyExpr.range, CODES.invalidForExpression, `Invalid object key: The key expression produced an invalid result: ${ks.reason}.`, 'Make the key expression produce a string.');
      return unknown;
    }
    if (e.grouping) {
      const g = groups.get(ks.value);
      if (g) g.push(value);
      else groups.set(ks.value, [value]);
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(obj, ks.value)) {
      report(env, keyExpr.range, CODES.invalidForExpression, `Duplicate object key: Two different items produced the key "${ks.value}" in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key.`, 'Add "..." after the value expression to group values by key.');
      return unknown;
    }
    setKey(obj, ks.value, value);
  }
  if (resultUnknown) return unknown;
  if (!e.isObject) return tuple;
  if (e.grouping) for (const [k, vs] of groups) setKey(obj, k, vs);
  return obj;
}

export function evalSplat(e: SplatExpr, env: Env): Value {
  const src = env.evalExpr(e.source, env);
  if (isUnknown(src)) return unknown;
  if (src === null) return [];
  // A non-list value is treated as a one-element list, as HCL does.
  const items = Array.isArray(src) ? src : [src];
  const out: Value[] = [];
  for (const item of items) {
    if (e.eachExpr) out.push(env.evalExpr(e.eachExpr, withLocals(env, { '': item })));
    else out.push(applySteps(env, item, e.each));
  }
  return out;
}
