import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecordingClient } from '../../../runtime/providers/record.js';
import { createReplayClient } from '../../../runtime/providers/replay.js';
import { createAnthropicClient } from '../../../runtime/providers/anthropic.js';
import type { ModelClient, ModelRequest, ModelResponse } from '../../../runtime/providers/types.js';
import { startFakeModelServer } from '../../support/fakeModelServer.js';
import { request, userText } from './sampleRequests.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'squadron-record-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = 'sk-ant-api03-SECRET-KEY-123';
const redact = (text: string): string => text.split(SECRET).join('[REDACTED]');

function echoClient(): ModelClient {
  return {
    provider: 'anthropic',
    complete: async (req: ModelRequest): Promise<ModelResponse> => ({
      message: { role: 'assistant', parts: [{ type: 'text', text: `echo ${req.trace.turn}` }] },
      stopReason: 'end_turn',
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
      model: req.model,
    }),
  };
}

describe('recording client', () => {
  it('appends one redacted line per turn, and the cassette replays', async () => {
    const file = join(dir, 'nested', 'run.jsonl');
    const recorder = createRecordingClient(echoClient(), { cassette: file, redact });
    const first = request({ messages: [userText(`use key ${SECRET} please`)] });
    const second = request({ trace: { task: 'gather', agent: 'worker', turn: 2 } });
    await recorder.complete(first);
    await recorder.complete(second);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).toContain('use key [REDACTED] please');
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(Object.keys(JSON.parse(lines[0] ?? '{}') as object)).toEqual(['v', 'trace', 'request', 'response']);

    const replay = createReplayClient({ cassette: file });
    const redactedFirst = request({ messages: [userText('use key [REDACTED] please')] });
    expect((await replay.complete(redactedFirst)).message.parts).toEqual([{ type: 'text', text: 'echo 1' }]);
    expect((await replay.complete(second)).message.parts).toEqual([{ type: 'text', text: 'echo 2' }]);
  });

  it('never writes the API key of a real client talking to the fake server', async () => {
    const server = await startFakeModelServer({ respond: () => ({ text: `the key is ${SECRET}` }) });
    try {
      const file = join(dir, 'live.jsonl');
      const inner = createAnthropicClient({ apiKey: SECRET, baseURL: server.url });
      const recorder = createRecordingClient(inner, { cassette: file, redact });
      const response = await recorder.complete(request());
      expect(response.message.parts).toEqual([{ type: 'text', text: `the key is ${SECRET}` }]);
      const text = readFileSync(file, 'utf8');
      expect(text).toContain('the key is [REDACTED]');
      expect(text).not.toContain(SECRET);
      expect(recorder.provider).toBe('anthropic');
    } finally {
      await server.close();
    }
  });

  it('writes nothing for a failed call', async () => {
    const file = join(dir, 'fail.jsonl');
    const failing: ModelClient = { provider: 'openai', complete: async () => Promise.reject(new Error('down')) };
    const recorder = createRecordingClient(failing, { cassette: file, redact });
    await expect(recorder.complete(request())).rejects.toThrow('down');
    expect(() => readFileSync(file, 'utf8')).toThrow();
  });

  it('refuses a redaction that breaks the JSON line', async () => {
    const recorder = createRecordingClient(echoClient(), { cassette: join(dir, 'x.jsonl'), redact: (t) => t.replace('"v"', 'v') });
    await expect(recorder.complete(request())).rejects.toThrow('record: the redaction function turned a cassette line into invalid JSON');
  });
});
