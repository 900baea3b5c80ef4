// Value conversions and comparisons with cty's rules where they matter to users: numbers and
// bools become strings in templates, "12" converts to a number for arithmetic, "true" to a bool
// for conditions, and `==` is deep equality without any conversion (1 == "1" is false).

import { isObjectValue, isUnknown, type ObjectValue, type Value } from './value.js';

/** The HCL type name of a value, for messages ("string", "number", "tuple", "object", …). */
export function typeName(v: Value): string {
  if (v === null) return 'null';
  if (isUnknown(v)) return 'unknown';
  if (Array.isArray(v)) return 'tuple';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

/** Decimal text with no exponent, as cty prints numbers (1e21 → "1000000000000000000000"). */
export function numberToString(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Object.is(n, -0)) return '0';
  const s = String(n);
  if (!s.includes('e')) return s;
  if (Number.isInteger(n)) return BigInt(n).toString();
  // Small magnitudes: expand the exponent by hand.
  const neg = n < 0;
  const [mant, expText] = Math.abs(n).toString().split('e') as [string, string];
  const exp = Number(expText);
  const digits = mant.replace('.', '');
  const intLen = (mant.indexOf('.') < 0 ? mant.length : mant.indexOf('.')) + exp;
  let out: string;
  if (intLen <= 0) out = '0.' + '0'.repeat(-intLen) + digits;
  else if (intLen >= digits.length) out = digits + '0'.repeat(intLen - digits.length);
  else out = digits.slice(0, intLen) + '.' + digits.slice(intLen);
  return (neg ? '-' : '') + out;
}

const NUMERIC = /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/;

export type Converted<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Primitive → string as cty does; collections and null are not convertible. */
export function toStringValue(v: Value): Converted<string> {
  if (typeof v === 'string') return { ok: true, value: v };
  if (typeof v === 'number') return { ok: true, value: numberToString(v) };
  if (typeof v === 'boolean') return { ok: true, value: v ? 'true' : 'false' };
  if (v === null) return { ok: false, reason: 'a null value cannot be converted to a string' };
  return { ok: false, reason: `string required, but have ${typeName(v)}` };
}

export function toNumberValue(v: Value): Converted<number> {
  if (typeof v === 'number') return { ok: true, value: v };
  if (typeof v === 'string') {
    const t = v;
    if (NUMERIC.test(t)) return { ok: true, value: Number(t) };
    return { ok: false, reason: `a number is required, but "${v}" is not a number` };
  }
  if (v === null) return { ok: false, reason: 'argument must not be null' };
  return { ok: false, reason: `a number is required, but have ${typeName(v)}` };
}

export function toBoolValue(v: Value): Converted<boolean> {
  if (typeof v === 'boolean') return { ok: true, value: v };
  if (v === 'true') return { ok: true, value: true };
  if (v === 'false') return { ok: true, value: false };
  if (v === null) return { ok: false, reason: 'argument must not be null' };
  return { ok: false, reason: `a bool is required, but have ${typeName(v)}` };
}

/** True when the value is Unknown or contains an Unknown anywhere inside. */
export function containsUnknown(v: Value): boolean {
  if (isUnknown(v)) return true;
  if (Array.isArray(v)) return v.some(containsUnknown);
  if (isObjectValue(v)) {
    for (const k in v) if (containsUnknown(v[k]!)) return true;
  }
  return false;
}

/** Deep equality, no conversions. Unknown operands make the answer unknown (undefined). */
export function valuesEqual(a: Value, b: Value): boolean | undefined {
  if (isUnknown(a) || isUnknown(b)) return undefined;
  if (a === null || b === null) return a === b;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    let unknownSeen = false;
    for (let i = 0; i < a.length; i++) {
      const r = valuesEqual(a[i]!, b[i]!);
      if (r === false) return false;
      if (r === undefined) unknownSeen = true;
    }
    return unknownSeen ? undefined : true;
  }
  if (isObjectValue(a)) {
    if (!isObjectValue(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    let unknownSeen = false;
    for (const k of ka) {
      if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
      const r = valuesEqual(a[k]!, b[k]!);
      if (r === false) return false;
      if (r === undefined) unknownSeen = true;
    }
    return unknownSeen ? undefined : true;
  }
  return a === b;
}

/** Object keys in cty's iteration order (lexicographic). */
export function sortedKeys(o: ObjectValue): string[] {
  return Object.keys(o).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
}

/**
 * Sets an own property, even for the key "__proto__" (which plain assignment would turn into a
 * prototype change): configuration may use any string as an object key.
 */
export function setKey<V>(obj: Record<string, V>, key: string, value: V): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/** Reads an own property only (never one inherited from Object.prototype). */
export function getOwn<V>(obj: Record<string, V>, key: string): V | undefined {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}
