// The mappings the MCP server and A2A rest on, each alone: a mission's inputs and outputs as JSON
// Schema, run states as MCP task states and A2A task states, and tool arguments as mission inputs.

import { TaskState } from '@a2a-js/sdk';
import { describe, expect, test } from 'vitest';
import { missionInputSchema, missionResultSchema } from '../../api/missionSchemas.js';
import type { Mission } from '../../config/graph.js';
import { a2aState } from '../../mcpserver/a2aTasks.js';
import { inputsAsText } from '../../mcpserver/host.js';
import type { RunState } from '../../mcpserver/runState.js';
import { taskStatus } from '../../mcpserver/taskStore.js';

const mission = {
  name: 'digest',
  inputs: [
    { name: 'topic', type: 'string', description: 'What about', required: true },
    { name: 'limit', type: 'integer', default: 5, required: false },
    { name: 'tags', type: 'list', default: ['a', 'b'], required: false },
    { name: 'strict', type: 'bool', required: false },
    { name: 'extra', type: 'map', required: true },
  ],
  tasks: [
    { name: 'fetch' },
    { name: 'write', output: [{ name: 'headline', type: 'string', description: 'The title', required: true }] },
  ],
} as unknown as Mission;

describe('mission schemas', () => {
  test('inputs: types, descriptions, defaults; required are those without a default', () => {
    expect(missionInputSchema(mission)).toEqual({
      type: 'object',
      properties: {
        topic: { type: 'string', description: 'What about' },
        limit: { type: 'integer', default: 5 },
        tags: { type: 'array', default: ['a', 'b'] },
        strict: { type: 'boolean' },
        extra: { type: 'object' },
      },
      additionalProperties: false,
      required: ['topic', 'extra'],
    });
  });

  test('the result names the run and its status, and the outputs of the tasks that declare one', () => {
    const schema = missionResultSchema(mission) as { required: string[]; properties: { outputs: { properties: Record<string, unknown> } } };
    expect(schema.required).toEqual(['run_id', 'status']);
    expect(schema.properties.outputs.properties).toEqual({
      write: { type: 'object', properties: { headline: { type: 'string', description: 'The title' } }, additionalProperties: false, required: ['headline'] },
    });
  });
});

describe('run states', () => {
  const state = (status: RunState['status'], pending = 0): RunState => ({ run_id: 'run_x', mission: 'm', status, ...(status === 'waiting' ? { waiting_for: Array.from({ length: pending }, () => ({})) } : {}) });
  test.each([
    ['running', 0, 'working', TaskState.TASK_STATE_WORKING],
    ['waiting', 1, 'input_required', TaskState.TASK_STATE_INPUT_REQUIRED],
    ['waiting', 0, 'working', TaskState.TASK_STATE_WORKING],
    ['completed', 0, 'completed', TaskState.TASK_STATE_COMPLETED],
    ['failed', 0, 'failed', TaskState.TASK_STATE_FAILED],
    ['stopped', 0, 'failed', TaskState.TASK_STATE_FAILED],
    ['interrupted', 0, 'cancelled', TaskState.TASK_STATE_CANCELED],
  ] as const)('a %s run with %i pending requests is an MCP %s task and an A2A %s task', (status, pending, mcp, a2a) => {
    expect(taskStatus(status, pending)).toBe(mcp);
    expect(a2aState(state(status, pending))).toBe(a2a);
  });
});

test('tool arguments become mission inputs as the CLI takes them: strings as they are, the rest as JSON', () => {
  expect(inputsAsText({ topic: 'owls', limit: 3, tags: ['a'], strict: false, gone: undefined })).toEqual({ topic: 'owls', limit: '3', tags: '["a"]', strict: 'false' });
});
