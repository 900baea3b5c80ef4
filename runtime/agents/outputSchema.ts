// The JSON Schema of a task's declared output (the `output` block): field names, types, required
// fields and descriptions, objects closed. It is what `submit_output` sends the model, so a provider's
// strict tool calling can enforce the fields; outputValidation.ts checks the same rules at run time.

import type { FieldSchema } from '../../config/graph.js';
import type { JsonSchema } from '../providers/types.js';

export function outputJsonSchema(fields: readonly FieldSchema[]): JsonSchema {
  const schema: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(fields.map((f) => [f.name, fieldJsonSchema(f)])),
    additionalProperties: false,
  };
  const required = fields.filter((f) => f.required).map((f) => f.name);
  if (required.length > 0) schema['required'] = required;
  return schema;
}

function fieldJsonSchema(field: FieldSchema): JsonSchema {
  const schema = typeSchema(field);
  return field.description ? { ...schema, description: field.description } : schema;
}

function typeSchema(field: FieldSchema): JsonSchema {
  switch (field.type) {
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
      return { type: field.type };
    case 'array':
      return field.items ? { type: 'array', items: fieldJsonSchema(field.items) } : { type: 'array' };
    case 'object':
      return field.properties ? outputJsonSchema(field.properties) : { type: 'object' };
    case 'map':
      return { type: 'object', additionalProperties: {} };
  }
}
