// The standard library offered to configuration expressions: string functions (stdlib-strings),
// collection, number, encoding and conversion functions. The loader adds its own on top.

import { setKey, sortedKeys, toBoolValue, toNumberValue, toStringValue, typeName, valuesEqual } from './convert.js';
import { argInteger, argList, argNumber, argObject, argString, fn } from './stdlib-args.js';
import { fromJsonText, toJsonText } from './stdlib-json.js';
import { stringFunctions } from './stdlib-strings.js';
import { FunctionError, isObjectValue, isUnknown, unknown, type HclFunction, type ObjectValue, type Value } from './value.js';

// Created on first use: building a Segmenter loads ICU data (~20 ms), and only length() needs it.
let segmenter: Intl.Segmenter | undefined;

function length(v: Value): number {
  if (typeof v === 'string') {
    segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    let n = 0;
    for (const _ of segmenter.segment(v)) n++;
    return n;
  }
  if (Array.isArray(v)) return v.length;
  if (isObjectValue(v)) return Object.keys(v).length;
  throw new FunctionError(`argument must be a string, a list, a map or an object, not ${typeName(v)}.`, 0);
}

function minMax(args: Value[], pick: (a: number, b: number) => number): number {
  if (args.length === 0) throw new FunctionError('must have at least one argument.', 0);
  let best = argNumber(args, 0);
  for (let i = 1; i < args.length; i++) best = pick(best, argNumber(args, i));
  return best;
}

const collectionFunctions: Record<string, HclFunction> = {
  length: fn(1, 1, (a) => {
    if (a[0] === null) throw new FunctionError('argument must not be null.', 0);
    return length(a[0]!);
  }),
  concat: fn(0, undefined, (a) => {
    const out: Value[] = [];
    a.forEach((_, i) => out.push(...argList(a, i)));
    return out;
  }),
  keys: fn(1, 1, (a) => sortedKeys(argObject(a, 0))),
  values: fn(1, 1, (a) => {
    const o = argObject(a, 0);
    return sortedKeys(o).map((k) => o[k]!);
  }),
  merge: fn(0, undefined, (a) => {
    const out: ObjectValue = {};
    a.forEach((v, i) => {
      if (v === null) return;
      const o = argObject(a, i);
      for (const k of Object.keys(o)) setKey(out, k, o[k]!);
    });
    return out;
  }),
  contains: fn(2, 2, (a) => {
    const list = argList(a, 0);
    return list.some((item) => valuesEqual(item, a[1]!) === true);
  }),
  lookup: fn(2, 3, (a) => {
    const o = argObject(a, 0);
    const key = argString(a, 1, 'key');
    if (Object.prototype.hasOwnProperty.call(o, key)) return o[key]!;
    if (a.length === 3) return a[2]!;
    throw new FunctionError(`the given object has no attribute "${key}".`, 1);
  }),
  element: fn(2, 2, (a) => {
    const list = argList(a, 0);
    const i = argInteger(a, 1, 'index');
    if (list.length === 0) throw new FunctionError('cannot use element function with an empty list.', 0);
    if (i < 0) throw new FunctionError('cannot use element function with a negative index.', 1);
    return list[i % list.length]!;
  }),
  slice: fn(3, 3, (a) => {
    const list = argList(a, 0);
    const start = argInteger(a, 1, 'start index');
    const end = argInteger(a, 2, 'end index');
    if (start < 0) throw new FunctionError('the start index must not be negative.', 1);
    if (end > list.length) throw new FunctionError(`the end index must not be greater than the length of the list (${list.length}).`, 2);
    if (start > end) throw new FunctionError('the start index must be less than or equal to the end index.', 1);
    return list.slice(start, end);
  }),
  coalesce: {
    minArgs: 1,
    acceptsUnknown: true,
    call(args) {
      for (const v of args) {
        if (isUnknown(v)) return unknown;
        if (v === null || v === '') continue;
        return v;
      }
      throw new FunctionError('no non-null, non-empty-string arguments.', 0);
    },
  },
};

const numberFunctions: Record<string, HclFunction> = {
  min: fn(1, undefined, (a) => minMax(a, Math.min)),
  max: fn(1, undefined, (a) => minMax(a, Math.max)),
  abs: fn(1, 1, (a) => Math.abs(argNumber(a, 0))),
  floor: fn(1, 1, (a) => Math.floor(argNumber(a, 0))),
  ceil: fn(1, 1, (a) => Math.ceil(argNumber(a, 0))),
};

const conversionFunctions: Record<string, HclFunction> = {
  jsonencode: fn(1, 1, (a) => toJsonText(a[0]!)),
  jsondecode: fn(1, 1, (a) => fromJsonText(argString(a, 0))),
  tostring: fn(1, 1, (a) => {
    const v = a[0]!;
    if (v === null) return null;
    const s = toStringValue(v);
    if (!s.ok) throw new FunctionError(`cannot convert ${typeName(v)} to string.`, 0);
    return s.value;
  }),
  tonumber: fn(1, 1, (a) => {
    const v = a[0]!;
    if (v === null) return null;
    const n = toNumberValue(v);
    if (!n.ok) throw new FunctionError(`cannot convert ${typeof v === 'string' ? JSON.stringify(v) : typeName(v)} to number.`, 0);
    return n.value;
  }),
  tobool: fn(1, 1, (a) => {
    const v = a[0]!;
    if (v === null) return null;
    const b = toBoolValue(v);
    if (!b.ok) throw new FunctionError(`cannot convert ${typeof v === 'string' ? JSON.stringify(v) : typeName(v)} to bool.`, 0);
    return b.value;
  }),
};

export const stdlibFunctions: Record<string, HclFunction> = {
  ...stringFunctions,
  ...collectionFunctions,
  ...numberFunctions,
  ...conversionFunctions,
};
