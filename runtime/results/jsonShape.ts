// The shape of a JSON value in a bounded number of bytes: arrays cut to their first items with their
// length, long strings shortened, deep or wide objects summarized. Deterministic: the same value and
// budget always give the same bytes (levels are tried from the most detailed down, in a fixed order).

import { groupDigits } from '../../core/digits.js';

interface Level {
  items: number;
  chars: number;
  keys: number;
  depth: number;
}

const LEVELS: readonly Level[] = [
  { items: 3, chars: 80, keys: 16, depth: 5 },
  { items: 2, chars: 48, keys: 10, depth: 4 },
  { items: 1, chars: 32, keys: 8, depth: 3 },
  { items: 1, chars: 16, keys: 6, depth: 2 },
  { items: 0, chars: 8, keys: 4, depth: 1 },
  { items: 0, chars: 0, keys: 0, depth: 0 },
];

/** Compact JSON text of the value's shape, at most `budget` bytes. */
export function jsonShape(value: unknown, budget: number): string {
  for (const level of LEVELS) {
    const text = JSON.stringify(shapeOf(value, level, 0));
    if (Buffer.byteLength(text, 'utf8') <= budget) return text;
  }
  return JSON.stringify(describe(value));
}

function shapeOf(value: unknown, level: Level, depth: number): unknown {
  if (typeof value === 'string') {
    return value.length <= level.chars ? value : `${value.slice(0, level.chars)}… (${groupDigits(value.length)} chars)`;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= level.depth) return describe(value);
  if (Array.isArray(value)) {
    const shown = value.slice(0, level.items).map((v) => shapeOf(v, level, depth + 1));
    if (value.length > shown.length) shown.push(`… ${groupDigits(value.length - shown.length)} more (${groupDigits(value.length)} items)`);
    return shown;
  }
  const entries = Object.entries(value);
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries.slice(0, level.keys)) out[k] = shapeOf(v, level, depth + 1);
  if (entries.length > level.keys) out['…'] = `${groupDigits(entries.length - level.keys)} more keys: ${entries.slice(level.keys, level.keys + 8).map(([k]) => k).join(', ')}${entries.length > level.keys + 8 ? ', …' : ''}`;
  return out;
}

/** One line naming what a value is: `array of 1,200 items`, `object with 3 keys: a, b, c`. */
export function describe(value: unknown): string {
  if (Array.isArray(value)) return `array of ${groupDigits(value.length)} items`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    const names = keys.slice(0, 8).join(', ');
    return `object with ${groupDigits(keys.length)} keys${keys.length > 0 ? `: ${names}${keys.length > 8 ? ', …' : ''}` : ''}`;
  }
  if (typeof value === 'string') return `string of ${groupDigits(value.length)} chars`;
  return value === null ? 'null' : typeof value;
}

/** The path of the largest array within two levels (what the model most likely wants to page), or `$`. */
export function largestArrayPath(value: unknown): string {
  let best = { path: '$', length: Array.isArray(value) ? value.length : -1 };
  const visit = (v: unknown, path: string, depth: number): void => {
    if (depth > 2 || v === null || typeof v !== 'object') return;
    for (const [k, child] of Array.isArray(v) ? [] : Object.entries(v)) {
      const p = `${path}${pathKey(k)}`;
      if (Array.isArray(child) && child.length > best.length) best = { path: p, length: child.length };
      visit(child, p, depth + 1);
    }
  };
  visit(value, '$', 0);
  return best.path;
}

/** `.name` for a plain key, `["odd key"]` otherwise. */
export function pathKey(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}
