// Parses the JSON arguments a model produced for a tool call. Arguments that are not a JSON object
// (broken JSON, or output truncated mid-call) never throw: the call keeps `input: {}` and the raw
// text in `malformedInput`, so the session can tell the model what went wrong. Arguments nested
// deeper than MAX_JSON_DEPTH are malformed too (core/jsonDepth.ts).

import { jsonTextTooDeep, jsonTooDeep, tooDeepMessage } from '../../core/jsonDepth.js';

export function parseToolInput(raw: string): { input: unknown; malformedInput?: string } {
  if (raw.trim() === '') return { input: {} };
  // Checked on the text, before parsing: the value would overflow every walker after this one.
  if (jsonTextTooDeep(raw)) return { input: {}, malformedInput: raw };
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { input: value };
  } catch {
    // Falls through: the raw text is kept below.
  }
  return { input: {}, malformedInput: raw };
}

/** Arguments a provider's SDK already parsed: too deep, they are kept as malformed (not walked). */
export function boundToolInput(input: unknown): { input: unknown; malformedInput?: string } {
  return jsonTooDeep(input) ? { input: {}, malformedInput: TOO_DEEP_MARK } : { input };
}

const TOO_DEEP_MARK = '[arguments nested too deep to keep]';

/** Why these arguments were not executed, for the model. */
export function malformedReason(raw: string): string {
  if (raw === TOO_DEEP_MARK || jsonTextTooDeep(raw)) return `${tooDeepMessage('Its arguments')}, so it was not executed. Send the call again with flatter arguments.`;
  return 'The arguments are not valid JSON, so it was not executed. Send the call again with a JSON object as arguments.';
}
