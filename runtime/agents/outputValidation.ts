// Checks a commander's `submit_output` payload against the task's declared output fields: required
// fields present and non-null, types right (nested objects and arrays too), no undeclared fields.
// Returns every problem with its path so the model can fix them all in one retry.

import { checkFieldValues } from '../../config/fieldValidation.js';
import type { FieldSchema } from '../../config/graph.js';

export function validateOutput(fields: readonly FieldSchema[], value: unknown): string[] {
  return checkFieldValues(fields, value, 'output', 'output field');
}

/**
 * The output as stored and shown downstream: an optional field given as null (how strict tool
 * calling spells "not given") is left out, so the output looks the same whichever provider wrote it.
 */
export function normalizeOutput(fields: readonly FieldSchema[], value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const field = fields.find((f) => f.name === key);
    if (field && v === null && !field.required) continue;
    out[key] = field ? normalizeField(field, v) : v;
  }
  return out;
}

function normalizeField(field: FieldSchema, value: unknown): unknown {
  if (field.type === 'object' && field.properties) return normalizeOutput(field.properties, value);
  if (field.type === 'array' && field.items && Array.isArray(value)) return value.map((item) => normalizeField(field.items!, item));
  return value;
}
