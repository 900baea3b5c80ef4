import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIClient, type OpenAIClientOptions } from '../../../runtime/providers/openai.js';
import { ModelCallError, type Message, type RetryNotice } from '../../../runtime/providers/types.js';
import { startFakeModelServer, type FakeModelServer, type FakeReply } from '../../support/fakeModelServer.js';
import { fastRetry, request, userText, weatherTool } from './sampleRequests.js';

let server: FakeModelServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function withReplies(replies: FakeReply[], options: Partial<OpenAIClientOptions> = {}) {
  const queue = [...replies];
  server = await startFakeModelServer({ respond: () => queue.shift() ?? { status: 400, errorMessage: 'script exhausted' } });
  const client = createOpenAIClient({ apiKey: 'sk-openai-test', baseURL: server.openaiBaseURL, retry: fastRetry, ...options });
  return { server, client };
}

describe('openai adapter against the fake server (streaming)', () => {
  it('streams text, asks for usage in the stream and reports end_turn', async () => {
    const { server, client } = await withReplies([{ text: 'Sunny and 21 degrees.', chunkSize: 4 }]);
    const deltas: string[] = [];
    const response = await client.complete(request(), { onTextDelta: (t) => deltas.push(t) });
    expect(response.message.parts).toEqual([{ type: 'text', text: 'Sunny and 21 degrees.' }]);
    expect(response.stopReason).toBe('end_turn');
    expect(deltas.join('')).toBe('Sunny and 21 degrees.');
    const sent = server.requests[0];
    expect(sent?.stream).toBe(true);
    expect(sent?.body['stream_options']).toEqual({ include_usage: true });
    expect(sent?.headers['authorization']).toBe('Bearer sk-openai-test');
    expect(sent?.canonical).toEqual({
      model: 'test-model',
      system: 'You are a test assistant.',
      messages: [userText('What is the weather in Paris?')],
      tools: [weatherTool],
    });
  });

  it('assembles several tool calls from argument deltas by index', async () => {
    const { client } = await withReplies([
      {
        toolCalls: [
          { name: 'get_weather', input: { city: 'Paris' }, id: 'call_a' },
          { name: 'get_weather', input: { city: 'Lyon', detail: { hourly: true } }, id: 'call_b' },
        ],
        chunkSize: 3,
      },
    ]);
    const response = await client.complete(request());
    expect(response.stopReason).toBe('tool_use');
    expect(response.message.parts).toEqual([
      { type: 'tool_use', id: 'call_a', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'call_b', name: 'get_weather', input: { city: 'Lyon', detail: { hourly: true } } },
    ]);
  });

  it('keeps arguments that are not valid JSON as malformedInput with an empty input, without throwing', async () => {
    const { client } = await withReplies([{ toolCalls: [{ name: 'get_weather', rawArguments: '{"city": Paris}', id: 'call_x' }] }]);
    const response = await client.complete(request());
    expect(response.message.parts).toEqual([
      { type: 'tool_use', id: 'call_x', name: 'get_weather', input: {}, malformedInput: '{"city": Paris}' },
    ]);
  });

  it('reports finish_reason "length" as max_tokens', async () => {
    const { client } = await withReplies([{ text: 'This answer was cut', stopReason: 'max_tokens' }]);
    const response = await client.complete(request());
    expect(response.stopReason).toBe('max_tokens');
  });

  it('normalizes usage: cached tokens are subtracted from input and reported as cache reads', async () => {
    const { client } = await withReplies([{ text: 'ok', usage: { inputTokens: 150, outputTokens: 20, cacheReadTokens: 1024 } }]);
    const response = await client.complete(request());
    expect(response.usage).toEqual({ inputTokens: 150, outputTokens: 20, cacheReadTokens: 1024, cacheWriteTokens: 0 });
  });

  it('sends reasoning_effort only to models that support it', async () => {
    const { server, client } = await withReplies([{ text: 'a' }, { text: 'b' }], { supportsReasoning: (m) => m === 'thinker' });
    await client.complete(request({ model: 'thinker', reasoning: 'high' }));
    await client.complete(request({ model: 'plain', reasoning: 'high' }));
    expect(server.requests[0]?.body['reasoning_effort']).toBe('high');
    expect(server.requests[0]?.body['max_completion_tokens']).toBe(1000);
    expect(server.requests[1]?.body['reasoning_effort']).toBeUndefined();
    expect(server.requests[1]?.body['max_tokens']).toBe(1000);
  });

  it('sends tool results as tool messages and history back in canonical order', async () => {
    const { server, client } = await withReplies([{ text: 'It is 21C.' }]);
    const history: Message[] = [
      userText('What is the weather in Paris?'),
      {
        role: 'assistant',
        parts: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      {
        role: 'user',
        parts: [{ type: 'tool_result', toolUseId: 'call_1', content: [{ type: 'text', text: '21C' }], isError: false }],
      },
    ];
    await client.complete(request({ messages: history }));
    const body = server.requests[0]?.body as { messages: unknown[] };
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are a test assistant.' },
      { role: 'user', content: 'What is the weather in Paris?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '21C' },
    ]);
    expect(server.requests[0]?.canonical.messages).toEqual(history);
  });

  it('streams reasoning_content from compatible servers as a thinking part', async () => {
    const { client } = await withReplies([{ thinking: [{ text: 'think first' }], text: 'answer' }]);
    const response = await client.complete(request());
    expect(response.message.parts).toEqual([
      { type: 'thinking', text: 'think first' },
      { type: 'text', text: 'answer' },
    ]);
  });
});

describe('openai adapter retries', () => {
  it('honours retry-after on 429 before retrying', async () => {
    const { server, client } = await withReplies([{ status: 429, retryAfter: 1 }, { text: 'ok' }]);
    const notices: RetryNotice[] = [];
    const started = Date.now();
    await client.complete(request(), { onRetry: (n) => notices.push(n) });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(20_000) // the 1 s it was told, not the default backoff ladder; room for a busy machine;
    expect(notices.map((n) => [n.status, n.delayMs])).toEqual([[429, 1000]]);
    expect(server.requests).toHaveLength(2);
  });

  it('honours a retry-after given as an HTTP date', async () => {
    const when = new Date(Date.now() + 2000).toUTCString();
    const { client } = await withReplies([{ status: 503, retryAfter: when }, { text: 'ok' }]);
    const notices: RetryNotice[] = [];
    await client.complete(request(), { onRetry: (n) => notices.push(n) });
    // HTTP dates have one-second resolution.
    expect(notices[0]?.delayMs).toBeGreaterThan(500);
    expect(notices[0]?.delayMs).toBeLessThanOrEqual(2000);
  });

  it('retries a 500 and then succeeds', async () => {
    const { server, client } = await withReplies([{ status: 500 }, { text: 'recovered' }]);
    const response = await client.complete(request());
    expect(response.message.parts).toEqual([{ type: 'text', text: 'recovered' }]);
    expect(server.requests).toHaveLength(2);
  });

  it('retries a connection dropped mid-stream without duplicating text', async () => {
    const text = 'A full answer that survives a dropped connection.';
    const { server, client } = await withReplies([{ text, chunkSize: 5, drop: true }, { text, chunkSize: 5 }]);
    const deltas: string[] = [];
    const notices: RetryNotice[] = [];
    const response = await client.complete(request(), { onTextDelta: (t) => deltas.push(t), onRetry: (n) => notices.push(n) });
    expect(response.message.parts).toEqual([{ type: 'text', text }]);
    expect(deltas.join('')).toBe(text);
    expect(notices[0]?.reason).toContain('connection dropped');
    expect(server.requests).toHaveLength(2);
  });

  it('retries an in-stream server error', async () => {
    const { server, client } = await withReplies([{ text: 'partial answer', streamError: { type: 'server_error' } }, { text: 'whole' }]);
    const response = await client.complete(request());
    expect(response.message.parts).toEqual([{ type: 'text', text: 'whole' }]);
    expect(server.requests).toHaveLength(2);
  });

  it('gives up after the configured attempts with a ModelCallError carrying the status', async () => {
    const { server, client } = await withReplies(Array.from({ length: 5 }, () => ({ status: 429 })), {
      retry: { ...fastRetry, maxAttempts: 2 },
    });
    const error = (await client.complete(request()).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error.status).toBe(429);
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/^openai: 429 rate limited.*\(gave up after 2 attempts\)$/);
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a 401', async () => {
    const { server, client } = await withReplies([{ status: 401 }, { text: 'never' }]);
    const error = (await client.complete(request()).catch((e: unknown) => e)) as ModelCallError;
    expect(error.message).toBe("openai: 401 authentication failed (check the model block's api_key)");
    expect(error.status).toBe(401);
    expect(server.requests).toHaveLength(1);
  });

  it('names the model on a 404', async () => {
    const { client } = await withReplies([{ status: 404, errorMessage: 'model not found' }]);
    const error = (await client.complete(request({ model: 'gpt-nope' })).catch((e: unknown) => e)) as ModelCallError;
    expect(error.message).toBe(
      `openai: 404 not found: model not found (check the model id "gpt-nope" and the model block's base_url)`,
    );
  });
});
