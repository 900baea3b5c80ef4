// Argument coercion shared by the standard library functions: each helper converts argument i the
// way cty's parameter types would (numbers and bools become strings, "3" becomes 3) or throws a
// FunctionError naming that argument, which the evaluator reports at the argument's range.

import { toNumberValue, toStringValue, typeName } from './convert.js';
import { FunctionError, isObjectValue, type HclFunction, type ObjectValue, type Value } from './value.js';

export function argString(args: Value[], i: number, what = 'argument'): string {
  const v = args[i] ?? null;
  if (v === null) throw new FunctionError(`${what} must not be null.`, i);
  const s = toStringValue(v);
  if (!s.ok) throw new FunctionError(`${what} must be a string, not ${typeName(v)}.`, i);
  return s.value;
}

export function argNumber(args: Value[], i: number, what = 'argument'): number {
  const v = args[i] ?? null;
  if (v === null) throw new FunctionError(`${what} must not be null.`, i);
  const n = toNumberValue(v);
  if (!n.ok) throw new FunctionError(`${what} must be a number: ${n.reason}.`, i);
  return n.value;
}

export function argInteger(args: Value[], i: number, what = 'argument'): number {
  const n = argNumber(args, i, what);
  if (!Number.isInteger(n)) throw new FunctionError(`${what} must be a whole number, not ${n}.`, i);
  return n;
}

export function argList(args: Value[], i: number, what = 'argument'): Value[] {
  const v = args[i] ?? null;
  if (v === null) throw new FunctionError(`${what} must not be null.`, i);
  if (!Array.isArray(v)) throw new FunctionError(`${what} must be a list or tuple, not ${typeName(v)}.`, i);
  return v;
}

export function argObject(args: Value[], i: number, what = 'argument'): ObjectValue {
  const v = args[i] ?? null;
  if (v === null) throw new FunctionError(`${what} must not be null.`, i);
  if (!isObjectValue(v)) throw new FunctionError(`${what} must be a map or object, not ${typeName(v)}.`, i);
  return v;
}

/** Shorthand for declaring a function with a fixed or variadic arity. */
export function fn(minArgs: number, maxArgs: number | undefined, call: (args: Value[]) => Value): HclFunction {
  const f: HclFunction = { minArgs, call: (args) => call(args) };
  if (maxArgs !== undefined) f.maxArgs = maxArgs;
  return f;
}
