import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicClient, type AnthropicClientOptions } from '../../../runtime/providers/anthropic.js';
import { ModelCallError, type RetryNotice } from '../../../runtime/providers/types.js';
import { startFakeModelServer, type FakeModelServer, type FakeReply } from '../../support/fakeModelServer.js';
import { fastRetry, request, userText } from './sampleRequests.js';

let server: FakeModelServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function withReplies(replies: FakeReply[], options: Partial<AnthropicClientOptions> = {}) {
  const queue = [...replies];
  server = await startFakeModelServer({ respond: () => queue.shift() ?? { status: 400, errorMessage: 'script exhausted' } });
  const client = createAnthropicClient({ apiKey: 'sk-ant-test', baseURL: server.url, retry: fastRetry, ...options });
  return { server, client };
}

describe('anthropic adapter against the fake server (streaming)', () => {
  it('streams text into one text part, forwards deltas and reports end_turn', async () => {
    const { server, client } = await withReplies([{ text: 'It is sunny in Paris today.', chunkSize: 5 }]);
    const deltas: string[] = [];
    const response = await client.complete(request(), { onTextDelta: (t) => deltas.push(t) });
    expect(response.message.parts).toEqual([{ type: 'text', text: 'It is sunny in Paris today.' }]);
    expect(response.stopReason).toBe('end_turn');
    expect(response.model).toBe('test-model');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('It is sunny in Paris today.');
    expect(server.requests[0]?.stream).toBe(true);
    // SDK 1.x sends the key as a bearer token; older versions used x-api-key.
    const headers = server.requests[0]?.headers ?? {};
    expect(headers['x-api-key'] ?? headers['authorization']).toMatch(/^(Bearer )?sk-ant-test$/);
  });

  it('sends the system prompt and the last tool with cache_control, and canonical messages round-trip', async () => {
    const { server, client } = await withReplies([{ text: 'ok' }]);
    const tools = [
      { name: 'a', description: 'first', inputSchema: { type: 'object', properties: {} } },
      { name: 'b', description: 'second', inputSchema: { type: 'object', properties: {} } },
    ];
    await client.complete(request({ tools }));
    const body = server.requests[0]?.body as { system: unknown; tools: { cache_control?: unknown }[]; max_tokens: number };
    expect(body.system).toEqual([{ type: 'text', text: 'You are a test assistant.', cache_control: { type: 'ephemeral' } }]);
    expect(body.tools[0]?.cache_control).toBeUndefined();
    expect(body.tools[1]?.cache_control).toEqual({ type: 'ephemeral' });
    expect(body.max_tokens).toBe(1000);
    expect(server.requests[0]?.canonical).toEqual({
      model: 'test-model',
      system: 'You are a test assistant.',
      messages: [userText('What is the weather in Paris?')],
      tools,
    });
  });

  it('assembles tool input from input_json_delta pieces and reports tool_use', async () => {
    const { client } = await withReplies([
      { text: 'Let me check.', toolCalls: [{ name: 'get_weather', input: { city: 'Paris', days: [1, 2] }, id: 'toolu_1' }], chunkSize: 3 },
    ]);
    const response = await client.complete(request());
    expect(response.stopReason).toBe('tool_use');
    expect(response.message.parts).toEqual([
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris', days: [1, 2] } },
    ]);
  });

  it('keeps thinking blocks verbatim and sends them back unchanged, signature byte for byte', async () => {
    const signature = 'EqQBCkgIARABGAIiQL+/=\u00e9\u{1F600}sig';
    const { server, client } = await withReplies([
      {
        thinking: [{ text: 'The user wants weather.', signature }, { redactedData: 'cmVkYWN0ZWQ=' }],
        toolCalls: [{ name: 'get_weather', input: { city: 'Paris' }, id: 'toolu_9' }],
      },
      { text: 'Sunny.' },
    ]);
    const first = await client.complete(request({ reasoning: 'medium' }));
    expect(first.message.parts.slice(0, 2)).toEqual([
      { type: 'thinking', text: 'The user wants weather.', signature },
      { type: 'thinking', text: '', redactedData: 'cmVkYWN0ZWQ=' },
    ]);
    const followUp = request({
      reasoning: 'medium',
      messages: [
        userText('What is the weather in Paris?'),
        first.message,
        { role: 'user', parts: [{ type: 'tool_result', toolUseId: 'toolu_9', content: [{ type: 'text', text: '21C' }], isError: false }] },
      ],
    });
    await client.complete(followUp);
    const sent = server.requests[1]?.body as { messages: { content: unknown[] }[] };
    expect(sent.messages[1]?.content.slice(0, 2)).toEqual([
      { type: 'thinking', thinking: 'The user wants weather.', signature },
      { type: 'redacted_thinking', data: 'cmVkYWN0ZWQ=' },
    ]);
    expect(server.requests[1]?.canonical.messages[1]).toEqual(first.message);
  });

  it('maps reasoning levels to thinking budgets and raises max_tokens by the budget', async () => {
    const { server, client } = await withReplies([{ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'd' }]);
    for (const reasoning of ['low', 'medium', 'high'] as const) await client.complete(request({ reasoning }));
    await client.complete(request());
    const sent = server.requests.map((r) => ({ thinking: r.body['thinking'], max_tokens: r.body['max_tokens'] }));
    expect(sent).toEqual([
      { thinking: { type: 'enabled', budget_tokens: 2048 }, max_tokens: 3048 },
      { thinking: { type: 'enabled', budget_tokens: 8192 }, max_tokens: 9192 },
      { thinking: { type: 'enabled', budget_tokens: 24576 }, max_tokens: 25576 },
      { thinking: undefined, max_tokens: 1000 },
    ]);
  });

  it('asks models that need it for adaptive thinking with an effort level instead of a budget', async () => {
    const { server, client } = await withReplies([{ text: 'a' }]);
    await client.complete(request({ reasoning: 'high', reasoningForm: 'adaptive' }));
    const body = server.requests[0]!.body;
    expect(body['thinking']).toEqual({ type: 'adaptive' });
    expect(body['output_config']).toEqual({ effort: 'high' });
    expect(body['max_tokens']).toBe(1000);
  });

  it('maps usage including cache reads and writes', async () => {
    const { client } = await withReplies([
      { text: 'ok', usage: { inputTokens: 120, outputTokens: 33, cacheReadTokens: 4000, cacheWriteTokens: 512 } },
    ]);
    const response = await client.complete(request());
    expect(response.usage).toEqual({ inputTokens: 120, outputTokens: 33, cacheReadTokens: 4000, cacheWriteTokens: 512 });
  });

  it('detects output truncation as max_tokens and keeps truncated tool JSON as malformedInput', async () => {
    const { client } = await withReplies([
      { text: 'partial', toolCalls: [{ name: 'get_weather', rawArguments: '{"city": "Par', id: 'toolu_2' }], stopReason: 'max_tokens' },
    ]);
    const response = await client.complete(request());
    expect(response.stopReason).toBe('max_tokens');
    expect(response.message.parts[1]).toEqual({
      type: 'tool_use',
      id: 'toolu_2',
      name: 'get_weather',
      input: {},
      malformedInput: '{"city": "Par',
    });
  });

  it('adds a cache breakpoint on the newest user block', async () => {
    const { server, client } = await withReplies([{ text: 'ok' }]);
    await client.complete(request());
    const messages = server.requests[0]?.body['messages'] as { content: { cache_control?: unknown }[] }[];
    expect(messages[0]?.content[0]?.cache_control).toEqual({ type: 'ephemeral' });
  });
});

describe('anthropic adapter retries', () => {
  it('honours retry-after on 429 (seconds) before retrying', async () => {
    const { server, client } = await withReplies([{ status: 429, retryAfter: 1 }, { text: 'ok' }]);
    const notices: RetryNotice[] = [];
    const started = Date.now();
    const response = await client.complete(request(), { onRetry: (n) => notices.push(n) });
    const elapsed = Date.now() - started;
    expect(response.message.parts).toEqual([{ type: 'text', text: 'ok' }]);
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(20_000) // the 1 s it was told, not the default backoff ladder; room for a busy machine;
    expect(notices).toEqual([{ attempt: 1, delayMs: 1000, reason: expect.stringContaining('429 rate limited') as string, status: 429 }]);
    expect(server.requests).toHaveLength(2);
  });

  it('honours retry-after-ms', async () => {
    const { client } = await withReplies([{ status: 429, retryAfterMs: 300 }, { text: 'ok' }]);
    const notices: RetryNotice[] = [];
    const started = Date.now();
    await client.complete(request(), { onRetry: (n) => notices.push(n) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(notices[0]?.delayMs).toBe(300);
  });

  it('retries a 500 and then succeeds', async () => {
    const { server, client } = await withReplies([{ status: 500 }, { text: 'recovered' }]);
    const response = await client.complete(request());
    expect(response.message.parts).toEqual([{ type: 'text', text: 'recovered' }]);
    expect(server.requests).toHaveLength(2);
  });

  it('retries 529 overloaded', async () => {
    const { server, client } = await withReplies([{ status: 529 }, { status: 529 }, { text: 'fine' }]);
    const notices: RetryNotice[] = [];
    const response = await client.complete(request(), { onRetry: (n) => notices.push(n) });
    expect(response.message.parts).toEqual([{ type: 'text', text: 'fine' }]);
    expect(notices.map((n) => [n.attempt, n.status])).toEqual([
      [1, 529],
      [2, 529],
    ]);
    expect(server.requests).toHaveLength(3);
  });

  it('retries a mid-stream overloaded_error event as a whole request without duplicating text', async () => {
    const text = 'The quick brown fox jumps over the lazy dog.';
    const { server, client } = await withReplies([
      { text, chunkSize: 4, streamError: { type: 'overloaded_error', afterEvents: 6 } },
      { text, chunkSize: 4 },
    ]);
    const deltas: string[] = [];
    const response = await client.complete(request(), { onTextDelta: (t) => deltas.push(t) });
    expect(response.message.parts).toEqual([{ type: 'text', text }]);
    expect(deltas.join('')).toBe(text);
    expect(server.requests).toHaveLength(2);
  });

  it('retries a connection dropped mid-stream and returns only the successful attempt', async () => {
    const text = 'Complete answer after a dropped connection.';
    const { server, client } = await withReplies([{ text, chunkSize: 4, drop: true }, { text, chunkSize: 4 }]);
    const notices: RetryNotice[] = [];
    const deltas: string[] = [];
    const response = await client.complete(request(), { onRetry: (n) => notices.push(n), onTextDelta: (t) => deltas.push(t) });
    expect(response.message.parts).toEqual([{ type: 'text', text }]);
    expect(deltas.join('')).toBe(text);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.status).toBeUndefined();
    expect(server.requests).toHaveLength(2);
  });

  it('retries a connection dropped before any response', async () => {
    const { server, client } = await withReplies([{ drop: 'before-response' }, { text: 'ok' }]);
    const response = await client.complete(request());
    expect(response.message.parts).toEqual([{ type: 'text', text: 'ok' }]);
    expect(server.requests).toHaveLength(2);
  });

  it('times out a slow attempt and retries it', async () => {
    const { server, client } = await withReplies([{ text: 'late', delayMs: 60_000 }, { text: 'on time' }], { timeoutMs: 3000 });
    const notices: RetryNotice[] = [];
    const response = await client.complete(request(), { onRetry: (n) => notices.push(n) });
    expect(response.message.parts).toEqual([{ type: 'text', text: 'on time' }]);
    expect(notices[0]?.reason).toContain('timed out');
    expect(server.requests).toHaveLength(2);
  });

  it('gives up after the configured attempts with a ModelCallError carrying the status', async () => {
    const { server, client } = await withReplies(Array.from({ length: 6 }, () => ({ status: 503 })), {
      retry: { ...fastRetry, maxAttempts: 3 },
    });
    const error = await client.complete(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    const failure = error as ModelCallError;
    expect(failure.status).toBe(503);
    expect(failure.attempts).toBe(3);
    expect(failure.message).toMatch(/^anthropic: 503 server error.*\(gave up after 3 attempts\)$/);
    expect(failure.message).not.toContain('\n');
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 401 and says which setting to check', async () => {
    const { server, client } = await withReplies([{ status: 401 }, { text: 'never' }]);
    const error = await client.complete(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).message).toBe("anthropic: 401 authentication failed (check the model block's api_key)");
    expect((error as ModelCallError).status).toBe(401);
    expect((error as ModelCallError).retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry a 400 and carries the server message on one line', async () => {
    const { server, client } = await withReplies([{ status: 400, errorMessage: 'messages: text content blocks\nmust be non-empty' }]);
    const error = (await client.complete(request()).catch((e: unknown) => e)) as ModelCallError;
    expect(error.message).toBe('anthropic: 400 bad request: messages: text content blocks must be non-empty');
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry a mid-stream error that says the request is invalid', async () => {
    const { server, client } = await withReplies([
      { text: 'partial', streamError: { type: 'invalid_request_error', message: 'bad thinking signature' } },
      { text: 'never' },
    ]);
    const error = (await client.complete(request()).catch((e: unknown) => e)) as ModelCallError;
    expect(error.message).toBe('anthropic: stream error invalid_request_error: bad thinking signature');
    expect(error.kind).toBe('stream');
    expect(server.requests).toHaveLength(1);
  });

  it('names the server when nothing listens there, after retrying', async () => {
    const closed = await startFakeModelServer({ respond: () => ({ text: 'x' }) });
    const url = closed.url;
    await closed.close();
    const client = createAnthropicClient({ apiKey: 'k', baseURL: url, retry: { ...fastRetry, maxAttempts: 2 } });
    const notices: RetryNotice[] = [];
    const error = (await client.complete(request(), { onRetry: (n) => notices.push(n) }).catch((e: unknown) => e)) as ModelCallError;
    expect(error.kind).toBe('network');
    expect(error.message).toBe(`anthropic: connection to ${url} failed (ECONNREFUSED) (gave up after 2 attempts)`);
    expect(notices).toHaveLength(1);
  });

  it('stops at once when the caller aborts, without retrying', async () => {
    const { server, client } = await withReplies([{ text: 'slow', delayMs: 5000 }, { text: 'never' }]);
    const controller = new AbortController();
    // Abort once the request is at the server (a fixed delay could fire before a loaded machine sends it).
    server.onRequest = () => controller.abort();
    const error = (await client.complete(request(), { signal: controller.signal }).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error.kind).toBe('aborted');
    expect(server.requests).toHaveLength(1);
  });
});
