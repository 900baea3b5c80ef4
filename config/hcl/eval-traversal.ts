// Attribute access and indexing on values (`.name`, `[key]`, legacy `.0`), with HCL's error
// wording and a "did you mean" hint for misspelled attribute names.

import type { Range } from './diagnostic.js';
import { CODES } from './codes.js';
import { numberToString, typeName } from './convert.js';
import { report, type Env } from './eval-env.js';
import { didYouMean } from './suggest.js';
import { isObjectValue, isUnknown, unknown, type Value } from './value.js';

/** Marker returned when a step failed (a diagnostic was reported); callers stop traversing. */
export const FAILED: unique symbol = Symbol('failed');
export type StepResult = Value | typeof FAILED;

export function getAttr(env: Env, v: Value, name: string, range: Range): StepResult {
  if (isUnknown(v)) return unknown;
  if (v === null) {
    report(env, range, CODES.invalidTraversal, 'Attempt to get attribute from null value: This value is null, so it does not have any attributes.', `Check that the value exists before reading ".${name}", e.g. with a conditional.`);
    return FAILED;
  }
  if (isObjectValue(v)) {
    if (Object.prototype.hasOwnProperty.call(v, name)) return v[name]!;
    const hint = didYouMean(name, Object.keys(v));
    const known = Object.keys(v);
    report(
      env,
      range,
      CODES.unsupportedAttribute,
      `Unsupported attribute: This object does not have an attribute named "${name}".`,
      hint ?? (known.length > 0 ? `Available attributes: ${known.slice(0, 10).join(', ')}${known.length > 10 ? ', …' : ''}.` : 'This object has no attributes.'),
    );
    return FAILED;
  }
  if (Array.isArray(v)) {
    report(env, range, CODES.unsupportedAttribute, `Unsupported attribute: Can't access attributes on a list of objects. Did you mean to access attribute "${name}" for a specific element of the list, or across all elements of the list?`, `Use an index like [0].${name}, or a splat like [*].${name}.`);
    return FAILED;
  }
  report(env, range, CODES.unsupportedAttribute, `Unsupported attribute: Can't access attributes on a primitive-typed value (${typeName(v)}).`, 'Only objects have attributes.');
  return FAILED;
}

export function index(env: Env, v: Value, key: Value, range: Range): StepResult {
  if (isUnknown(v) || isUnknown(key)) return unknown;
  if (v === null) {
    report(env, range, CODES.invalidTraversal, 'Attempt to index null value: This value is null, so it does not have any indices.', 'Check that the value exists before indexing it.');
    return FAILED;
  }
  if (key === null) {
    report(env, range, CODES.invalidIndex, "Invalid index: Can't use a null value as an indexing key.", 'Use a number for lists and a string for objects.');
    return FAILED;
  }
  if (Array.isArray(v)) {
    let n: number;
    if (typeof key === 'number') n = key;
    else if (typeof key === 'string' && /^-?[0-9]+$/.test(key)) n = Number(key);
    else {
      report(env, range, CODES.invalidIndex, 'Invalid index: The given key does not identify an element in this collection value: a number is required.', 'Index lists with a whole number, e.g. [0].');
      return FAILED;
    }
    if (!Number.isInteger(n)) {
      report(env, range, CODES.invalidIndex, 'Invalid index: The given key does not identify an element in this collection value: the given index is not a whole number.', 'Index lists with a whole number, e.g. [0].');
      return FAILED;
    }
    if (n < 0) {
      report(env, range, CODES.invalidIndex, 'Invalid index: The given key does not identify an element in this collection value: a negative number is not a valid index for a sequence.', 'Indexes start at 0.');
      return FAILED;
    }
    if (n >= v.length) {
      report(env, range, CODES.invalidIndex, `Invalid index: The given key does not identify an element in this collection value: the given index is greater than or equal to the length of the collection.`, `This list has ${v.length} element${v.length === 1 ? '' : 's'}; valid indexes are ${v.length === 0 ? 'none' : `0 to ${v.length - 1}`}.`);
      return FAILED;
    }
    return v[n]!;
  }
  if (isObjectValue(v)) {
    let k: string;
    if (typeof key === 'string') k = key;
    else if (typeof key === 'number') k = numberToString(key);
    else if (typeof key === 'boolean') k = String(key);
    else {
      report(env, range, CODES.invalidIndex, 'Invalid index: The given key does not identify an element in this collection value: string required.', 'Index objects with a string key, e.g. ["name"].');
      return FAILED;
    }
    if (Object.prototype.hasOwnProperty.call(v, k)) return v[k]!;
    report(env, range, CODES.invalidIndex, `Invalid index: The given key does not identify an element in this collection value.`, didYouMean(k, Object.keys(v)) ?? `There is no key "${k}".`);
    return FAILED;
  }
  report(env, range, CODES.invalidIndex, 'Invalid index: This value does not have any indices.', `A ${typeName(v)} cannot be indexed.`);
  return FAILED;
}
