// Function calls: look the name up in ctx.functions only, evaluate and expand arguments (`f(x...)`),
// check the argument count, short-circuit Unknown arguments, and turn a FunctionError (or any
// exception from a function) into a diagnostic at the call or the offending argument.

import type { FunctionCallExpr } from './ast.js';
import type { Range } from './diagnostic.js';
import { CODES } from './codes.js';
import { containsUnknown, typeName } from './convert.js';
import { report, type Env } from './eval-env.js';
import { nfcValue } from './nfc.js';
import { didYouMean } from './suggest.js';
import { FunctionError, isUnknown, unknown, type Value } from './value.js';

export function evalCall(e: FunctionCallExpr, env: Env): Value {
  const fns = env.ctx.functions;
  const fn = Object.prototype.hasOwnProperty.call(fns, e.name) ? fns[e.name] : undefined;
  if (fn === undefined) {
    const hint = didYouMean(e.name, Object.keys(fns));
    report(env, e.nameRange, CODES.unknownFunction, `Call to unknown function: There is no function named "${e.name}".`, hint ?? 'Check the spelling; only the built-in functions are available.');
    for (const a of e.args) env.evalExpr(a, env);
    return unknown;
  }
  const args: Value[] = [];
  const argRanges: Range[] = [];
  let countUnknown = false;
  e.args.forEach((a, i) => {
    const v = env.evalExpr(a, env);
    const last = i === e.args.length - 1;
    if (!(last && e.expandFinal)) {
      args.push(v);
      argRanges.push(a.range);
      return;
    }
    if (isUnknown(v)) {
      countUnknown = true; // not even the number of arguments is known yet
      return;
    }
    if (v === null || !Array.isArray(v)) {
      report(env, a.range, CODES.invalidExpansion, v === null ? 'Invalid expanding argument value: The expanding argument (indicated by ...) must not be null.' : `Invalid expanding argument value: The expanding argument (indicated by ...) must be of a tuple, list, or set type, not ${typeName(v)}.`, 'Only a list can be expanded into arguments.');
      args.push(unknown);
      argRanges.push(a.range);
      return;
    }
    for (const item of v) {
      args.push(item);
      argRanges.push(a.range);
    }
  });
  if (countUnknown) return unknown;
  if (args.length < fn.minArgs) {
    report(env, e.range, CODES.argumentCount, `Not enough function arguments: Function "${e.name}" expects ${fn.minArgs === fn.maxArgs ? '' : 'at least '}${fn.minArgs} argument${fn.minArgs === 1 ? '' : 's'}, but got ${args.length}.`, 'Add the missing arguments.');
    return unknown;
  }
  if (fn.maxArgs !== undefined && args.length > fn.maxArgs) {
    const extra = argRanges[fn.maxArgs] ?? e.range;
    report(env, extra, CODES.argumentCount, `Too many function arguments: Function "${e.name}" expects only ${fn.maxArgs} argument${fn.maxArgs === 1 ? '' : 's'}.`, 'Remove the extra arguments.');
    return unknown;
  }
  if (!fn.acceptsUnknown && args.some(containsUnknown)) return unknown;
  try {
    return nfcValue(fn.call(args, { range: e.range, argRanges }));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const argIndex = err instanceof FunctionError ? err.argIndex : undefined;
    const range = argIndex !== undefined && argRanges[argIndex] !== undefined ? argRanges[argIndex] : e.range;
    report(env, range, CODES.functionFailed, `Error in function call: Call to function "${e.name}" failed: ${message}`, 'Check the arguments against the function\'s documentation.');
    return unknown;
  }
}
