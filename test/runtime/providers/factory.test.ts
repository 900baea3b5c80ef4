import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelBlock } from '../../../config/graph.js';
import { createModelClient } from '../../../runtime/providers/factory.js';
import { ModelCallError } from '../../../runtime/providers/types.js';
import { createSecretRedactor } from '../../../store/index.js';
import { startFakeModelServer, type FakeModelServer } from '../../support/fakeModelServer.js';
import { request } from './sampleRequests.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function block(overrides: Partial<ModelBlock>): ModelBlock {
  return { name: 'main', provider: 'anthropic', aliases: {}, pricing: {}, location: { file: 'm.hcl', line: 1, column: 1 }, ...overrides };
}

describe('createModelClient', () => {
  it('builds an Anthropic client from the block key and base URL', async () => {
    server = await startFakeModelServer({ respond: () => ({ text: 'from anthropic' }) });
    const client = createModelClient(block({ apiKey: 'block-key', baseUrl: server.url }));
    const response = await client.complete(request());
    expect(client.provider).toBe('anthropic');
    expect(response.message.parts).toEqual([{ type: 'text', text: 'from anthropic' }]);
    expect(JSON.stringify(server.requests[0]?.headers)).toContain('block-key');
    expect(server.requests[0]?.api).toBe('anthropic');
  });

  it('builds an OpenAI client for an OpenAI-compatible base URL', async () => {
    server = await startFakeModelServer({ respond: () => ({ text: 'from openai' }) });
    const client = createModelClient(block({ provider: 'openai', apiKey: 'k', baseUrl: server.openaiBaseURL }));
    const response = await client.complete(request());
    expect(response.message.parts).toEqual([{ type: 'text', text: 'from openai' }]);
    expect(server.requests[0]?.api).toBe('openai');
  });

  it('builds a Gemini client from the block key, base URL and stream attribute', async () => {
    server = await startFakeModelServer({ respond: () => ({ text: 'from gemini' }) });
    const client = createModelClient(block({ provider: 'gemini', apiKey: 'g-key', baseUrl: server.url, stream: false }));
    const response = await client.complete(request({ model: 'gemini-3.8-flash' }));
    expect(client.provider).toBe('gemini');
    expect(response.message.parts[0]).toMatchObject({ type: 'text', text: 'from gemini' });
    expect(server.requests[0]).toMatchObject({ api: 'gemini', stream: false, path: '/v1beta/models/gemini-3.8-flash:generateContent' });
    expect(server.requests[0]?.headers['x-goog-api-key']).toBe('g-key');
  });

  it('builds a Responses client for api = "responses"', async () => {
    server = await startFakeModelServer({ respond: () => ({ text: 'from responses' }) });
    const client = createModelClient(block({ provider: 'openai', api: 'responses', apiKey: 'k', baseUrl: server.openaiBaseURL }));
    const response = await client.complete(request());
    expect(response.message.parts).toMatchObject([{ type: 'text', text: 'from responses' }]);
    expect(server.requests[0]?.path).toBe('/v1/responses');
  });

  it('builds an Ollama client: base_url + /v1, a placeholder key, errors named ollama', async () => {
    server = await startFakeModelServer({ respond: (req) => (req.n === 1 ? { text: 'from ollama' } : { status: 404, errorMessage: 'model "llama9" not found, try pulling it first' }) });
    const client = createModelClient(block({ provider: 'ollama', api: 'chat_completions', baseUrl: `${server.url}/` }));
    const response = await client.complete(request());
    expect(response.message.parts).toEqual([{ type: 'text', text: 'from ollama' }]);
    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer ollama');
    const error = (await client.complete(request()).catch((e: unknown) => e)) as ModelCallError;
    expect(error.message).toMatch(/^ollama: 404 not found: model "llama9" not found, try pulling it first/);
  });

  it('bounds attempts by the block max_retries (retries after the first attempt)', async () => {
    server = await startFakeModelServer({ respond: () => ({ status: 500 }) });
    const client = createModelClient(block({ apiKey: 'k', baseUrl: server.url, maxRetries: 1 }), { retryBaseDelayMs: 1 });
    const error = (await client.complete(request()).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error.attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
  });

  it('applies the block timeout per request', async () => {
    server = await startFakeModelServer({ respond: () => ({ text: 'late', delayMs: 3000 }) });
    const client = createModelClient(block({ apiKey: 'k', baseUrl: server.url, timeoutSeconds: 0.2, maxRetries: 0 }));
    const error = (await client.complete(request()).catch((e: unknown) => e)) as ModelCallError;
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('anthropic: request timed out after 200 ms');
  });

  it('records through the record option and replays a replay block', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'squadron-factory-'));
    try {
      server = await startFakeModelServer({ respond: () => ({ text: 'recorded answer' }) });
      const cassette = join(dir, 'c.jsonl');
      const live = createModelClient(block({ apiKey: 'secret-key', baseUrl: server.url }), {
        record: { cassette },
        redactor: createSecretRedactor([{ name: 'models.fake.api_key', value: 'secret-key' }]),
      });
      await live.complete(request());
      expect(readFileSync(cassette, 'utf8')).toContain('recorded answer');
      const replay = createModelClient(block({ provider: 'replay', cassette }));
      expect(replay.provider).toBe('replay');
      expect((await replay.complete(request())).message.parts).toEqual([{ type: 'text', text: 'recorded answer' }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
