// Parses the JSON arguments a model produced for a tool call. Arguments that are not a JSON object
// (broken JSON, or output truncated mid-call) never throw: the call keeps `input: {}` and the raw
// text in `malformedInput`, so the session can tell the model what went wrong.

export function parseToolInput(raw: string): { input: unknown; malformedInput?: string } {
  if (raw.trim() === '') return { input: {} };
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { input: value };
  } catch {
    // Falls through: the raw text is kept below.
  }
  return { input: {}, malformedInput: raw };
}
