// Durations written as strings in HCL ("500ms", "90s", "2m", "1h"): one unit per value, so a reader
// never has to guess whether a bare number means seconds or milliseconds.

import type { Attribute } from './hcl/ast.js';
import { diagnosticAt, type Diagnostic } from './hcl/diagnostic.js';
import type { Scope } from './scope.js';
import { readString } from './values.js';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;

/** Milliseconds of a duration string, or undefined (with SCH010 for a malformed one, SCH013 for zero). */
export function readDuration(attr: Attribute | undefined, scope: Scope, diags: Diagnostic[]): number | undefined {
  if (attr === undefined) return undefined;
  const text = readString(attr, scope, diags);
  if (text === undefined) return undefined;
  const match = DURATION.exec(text.trim());
  if (!match) {
    diags.push(diagnosticAt(attr.expr.range, 'error', 'SCH010', `${attr.name} must be a duration like "500ms", "90s", "2m" or "1h", got ${JSON.stringify(text)}`));
    return undefined;
  }
  const ms = Math.round(Number(match[1]) * UNIT_MS[match[2]!]!);
  if (ms <= 0) {
    diags.push(diagnosticAt(attr.expr.range, 'error', 'SCH013', `${attr.name} must be longer than 0, got ${JSON.stringify(text)}`));
    return undefined;
  }
  return ms;
}
