// Encoding of TEXT and JSON columns that may carry user or model content: every string passes the
// redactor on write and is restored on read. JSON values are redacted string by string (keys too)
// before serialising, so a secret is caught whatever the nesting or escaping depth of the document.

import type { Redactor } from './redact.js';

export interface ColumnCodec {
  text(value: string): string;
  textOrNull(value: string | undefined): string | null;
  readText(stored: string): string;
  readTextOrUndefined(stored: string | null): string | undefined;
  json(value: unknown): string;
  jsonOrNull(value: unknown): string | null;
  readJson(stored: string): unknown;
}

export function createColumnCodec(redactor: Redactor | undefined): ColumnCodec {
  if (redactor === undefined) {
    return {
      text: (v) => v,
      textOrNull: (v) => v ?? null,
      readText: (s) => s,
      readTextOrUndefined: (s) => s ?? undefined,
      json: stringify,
      jsonOrNull: (v) => (v === undefined ? null : stringify(v)),
      readJson: (s) => JSON.parse(s) as unknown,
    };
  }
  const redact = (s: string): string => redactor.redact(s);
  const restore = (s: string): string => redactor.restore(s);
  return {
    text: redact,
    textOrNull: (v) => (v === undefined ? null : redact(v)),
    readText: restore,
    readTextOrUndefined: (s) => (s === null ? undefined : restore(s)),
    json: (v) => stringify(redactor.redactValue(v)),
    jsonOrNull: (v) => (v === undefined ? null : stringify(redactor.redactValue(v))),
    readJson: (s) => redactor.restoreJson(s),
  };
}

/** `undefined` has no JSON form; it is stored as `null` rather than crashing a write. */
function stringify(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}
