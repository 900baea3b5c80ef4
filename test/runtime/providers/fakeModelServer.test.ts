import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicClient } from '../../../runtime/providers/anthropic.js';
import { createOpenAIClient } from '../../../runtime/providers/openai.js';
import { createResponsesClient } from '../../../runtime/providers/responses.js';
import { ResponsesStreamAccumulator } from '../../../runtime/providers/responsesStream.js';
import { ModelCallError, type Message, type Part } from '../../../runtime/providers/types.js';
import { startFakeModelServer, type FakeModelServer } from '../../support/fakeModelServer.js';
import { scriptConversations } from '../../support/fakeScript.js';
import { fastRetry, request, userText } from './sampleRequests.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('fake model server', () => {
  it('answers non-streaming Anthropic requests with a real Message', async () => {
    server = await startFakeModelServer({
      respond: () => ({ text: 'hi', toolCalls: [{ name: 'f', input: { a: 1 }, id: 'toolu_x' }], usage: { inputTokens: 7, outputTokens: 3 } }),
    });
    const sdk = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    const message = await sdk.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hello' }] });
    expect(message.content).toEqual([
      { type: 'text', text: 'hi', citations: null },
      { type: 'tool_use', id: 'toolu_x', name: 'f', input: { a: 1 } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage.input_tokens).toBe(7);
    expect(server.requests[0]?.canonical.messages).toEqual([userText('hello')]);
  });

  it('answers non-streaming OpenAI requests with a real ChatCompletion', async () => {
    server = await startFakeModelServer({ respond: () => ({ text: 'hello back', stopReason: 'max_tokens' }) });
    const sdk = new OpenAI({ apiKey: 'k', baseURL: server.openaiBaseURL, maxRetries: 0 });
    const completion = await sdk.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hello' }] });
    expect(completion.choices[0]?.message.content).toBe('hello back');
    expect(completion.choices[0]?.finish_reason).toBe('length');
  });

  it('answers non-streaming Responses requests with a real Response, folded like the stream', async () => {
    const reply = { thinking: [{ text: 'plan' }], text: 'hello', toolCalls: [{ name: 'f', input: { a: 1 }, id: 'call_x' }], usage: { inputTokens: 7, outputTokens: 3 } };
    server = await startFakeModelServer({ respond: () => reply });
    const sdk = new OpenAI({ apiKey: 'k', baseURL: server.openaiBaseURL, maxRetries: 0 });
    const params = { model: 'm', input: 'hello', store: false, include: ['reasoning.encrypted_content' as const] };
    const response = await sdk.responses.create(params);
    expect(response.output.map((i) => i.type)).toEqual(['reasoning', 'message', 'function_call']);
    expect(response.output_text).toBe('hello');
    expect(response.usage?.input_tokens).toBe(7);
    // Folded by the adapter's accumulator, the JSON answer gives the parts the stream gives.
    const folded = new ResponsesStreamAccumulator(() => {});
    folded.apply({ type: 'response.completed', response, sequence_number: 0 });
    const streamed = await createResponsesClient({ apiKey: 'k', baseURL: server.openaiBaseURL, retry: fastRetry }).complete(request({ messages: [userText('hello')] }));
    // Ids and encrypted content differ from one response to the next; the shapes do not.
    const shape = (parts: Part[]) => parts.map((p) => (p.type === 'thinking' ? { ...p, reasoningItem: { ...p.reasoningItem, id: '', encrypted_content: '' } } : p.type === 'text' ? { ...p, itemId: '' } : p));
    expect(shape(folded.finish().message.parts).map((p) => (p.type === 'tool_use' ? { ...p, id: '', itemId: '' } : p))).toEqual(
      shape(streamed.message.parts).map((p) => (p.type === 'tool_use' ? { ...p, id: '', itemId: '' } : p)),
    );
  });

  it('observes concurrency and calls onRequest as each request arrives', async () => {
    server = await startFakeModelServer({ respond: () => ({ text: 'slow', delayMs: 150 }) });
    const seen: number[] = [];
    server.onRequest = (n) => seen.push(n);
    const client = createAnthropicClient({ apiKey: 'k', baseURL: server.url, retry: fastRetry });
    await Promise.all([1, 2, 3].map(() => client.complete(request())));
    expect(server.maxInFlight).toBe(3);
    expect(server.inFlight).toBe(0);
    expect(seen.sort()).toEqual([1, 2, 3]);
  });

  it('answers a 400 naming the problem when respond() throws', async () => {
    server = await startFakeModelServer({
      respond: () => {
        throw new Error('no reply scripted');
      },
    });
    const client = createOpenAIClient({ apiKey: 'k', baseURL: server.openaiBaseURL, retry: fastRetry });
    const error = (await client.complete(request()).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error.status).toBe(400);
    expect(error.message).toContain('respond() failed for request 1: no reply scripted');
    expect(server.errors).toHaveLength(1);
  });
});

describe('conversation scripts', () => {
  it('plays one queue per conversation, so parallel conversations each get the whole script', async () => {
    const script = scriptConversations([
      { match: 'commander', replies: [{ toolCalls: [{ name: 'call_agent', input: { task: 'go' } }] }, { text: 'commander done' }] },
      { match: /^You are a worker/, replies: [{ status: 500 }, { text: 'worker answer' }] },
    ]);
    server = await startFakeModelServer({ respond: script.respond });
    const client = createAnthropicClient({ apiKey: 'k', baseURL: server.url, retry: fastRetry });
    const worker = (item: string) => request({ system: 'You are a worker.', messages: [userText(`item ${item}`)] });
    const [a, b] = await Promise.all([client.complete(worker('a')), client.complete(worker('b'))]);
    expect(a.message.parts).toEqual([{ type: 'text', text: 'worker answer' }]);
    expect(b.message.parts).toEqual([{ type: 'text', text: 'worker answer' }]);

    const commander = request({ system: 'You are the commander.' });
    const first = await client.complete(commander);
    expect(first.message.parts[0]).toMatchObject({ type: 'tool_use', name: 'call_agent', input: { task: 'go' } });
    expect(script.unplayed()).toEqual(['"commander" (conversation 1): 1 of 2 left']);
    const call = first.message.parts[0] as Extract<Part, { type: 'tool_use' }>;
    const answer: Message = { role: 'user', parts: [{ type: 'tool_result', toolUseId: call.id, content: [{ type: 'text', text: 'result' }], isError: false }] };
    const second = await client.complete({ ...commander, messages: [...commander.messages, first.message, answer] });
    expect(second.message.parts).toEqual([{ type: 'text', text: 'commander done' }]);
    expect(script.unplayed()).toEqual([]);
    expect(script.problems).toEqual([]);
  });

  it('answers an unscripted request with a non-retryable 400 and records the problem', async () => {
    const script = scriptConversations([{ match: 'nothing like this', replies: [{ text: 'x' }] }]);
    server = await startFakeModelServer({ respond: script.respond });
    const client = createOpenAIClient({ apiKey: 'k', baseURL: server.openaiBaseURL, retry: fastRetry });
    const error = (await client.complete(request()).catch((e: unknown) => e)) as ModelCallError;
    expect(error.status).toBe(400);
    expect(error.message).toContain('fake script: no script rule matches request 1');
    expect(script.problems).toHaveLength(1);
    expect(script.unplayed()).toEqual(['"nothing like this": never requested']);
    expect(server.requests).toHaveLength(1);
  });
});

describe('tool calls and their results, refused as the real APIs refuse them', () => {
  const call: Message = { role: 'assistant', parts: [{ type: 'tool_use', id: 'call_1', name: 'f', input: {} }] };
  const result: Message = { role: 'user', parts: [{ type: 'tool_result', toolUseId: 'call_1', content: [{ type: 'text', text: 'ok' }], isError: false }] };

  it.each([
    ['Anthropic', (s: FakeModelServer) => createAnthropicClient({ apiKey: 'k', baseURL: s.url, retry: fastRetry }), '`tool_use` ids were found without `tool_result` blocks immediately after: call_1'],
    ['OpenAI', (s: FakeModelServer) => createOpenAIClient({ apiKey: 'k', baseURL: s.openaiBaseURL, retry: fastRetry }), 'The following tool_call_ids did not have response messages: call_1'],
    ['Responses', (s: FakeModelServer) => createResponsesClient({ apiKey: 'k', baseURL: s.openaiBaseURL, retry: fastRetry }), 'No tool output found for function call call_1.'],
  ])('%s: a call without its result is a 400; with it, answered', async (_name, client, refusal) => {
    server = await startFakeModelServer({ respond: () => ({ text: 'fine' }) });
    const c = client(server);
    const error = (await c.complete(request({ messages: [userText('go'), call, userText('and?')] })).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error.status).toBe(400);
    expect(error.message).toContain(refusal);
    const ok = await c.complete(request({ messages: [userText('go'), call, result] }));
    expect(ok.message.parts).toEqual([expect.objectContaining({ type: 'text', text: 'fine' })]);
  });

  it('Anthropic: a result that answers no call of the message before is a 400', async () => {
    server = await startFakeModelServer({ respond: () => ({ text: 'fine' }) });
    const c = createAnthropicClient({ apiKey: 'k', baseURL: server.url, retry: fastRetry });
    const error = (await c.complete(request({ messages: [userText('go'), { role: 'assistant', parts: [{ type: 'text', text: 'hm' }] }, result] })).catch((e: unknown) => e)) as ModelCallError;
    expect(error.status).toBe(400);
    expect(error.message).toContain('unexpected `tool_use_id` found in `tool_result` blocks: call_1');
  });
});

