// Checks a commander's `submit_output` payload against the task's declared output fields: required
// fields present and non-null, types right (nested objects and arrays too), no undeclared fields.
// Returns every problem with its path so the model can fix them all in one retry.

import type { FieldSchema } from '../../config/graph.js';

export function validateOutput(fields: readonly FieldSchema[], value: unknown): string[] {
  const problems: string[] = [];
  checkObject(fields, value, 'output', problems);
  return problems;
}

function checkObject(fields: readonly FieldSchema[], value: unknown, path: string, problems: string[]): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`${path}: expected an object, got ${describe(value)}`);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const field of fields) {
    const v = record[field.name];
    if (v === undefined || v === null) {
      if (field.required) problems.push(`${path}.${field.name}: required field is missing`);
      continue;
    }
    checkField(field, v, `${path}.${field.name}`, problems);
  }
  const declared = new Set(fields.map((f) => f.name));
  for (const key of Object.keys(record)) {
    if (!declared.has(key)) problems.push(`${path}.${key}: not a declared output field (declared: ${[...declared].join(', ') || 'none'})`);
  }
}

function checkField(field: FieldSchema, value: unknown, path: string, problems: string[]): void {
  switch (field.type) {
    case 'string':
      if (typeof value !== 'string') problems.push(`${path}: expected a string, got ${describe(value)}`);
      return;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) problems.push(`${path}: expected a number, got ${describe(value)}`);
      return;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) problems.push(`${path}: expected an integer, got ${describe(value)}`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') problems.push(`${path}: expected true or false, got ${describe(value)}`);
      return;
    case 'array':
      if (!Array.isArray(value)) {
        problems.push(`${path}: expected an array, got ${describe(value)}`);
        return;
      }
      if (field.items) value.forEach((item, i) => checkField(field.items!, item, `${path}[${i}]`, problems));
      return;
    case 'object':
      if (field.properties) checkObject(field.properties, value, path, problems);
      else if (typeof value !== 'object' || value === null || Array.isArray(value)) problems.push(`${path}: expected an object, got ${describe(value)}`);
      return;
    case 'map':
      if (typeof value !== 'object' || value === null || Array.isArray(value)) problems.push(`${path}: expected an object (map), got ${describe(value)}`);
      return;
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)?.slice(0, 40)}`;
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
