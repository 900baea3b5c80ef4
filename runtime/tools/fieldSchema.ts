// Turns declared fields (a custom tool's `inputs`, a task's `output`) into JSON Schema, the form
// tool definitions and input validation use. Fields keep their declaration order.

import type { FieldSchema } from '../../config/graph.js';
import type { JsonSchema } from '../providers/types.js';

/** An object schema with one property per field; `additionalProperties: false` so typos are caught. */
export function fieldsToJsonSchema(fields: readonly FieldSchema[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const f of fields) properties[f.name] = fieldToJsonSchema(f);
  const required = fields.filter((f) => f.required).map((f) => f.name);
  const schema: JsonSchema = { type: 'object', properties, additionalProperties: false };
  if (required.length > 0) schema['required'] = required;
  return schema;
}

export function fieldToJsonSchema(field: FieldSchema): JsonSchema {
  let schema: JsonSchema;
  switch (field.type) {
    case 'array':
      schema = { type: 'array' };
      if (field.items) schema['items'] = fieldToJsonSchema(field.items);
      break;
    case 'object':
      schema = field.properties ? fieldsToJsonSchema(field.properties) : { type: 'object' };
      break;
    case 'map':
      // A map is an object with free keys; its values follow `items` when declared.
      schema = { type: 'object', additionalProperties: field.items ? fieldToJsonSchema(field.items) : true };
      break;
    default:
      schema = { type: field.type };
  }
  if (field.description !== '') schema['description'] = field.description;
  return schema;
}
