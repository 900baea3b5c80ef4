// Checks a value against declared fields (a task's output, a dataset's items): required fields
// present and non-null, types right (nested objects and arrays too), no undeclared fields. Returns
// every problem with its path, so all of them can be fixed at once.

import type { FieldSchema } from './graph.js';

/** Every problem of `value` against `fields`; paths start at `path`, extra keys are "not a declared <noun>". */
export function checkFieldValues(fields: readonly FieldSchema[], value: unknown, path: string, noun: string): string[] {
  const problems: string[] = [];
  checkObject(fields, value, path, noun, problems);
  return problems;
}

function checkObject(fields: readonly FieldSchema[], value: unknown, path: string, noun: string, problems: string[]): void {
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
    checkField(field, v, `${path}.${field.name}`, noun, problems);
  }
  const declared = new Set(fields.map((f) => f.name));
  for (const key of Object.keys(record)) {
    if (!declared.has(key)) problems.push(`${path}.${key}: not a declared ${noun} (declared: ${[...declared].join(', ') || 'none'})`);
  }
}

function checkField(field: FieldSchema, value: unknown, path: string, noun: string, problems: string[]): void {
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
      if (field.items) value.forEach((item, i) => checkField(field.items!, item, `${path}[${i}]`, noun, problems));
      return;
    case 'object':
      if (field.properties) checkObject(field.properties, value, path, noun, problems);
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
