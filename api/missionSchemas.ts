// A mission as a typed tool for other agents (the MCP server, A2A): the JSON Schema of its inputs
// (types, descriptions, required, defaults) and of its tasks' declared outputs.

import type { Mission, MissionInput } from '../config/graph.js';
import { outputJsonSchema } from '../runtime/agents/outputSchema.js';

export type JsonSchemaObject = Record<string, unknown>;

const INPUT_TYPES: Readonly<Record<MissionInput['type'], JsonSchemaObject>> = {
  string: { type: 'string' },
  number: { type: 'number' },
  integer: { type: 'integer' },
  bool: { type: 'boolean' },
  list: { type: 'array' },
  map: { type: 'object' },
  object: { type: 'object' },
};

/** The object schema of the mission's `input` blocks; closed, so a misspelt input is refused. */
export function missionInputSchema(mission: Mission): JsonSchemaObject {
  const properties: Record<string, JsonSchemaObject> = {};
  for (const input of mission.inputs) {
    const schema: JsonSchemaObject = { ...INPUT_TYPES[input.type] };
    if (input.description !== undefined && input.description !== '') schema['description'] = input.description;
    if (input.default !== undefined) schema['default'] = jsonOf(input.default);
    properties[input.name] = schema;
  }
  const required = mission.inputs.filter((i) => i.required && i.default === undefined).map((i) => i.name);
  return { type: 'object', properties, additionalProperties: false, ...(required.length > 0 ? { required } : {}) };
}

/**
 * What a call of the mission answers: its run's id and status always, and once it completed the
 * outputs of the tasks that declare one, by task name.
 */
export function missionResultSchema(mission: Mission): JsonSchemaObject {
  const outputs: Record<string, unknown> = {};
  for (const task of mission.tasks) if (task.output !== undefined) outputs[task.name] = outputJsonSchema(task.output);
  return {
    type: 'object',
    properties: {
      run_id: { type: 'string', description: 'The run: come back to it with get_run_details or the resource squadron://runs/<id>' },
      status: { type: 'string', enum: ['running', 'waiting', 'completed', 'failed', 'interrupted', 'stopped'] },
      outputs: { type: 'object', properties: outputs, description: "The declared outputs of the run's tasks, by task (once completed)" },
      waiting_for: { type: 'array', items: { type: 'object' }, description: 'What the run waits for a person to decide' },
      error: { type: 'string' },
    },
    required: ['run_id', 'status'],
  };
}

function jsonOf(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(jsonOf);
  if (!Object.getPrototypeOf(value) || Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, jsonOf(v)]));
  }
  return null; // an unknown value: no default to show
}
