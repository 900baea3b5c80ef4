// The OpenAI Responses adapter against the fake server's /v1/responses (real `openai` SDK): items in
// and out, reasoning items carried back verbatim (the server refuses a request that drops or alters
// one), usage with cached and reasoning tokens, and each kind of provider fault.

import { afterEach, describe, expect, it } from 'vitest';
import { createResponsesClient } from '../../../runtime/providers/responses.js';
import { ModelCallError, type Message, type ModelResponse, type Part, type RetryNotice } from '../../../runtime/providers/types.js';
import { startFakeModelServer, type FakeModelServer, type FakeReply } from '../../support/fakeModelServer.js';
import { fastRetry, request, userText } from './sampleRequests.js';

let server: FakeModelServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function withReplies(replies: FakeReply[]) {
  const queue = [...replies];
  server = await startFakeModelServer({ respond: () => queue.shift() ?? { status: 400, errorMessage: 'script exhausted' } });
  const client = createResponsesClient({ apiKey: 'sk-openai-test', baseURL: server.openaiBaseURL, retry: fastRetry, supportsReasoning: true });
  return { server, client };
}

/** The conversation after a tool-calling answer: the answer, then a result for each call. */
function followUp(first: ModelResponse): Message[] {
  const calls = first.message.parts.filter((p): p is Extract<Part, { type: 'tool_use' }> => p.type === 'tool_use');
  return [
    userText('What is the weather in Paris and Lyon?'),
    first.message,
    { role: 'user', parts: calls.map((c) => ({ type: 'tool_result' as const, toolUseId: c.id, content: [{ type: 'text' as const, text: `sunny in ${String((c.input as { city: string }).city)}` }], isError: false })) },
  ];
}

describe('responses adapter against the fake server', () => {
  it('sends a stateless request: instructions, input items, flat tools, store false, encrypted reasoning included', async () => {
    const { server, client } = await withReplies([{ text: 'Sunny and 21 degrees.', chunkSize: 4 }]);
    const deltas: string[] = [];
    const response = await client.complete(request({ reasoning: 'high' }), { onTextDelta: (t) => deltas.push(t) });
    expect(deltas.join('')).toBe('Sunny and 21 degrees.');
    expect(response.stopReason).toBe('end_turn');
    const body = server.requests[0]!.body;
    expect(server.requests[0]!.path).toBe('/v1/responses');
    expect(body).toMatchObject({
      model: 'test-model',
      instructions: 'You are a test assistant.',
      input: [{ type: 'message', role: 'user', content: 'What is the weather in Paris?' }],
      stream: true,
      store: false,
      include: ['reasoning.encrypted_content'],
      reasoning: { effort: 'high', summary: 'auto' },
      max_output_tokens: 1000,
      tools: [{ type: 'function', name: 'get_weather', description: 'Current weather for a city', strict: false }],
    });
    expect(body).not.toHaveProperty('previous_response_id');
    // A reasoning model returns a reasoning item (summary empty here), kept verbatim on a thinking part.
    const [thinking, text] = response.message.parts;
    expect(thinking).toMatchObject({ type: 'thinking', text: '', reasoningItem: { type: 'reasoning', summary: [] } });
    expect((thinking as { reasoningItem: Record<string, unknown> }).reasoningItem['encrypted_content']).toMatch(/^enc_/);
    expect(text).toEqual({ type: 'text', text: 'Sunny and 21 degrees.', itemId: expect.stringMatching(/^msg_/) });
  });

  it('carries reasoning items back unchanged and in place with parallel calls; the server accepts the follow-up', async () => {
    const { server, client } = await withReplies([
      {
        thinking: [{ text: 'Two cities: call both at once.' }],
        toolCalls: [
          { name: 'get_weather', input: { city: 'Paris' }, id: 'call_a' },
          { name: 'get_weather', input: { city: 'Lyon' }, id: 'call_b' },
        ],
        chunkSize: 3,
      },
      { text: 'Sunny in both.' },
    ]);
    const first = await client.complete(request({ reasoning: 'low', messages: [userText('What is the weather in Paris and Lyon?')] }));
    expect(first.stopReason).toBe('tool_use');
    expect(first.message.parts.map((p) => p.type)).toEqual(['thinking', 'tool_use', 'tool_use']);
    expect(first.message.parts[0]).toMatchObject({ text: 'Two cities: call both at once.' });
    expect(first.message.parts.slice(1)).toEqual([
      { type: 'tool_use', id: 'call_a', name: 'get_weather', input: { city: 'Paris' }, itemId: expect.stringMatching(/^fc_/) },
      { type: 'tool_use', id: 'call_b', name: 'get_weather', input: { city: 'Lyon' }, itemId: expect.stringMatching(/^fc_/) },
    ]);
    // Through JSON, as the store keeps it.
    const stored = JSON.parse(JSON.stringify(first)) as ModelResponse;
    const second = await client.complete(request({ reasoning: 'low', messages: followUp(stored) }));
    expect(server.errors).toEqual([]);
    expect(second.message.parts.at(-1)).toMatchObject({ type: 'text', text: 'Sunny in both.' });
    const input = server.requests[1]!.body['input'] as Record<string, unknown>[];
    expect(input.map((i) => i['type'])).toEqual(['message', 'reasoning', 'function_call', 'function_call', 'function_call_output', 'function_call_output']);
    expect(input[1]).toEqual((first.message.parts[0] as { reasoningItem: unknown }).reasoningItem);
    // Paired with the reasoning item by its id, as the API requires.
    expect(input[2]).toEqual({ type: 'function_call', id: (first.message.parts[1] as { itemId: string }).itemId, call_id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(input[4]).toEqual({ type: 'function_call_output', call_id: 'call_a', output: 'sunny in Paris' });
  });

  it('is refused (400, not retried) when a reasoning item is dropped or altered, as the real API refuses it', async () => {
    const { server, client } = await withReplies([{ thinking: [{ text: 'think' }], toolCalls: [{ name: 'get_weather', input: { city: 'Paris' }, id: 'call_p' }] }]);
    const first = await client.complete(request({ reasoning: 'low' }));
    const dropped = { ...first, message: { role: 'assistant' as const, parts: first.message.parts.filter((p) => p.type !== 'thinking') } };
    await expect(client.complete(request({ messages: followUp(dropped) }))).rejects.toMatchObject({ status: 400, retryable: false });
    expect(server.errors.at(-1)).toContain("without its required 'reasoning' item");
    const item = (first.message.parts[0] as { reasoningItem: Record<string, unknown> }).reasoningItem;
    const altered = { ...first, message: { role: 'assistant' as const, parts: [{ type: 'thinking' as const, text: '', reasoningItem: { ...item, encrypted_content: 'enc_forged' } }, ...first.message.parts.slice(1)] } };
    await expect(client.complete(request({ messages: followUp(altered) }))).rejects.toBeInstanceOf(ModelCallError);
    expect(server.errors.at(-1)).toContain('could not be verified');
    // Without the id of the item that followed it, the reasoning item cannot be paired.
    const unpaired = { ...first, message: { role: 'assistant' as const, parts: first.message.parts.map((p) => (p.type === 'tool_use' ? { ...p, itemId: undefined } : p)) } };
    await expect(client.complete(request({ messages: followUp(unpaired) }))).rejects.toMatchObject({ status: 400 });
    expect(server.errors.at(-1)).toContain("of type 'reasoning' was provided without its required following item");
  });

  it('reports usage with cached tokens split out and reasoning tokens, and incomplete as max_tokens', async () => {
    const { client } = await withReplies([
      { thinking: [{ text: 'x'.repeat(40) }], text: 'ok', usage: { inputTokens: 150, outputTokens: 30, cacheReadTokens: 1024 } },
      { text: 'This answer was cut', stopReason: 'max_tokens' },
    ]);
    const response = await client.complete(request({ reasoning: 'medium' }));
    expect(response.usage).toEqual({ inputTokens: 150, outputTokens: 30, cacheReadTokens: 1024, cacheWriteTokens: 0, reasoningTokens: 10 });
    expect((await client.complete(request())).stopReason).toBe('max_tokens');
  });

  it('retries 429, 5xx, a dropped stream and an error event, then succeeds', async () => {
    const { server, client } = await withReplies([
      { status: 429, retryAfterMs: 5 },
      { status: 500 },
      { text: 'partial text that never completes', drop: true, chunkSize: 4 },
      { text: 'more partial text', streamError: { type: 'server_error' }, chunkSize: 4 },
      { text: 'finally' },
    ]);
    const notices: RetryNotice[] = [];
    const response = await client.complete(request(), { onRetry: (n) => notices.push(n) });
    expect(response.message.parts).toMatchObject([{ type: 'text', text: 'finally' }]);
    expect(notices.map((n) => n.status ?? n.reason.split(' ')[0])).toEqual([429, 500, expect.any(String), expect.any(String)]);
    expect(server.requests).toHaveLength(5);
  });

  it('sends a tool error with its prefix and a tool image inside function_call_output', async () => {
    const { server, client } = await withReplies([{ text: 'seen' }]);
    const messages: Message[] = [
      userText('Look.'),
      { role: 'assistant', parts: [{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } }, { type: 'tool_use', id: 'call_2', name: 'get_weather', input: { city: 'Rome' } }] },
      {
        role: 'user',
        parts: [
          { type: 'tool_result', toolUseId: 'call_1', content: [{ type: 'text', text: 'no such city' }], isError: true },
          { type: 'tool_result', toolUseId: 'call_2', content: [{ type: 'text', text: 'radar:' }, { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' }], isError: false },
          { type: 'text', text: 'And now?' },
        ],
      },
    ];
    await client.complete(request({ messages }));
    const input = server.requests[0]!.body['input'] as Record<string, unknown>[];
    expect(input.slice(3)).toEqual([
      { type: 'function_call_output', call_id: 'call_1', output: 'Error: no such city' },
      {
        type: 'function_call_output',
        call_id: 'call_2',
        output: [
          { type: 'input_text', text: 'radar:' },
          { type: 'input_image', detail: 'auto', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
        ],
      },
      { type: 'message', role: 'user', content: 'And now?' },
    ]);
    expect(server.requests[0]!.canonical.messages.at(-1)!.parts.map((p) => p.type)).toEqual(['tool_result', 'tool_result', 'text']);
  });
});
