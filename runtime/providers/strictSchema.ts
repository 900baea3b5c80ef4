// The wire form of a tool schema that a provider enforces while sampling ("strict" tool calling).
// Both OpenAI and Anthropic accept a subset of JSON Schema with every object closed; OpenAI also
// wants every property listed in `required`, so an optional property is sent as required and
// nullable. Constraints outside the subset (lengths, bounds, patterns) are left out of the wire form:
// the runtime checks every input against the full schema anyway. A schema that cannot be made strict
// (an open object, a keyword with no strict equivalent) yields undefined and is sent as it is.

import type { JsonSchema } from './types.js';

export type StrictDialect = 'openai' | 'anthropic';

/** Kept as they are. */
const STRUCTURAL = new Set(['type', 'description', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf']);
/** Dropped from the wire form; the runtime's own check enforces them. */
const CHECKED_BY_RUNTIME = new Set([
  '$schema',
  'title',
  'default',
  'examples',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
]);

// Tool definitions are built once and sent with every request of every session (a fan-out's items
// share them): each schema is converted once per dialect. Schemas are never changed once built.
const converted: Record<StrictDialect, WeakMap<JsonSchema, JsonSchema | null>> = { openai: new WeakMap(), anthropic: new WeakMap() };

/** The strict wire form of a tool's input schema, or undefined when it does not qualify. */
export function strictToolSchema(schema: JsonSchema, dialect: StrictDialect): JsonSchema | undefined {
  const known = converted[dialect].get(schema);
  if (known !== undefined) return known ?? undefined;
  const out = convert({ type: 'object', ...schema }, dialect);
  const strict = out !== undefined && out['type'] === 'object' ? out : undefined;
  converted[dialect].set(schema, strict ?? null);
  return strict;
}

function convert(schema: unknown, dialect: StrictDialect): JsonSchema | undefined {
  if (!isRecord(schema)) return undefined;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (CHECKED_BY_RUNTIME.has(key)) continue;
    if (!STRUCTURAL.has(key)) return undefined;
    out[key] = value;
  }
  if (out['type'] === undefined && out['anyOf'] === undefined && out['enum'] === undefined && out['const'] === undefined) return undefined;
  if (Array.isArray(out['anyOf'])) {
    const branches = out['anyOf'].map((b) => convert(b, dialect));
    if (branches.some((b) => b === undefined)) return undefined;
    out['anyOf'] = branches;
  }
  if (out['items'] !== undefined) {
    const items = convert(out['items'], dialect);
    if (!items) return undefined;
    out['items'] = items;
  }
  const isObject = out['type'] === 'object' || (Array.isArray(out['type']) && out['type'].includes('object'));
  if (isObject) return convertObject(out, dialect);
  if (out['properties'] !== undefined || out['additionalProperties'] !== undefined) return undefined;
  return out;
}

function convertObject(schema: JsonSchema, dialect: StrictDialect): JsonSchema | undefined {
  const properties = schema['properties'] ?? {};
  if (!isRecord(properties) || schema['additionalProperties'] !== false) return undefined;
  const required = Array.isArray(schema['required']) ? (schema['required'] as unknown[]).filter((r): r is string => typeof r === 'string') : [];
  const converted: JsonSchema = {};
  for (const [name, property] of Object.entries(properties)) {
    let wire = convert(property, dialect);
    if (!wire) return undefined;
    if (dialect === 'openai' && !required.includes(name)) {
      wire = nullable(wire);
      if (!wire) return undefined;
    }
    converted[name] = wire;
  }
  const out: JsonSchema = { ...schema, properties: converted, additionalProperties: false };
  const names = Object.keys(converted);
  if (dialect === 'openai') out['required'] = names;
  else if (required.length > 0) out['required'] = required.filter((r) => names.includes(r));
  else delete out['required'];
  return out;
}

/** The same schema that also accepts null (how OpenAI's strict mode spells "optional"). */
function nullable(schema: JsonSchema): JsonSchema | undefined {
  const out: JsonSchema = { ...schema };
  if (Array.isArray(out['anyOf'])) {
    out['anyOf'] = [...out['anyOf'], { type: 'null' }];
    return out;
  }
  const type = out['type'];
  if (typeof type === 'string') out['type'] = type === 'null' ? type : [type, 'null'];
  else if (Array.isArray(type)) out['type'] = type.includes('null') ? type : [...type, 'null'];
  else return { anyOf: [out, { type: 'null' }] };
  if (Array.isArray(out['enum']) && !out['enum'].includes(null)) out['enum'] = [...out['enum'], null];
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
