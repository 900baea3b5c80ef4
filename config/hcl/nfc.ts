// String values are NFC-normalised, as cty does for every string it creates: HCL's spec makes two
// strings equal when their NFC forms are, so `"n\u0303" == "\u00f1"` is true. The evaluator applies
// this to every string it produces (literals, templates and heredocs with their directives, keys
// given as strings, function results); identifiers, labels and comments are never values and stay
// as written.

import { setKey } from './convert.js';
import { isObjectValue, type ObjectValue, type Value } from './value.js';

// Below U+0300 every character is NFC-stable and none combines with a neighbour, so text made of
// such characters only (ASCII, Latin-1, most configuration) is returned without calling ICU.
const MAY_CHANGE = /[^\u0000-\u02ff]/;

export function nfc(s: string): string {
  return MAY_CHANGE.test(s) ? s.normalize('NFC') : s;
}

/** A function's result with every string in it (object keys too) normalised; unchanged ones as they are. */
export function nfcValue(v: Value): Value {
  return needsNfc(v) ? normalised(v) : v;
}

function needsNfc(v: Value): boolean {
  if (typeof v === 'string') return MAY_CHANGE.test(v) && v !== v.normalize('NFC');
  if (Array.isArray(v)) return v.some(needsNfc);
  if (!isObjectValue(v)) return false;
  for (const k of Object.keys(v)) if (needsNfc(k) || needsNfc(v[k]!)) return true;
  return false;
}

function normalised(v: Value): Value {
  if (typeof v === 'string') return nfc(v);
  if (Array.isArray(v)) return v.map(normalised);
  if (!isObjectValue(v)) return v;
  const out: ObjectValue = {};
  for (const k of Object.keys(v)) setKey(out, nfc(k), normalised(v[k]!));
  return out;
}
