import { afterEach, describe, expect, it } from 'vitest';
import { createGeminiClient, type GeminiClientOptions } from '../../../runtime/providers/gemini.js';
import { ModelCallError, type Message, type RetryNotice } from '../../../runtime/providers/types.js';
import { startFakeModelServer, type FakeModelServer, type FakeReply } from '../../support/fakeModelServer.js';
import { fakeThoughtSignature } from '../../support/fakeGeminiWire.js';
import { fastRetry, request, userText, weatherTool } from './sampleRequests.js';

let server: FakeModelServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function withReplies(replies: FakeReply[], options: Partial<GeminiClientOptions> = {}) {
  const queue = [...replies];
  server = await startFakeModelServer({ respond: () => queue.shift() ?? { status: 400, errorMessage: 'script exhausted' } });
  const client = createGeminiClient({ apiKey: 'gemini-test-key', baseURL: server.url, retry: fastRetry, ...options });
  return { server, client };
}

const model = 'gemini-3.8-flash';

describe.each([true, false])('gemini adapter against the fake server (stream: %s)', (stream) => {
  it('sends the system instruction, the declarations and the key, and reads text, usage and the stop reason', async () => {
    const { server, client } = await withReplies([{ text: 'Sunny and 21 degrees.', chunkSize: 4, usage: { inputTokens: 40, outputTokens: 7, cacheReadTokens: 10 } }], { stream });
    const deltas: string[] = [];
    const response = await client.complete(request({ model }), { onTextDelta: (t) => deltas.push(t) });
    const sent = server.requests[0]!;
    expect(sent.path).toBe(`/v1beta/models/${model}:${stream ? 'streamGenerateContent' : 'generateContent'}`);
    expect(sent.stream).toBe(stream);
    expect(sent.headers['x-goog-api-key']).toBe('gemini-test-key');
    expect(sent.body['systemInstruction']).toEqual({ parts: [{ text: 'You are a test assistant.' }] });
    expect(sent.body['tools']).toEqual([
      { functionDeclarations: [{ name: 'get_weather', description: weatherTool.description, parametersJsonSchema: weatherTool.inputSchema }] },
    ]);
    expect(sent.canonical.messages).toEqual([userText('What is the weather in Paris?')]);
    // The text-only answer's signature (last, on an empty part when streamed) stays on the text.
    expect(response.message.parts).toEqual([{ type: 'text', text: 'Sunny and 21 degrees.', thoughtSignature: Buffer.from(`fake-text-signature-1`).toString('base64') }]);
    expect(response.stopReason).toBe('end_turn');
    expect(response.usage).toEqual({ inputTokens: 40, outputTokens: 7, cacheReadTokens: 10, cacheWriteTokens: 0 });
    expect(response.model).toBe(model);
    expect(deltas.join('')).toBe('Sunny and 21 degrees.');
  });

  it('reads parallel function calls with object args, the signature on the first only, and sends it all back', async () => {
    const { server, client } = await withReplies(
      [
        { toolCalls: [{ name: 'get_weather', input: { city: 'Paris' } }, { name: 'get_weather', input: { city: 'Lyon' } }] },
        { text: 'Both sunny.' },
      ],
      { stream },
    );
    const first = await client.complete(request({ model }));
    expect(first.stopReason).toBe('tool_use');
    const [a, b] = first.message.parts;
    expect(a).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Paris' }, thoughtSignature: fakeThoughtSignature(1, 'get_weather', '{"city":"Paris"}') });
    expect(b).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Lyon' } });
    expect(b).not.toHaveProperty('thoughtSignature');
    const ids = first.message.parts.map((p) => (p.type === 'tool_use' ? p.id : ''));
    expect(new Set(ids).size).toBe(2);

    const results: Message = {
      role: 'user',
      parts: [
        { type: 'tool_result', toolUseId: ids[0]!, content: [{ type: 'text', text: 'Paris: sunny' }], isError: false },
        { type: 'tool_result', toolUseId: ids[1]!, content: [{ type: 'text', text: 'Lyon: no data' }], isError: true },
      ],
    };
    const second = await client.complete(request({ model, messages: [userText('Weather?'), first.message, results] }));
    expect(second.message.parts[0]).toMatchObject({ type: 'text', text: 'Both sunny.' });
    expect(server.errors).toEqual([]);
    const contents = server.requests[1]!.body['contents'] as { role: string; parts: Record<string, unknown>[] }[];
    expect(contents[1]).toEqual({
      role: 'model',
      parts: [
        { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: fakeThoughtSignature(1, 'get_weather', '{"city":"Paris"}') },
        { functionCall: { name: 'get_weather', args: { city: 'Lyon' } } },
      ],
    });
    // Both results in one user turn, named after their calls; a failure under "error".
    expect(contents[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'get_weather', response: { output: 'Paris: sunny' } } },
        { functionResponse: { name: 'get_weather', response: { error: 'Lyon: no data' } } },
      ],
    });
  });

  it('keeps thought text out of what is sent back', async () => {
    const { server, client } = await withReplies([{ thinking: [{ text: 'Paris is in France.' }], toolCalls: [{ name: 'get_weather', input: { city: 'Paris' } }] }, { text: 'ok' }], { stream });
    const first = await client.complete(request({ model, reasoning: 'high', reasoningForm: 'adaptive' }));
    expect(first.message.parts[0]).toEqual({ type: 'thinking', text: 'Paris is in France.' });
    expect(server.requests[0]!.body['generationConfig']).toMatchObject({ thinkingConfig: { includeThoughts: true, thinkingLevel: 'HIGH' } });
    const id = first.message.parts[1]!.type === 'tool_use' ? first.message.parts[1]!.id : '';
    await client.complete(request({ model, messages: [userText('Weather?'), first.message, { role: 'user', parts: [{ type: 'tool_result', toolUseId: id, content: [{ type: 'text', text: 'sunny' }], isError: false }] }] }));
    expect(JSON.stringify(server.requests[1]!.body)).not.toContain('Paris is in France.');
    expect(server.errors).toEqual([]);
  });
});

describe('gemini request translation', () => {
  it('maps reasoning to a thinking budget (Gemini 2.5) on top of the output limit', async () => {
    const { server, client } = await withReplies([{ text: 'ok' }]);
    await client.complete(request({ model: 'gemini-2.5-flash-lite', reasoning: 'medium', reasoningForm: 'budget', maxOutputTokens: 1000 }));
    expect(server.requests[0]!.body['generationConfig']).toMatchObject({ maxOutputTokens: 1000 + 8192, thinkingConfig: { includeThoughts: true, thinkingBudget: 8192 } });
  });

  it('puts the documented placeholder on the first call of a function-call turn that came from another provider', async () => {
    const { server, client } = await withReplies([{ text: 'done' }]);
    const history: Message[] = [
      userText('Weather?'),
      { role: 'assistant', parts: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }, { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Lyon' } }] },
      { role: 'user', parts: [{ type: 'tool_result', toolUseId: 'toolu_1', content: [{ type: 'text', text: 'sunny' }], isError: false }, { type: 'tool_result', toolUseId: 'toolu_2', content: [{ type: 'text', text: 'rain' }], isError: false }] },
    ];
    await client.complete(request({ model, messages: history }));
    expect(server.errors).toEqual([]);
    const contents = server.requests[0]!.body['contents'] as { parts: Record<string, unknown>[] }[];
    expect(contents[1]!.parts).toEqual([
      { text: 'Checking.' },
      { functionCall: { id: 'toolu_1', name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'skip_thought_signature_validator' },
      { functionCall: { id: 'toolu_2', name: 'get_weather', args: { city: 'Lyon' } } },
    ]);
    expect(contents[2]!.parts).toEqual([
      { functionResponse: { id: 'toolu_1', name: 'get_weather', response: { output: 'sunny' } } },
      { functionResponse: { id: 'toolu_2', name: 'get_weather', response: { output: 'rain' } } },
    ]);
  });
});

describe('the fake server holds the client to the signature', () => {
  it('answers 400 INVALID_ARGUMENT to a function-call turn whose signature was dropped, without retrying', async () => {
    const { server, client } = await withReplies([{ toolCalls: [{ name: 'get_weather', input: { city: 'Paris' } }] }, { text: 'never' }]);
    const first = await client.complete(request({ model }));
    const stripped = first.message.parts.map((p) => (p.type === 'tool_use' ? { ...p, thoughtSignature: 'forged' } : p));
    const id = first.message.parts[0]!.type === 'tool_use' ? first.message.parts[0]!.id : '';
    const error = await client
      .complete(request({ model, messages: [userText('Weather?'), { role: 'assistant', parts: stripped }, { role: 'user', parts: [{ type: 'tool_result', toolUseId: id, content: [{ type: 'text', text: 'sunny' }], isError: false }] }] }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).status).toBe(400);
    expect((error as ModelCallError).message).toContain('INVALID_ARGUMENT: Function call `get_weather` in the `2.` content block is missing a `thought_signature`');
    expect(server.requests).toHaveLength(2);
  });
});

describe('gemini faults', () => {
  it('retries a 429 RESOURCE_EXHAUSTED after the RetryInfo delay, then a 503, then succeeds', async () => {
    const { server, client } = await withReplies([{ status: 429, retryAfter: 0.01 }, { status: 503 }, { text: 'ok' }]);
    const notices: RetryNotice[] = [];
    const response = await client.complete(request({ model }), { onRetry: (n) => notices.push(n) });
    expect(response.message.parts[0]).toMatchObject({ text: 'ok' });
    expect(server.requests).toHaveLength(3);
    expect(notices.map((n) => [n.status, n.reason.split(':')[0]])).toEqual([[429, '429 rate limited'], [503, '503 server error']]);
    expect(notices[0]!.reason).toContain('RESOURCE_EXHAUSTED');
    expect(notices[0]!.delayMs).toBe(10);
  });

  it('retries a stream dropped mid-way and returns the whole answer of the next attempt', async () => {
    const { server, client } = await withReplies([{ text: 'The weather in Paris is sunny.', chunkSize: 5, drop: true }, { text: 'The weather in Paris is sunny.', chunkSize: 5 }]);
    const deltas: string[] = [];
    const notices: RetryNotice[] = [];
    const response = await client.complete(request({ model }), { onTextDelta: (t) => deltas.push(t), onRetry: (n) => notices.push(n) });
    expect(response.message.parts[0]).toMatchObject({ text: 'The weather in Paris is sunny.' });
    expect(deltas.join('')).toBe('The weather in Paris is sunny.');
    expect(notices).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it('retries a stream that ends without a finish reason and an in-stream error chunk', async () => {
    const { server, client } = await withReplies([{ text: 'abc', streamError: { type: 'overloaded_error' } }, { text: 'abc', drop: true, dropAfterEvents: 1 }, { text: 'abc' }]);
    const response = await client.complete(request({ model }));
    expect(response.message.parts[0]).toMatchObject({ text: 'abc' });
    expect(server.requests).toHaveLength(3);
  });

  it('gives up on a 401 at once, naming the key', async () => {
    const { server, client } = await withReplies([{ status: 401 }]);
    const error = (await client.complete(request({ model })).catch((e: unknown) => e)) as ModelCallError;
    expect(error.message).toMatch(/^gemini: 401 authentication failed \(check the model block's api_key\)/);
    expect(server.requests).toHaveLength(1);
  });
});

describe('gemini timeouts', () => {
  it('retries an attempt that exceeds the per-request timeout', async () => {
    const { server, client } = await withReplies([{ text: 'late', delayMs: 60_000 }, { text: 'on time' }], { timeoutMs: 2_000 });
    const notices: RetryNotice[] = [];
    const response = await client.complete(request({ model }), { onRetry: (n) => notices.push(n) });
    expect(response.message.parts[0]).toMatchObject({ text: 'on time' });
    expect(notices.map((n) => n.reason)).toEqual(['request timed out after 2 s']);
    expect(server.requests).toHaveLength(2);
  });
});

describe('gemini without streaming', () => {
  it('retries a connection dropped before the answer of a generateContent request', async () => {
    const { server, client } = await withReplies([{ text: 'x', drop: 'before-response' }, { status: 500 }, { text: 'whole answer' }], { stream: false });
    const notices: RetryNotice[] = [];
    const response = await client.complete(request({ model }), { onRetry: (n) => notices.push(n) });
    expect(response.message.parts[0]).toMatchObject({ text: 'whole answer' });
    expect(server.requests.map((r) => r.stream)).toEqual([false, false, false]);
    expect(notices.map((n) => n.status)).toEqual([undefined, 500]);
    expect(notices[0]!.reason).toBe(`connection to ${server.url} failed (ECONNRESET)`);
  });
});
