// JSON encoding and decoding for `jsonencode`/`jsondecode` and `%v`: objects encode with sorted
// keys (as cty does), numbers without exponents where JSON allows, Unknown cannot be encoded.

import { numberToString, setKey, sortedKeys } from './convert.js';
import { FunctionError, isUnknown, type ObjectValue, type Value } from './value.js';

export function toJsonText(v: Value): string {
  if (v === null) return 'null';
  if (isUnknown(v)) throw new FunctionError('value is not known yet, so it cannot be encoded as JSON.', 0);
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new FunctionError('cannot encode an infinite number as JSON.', 0);
    return numberToString(v);
  }
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return '[' + v.map(toJsonText).join(',') + ']';
  const o = v as ObjectValue;
  return '{' + sortedKeys(o).map((k) => JSON.stringify(k) + ':' + toJsonText(o[k]!)).join(',') + '}';
}

export function fromJsonText(text: string): Value {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new FunctionError(`invalid JSON: ${err instanceof Error ? err.message : String(err)}`, 0);
  }
  return toValue(parsed);
}

function toValue(x: unknown): Value {
  if (x === null || typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean') return x;
  if (Array.isArray(x)) return x.map(toValue);
  const out: ObjectValue = {};
  for (const [k, v] of Object.entries(x as Record<string, unknown>)) setKey(out, k, toValue(v));
  return out;
}
