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
import { createSecretRedactor } from '../../../store/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'squadron-record-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = 'sk-ant-api03-SECRET-KEY-123';
const redactor = createSecretRedactor([{ name: 'vars.key', value: SECRET }]);

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
    const recorder = createRecordingClient(echoClient(), { cassette: file, redactor });
    const first = request({ messages: [userText(`use key ${SECRET} please`)] });
    const second = request({ trace: { task: 'gather', agent: 'worker', turn: 2 } });
    await recorder.complete(first);
    await recorder.complete(second);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).toContain('use key [REDACTED:vars.key] please');
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(Object.keys(JSON.parse(lines[0] ?? '{}') as object)).toEqual(['v', 'trace', 'request', 'response']);

    // Replay compares the live request redacted with the same secrets.
    const replay = createReplayClient({ cassette: file, redactor });
    expect((await replay.complete(first)).message.parts).toEqual([{ type: 'text', text: 'echo 1' }]);
    expect((await replay.complete(second)).message.parts).toEqual([{ type: 'text', text: 'echo 2' }]);
  });

  it('never writes the API key of a real client talking to the fake server', async () => {
    const server = await startFakeModelServer({ respond: () => ({ text: `the key is ${SECRET}` }) });
    try {
      const file = join(dir, 'live.jsonl');
      const inner = createAnthropicClient({ apiKey: SECRET, baseURL: server.url });
      const recorder = createRecordingClient(inner, { cassette: file, redactor });
      const response = await recorder.complete(request());
      expect(response.message.parts).toEqual([{ type: 'text', text: `the key is ${SECRET}` }]);
      const text = readFileSync(file, 'utf8');
      expect(text).toContain('the key is [REDACTED:vars.key]');
      expect(text).not.toContain(SECRET);
      expect(recorder.provider).toBe('anthropic');
    } finally {
      await server.close();
    }
  });

  it('writes nothing for a failed call', async () => {
    const file = join(dir, 'fail.jsonl');
    const failing: ModelClient = { provider: 'openai', complete: async () => Promise.reject(new Error('down')) };
    const recorder = createRecordingClient(failing, { cassette: file, redactor });
    await expect(recorder.complete(request())).rejects.toThrow('down');
    expect(() => readFileSync(file, 'utf8')).toThrow();
  });

  it('redacts a secret with quotes and backslashes however deeply the conversation escapes it', async () => {
    const tricky = 'pa"ss\\wörd-42';
    const secrets = createSecretRedactor([{ name: 'vars.pw', value: tricky }]);
    const file = join(dir, 'deep.jsonl');
    const nested = JSON.stringify({ result: JSON.stringify({ token: tricky }) });
    const recorder = createRecordingClient(echoClient(), { cassette: file, redactor: secrets });
    await recorder.complete(request({ messages: [userText(`raw ${tricky} json ${JSON.stringify(tricky)} nested ${nested}`)] }));
    const text = readFileSync(file, 'utf8');
    // Every encoding of the value (raw, escaped once, twice, ASCII-escaped) ends in "rd-42".
    expect(text).not.toContain('rd-42');
    expect(text).toContain('[REDACTED:vars.pw]');
    const replay = createReplayClient({ cassette: file, redactor: secrets });
    expect((await replay.complete(request({ messages: [userText(`raw ${tricky} json ${JSON.stringify(tricky)} nested ${nested}`)] }))).replayed).toBe(true);
  });
});
