// Canonical requests shared by the provider tests.

import type { Message, ModelRequest, ToolDefinition } from '../../../runtime/providers/types.js';

export const weatherTool: ToolDefinition = {
  name: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

export function userText(text: string): Message {
  return { role: 'user', parts: [{ type: 'text', text }] };
}

export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'test-model',
    system: 'You are a test assistant.',
    messages: [userText('What is the weather in Paris?')],
    tools: [weatherTool],
    maxOutputTokens: 1000,
    trace: { task: 'gather', agent: 'worker', turn: 1 },
    ...overrides,
  };
}

/** Retries in milliseconds, not seconds. */
export const fastRetry = { baseDelayMs: 5, maxDelayMs: 20 };
