import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canonicalRequest, firstDifference } from '../../../runtime/providers/cassette.js';
import { createReplayClient } from '../../../runtime/providers/replay.js';
import { ModelCallError, type ModelRequest, type ModelResponse } from '../../../runtime/providers/types.js';
import { request, userText } from './sampleRequests.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'squadron-replay-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function reply(text: string): ModelResponse {
  return {
    message: { role: 'assistant', parts: [{ type: 'text', text }] },
    stopReason: 'end_turn',
    usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
    model: 'test-model',
  };
}

function line(req: ModelRequest, response: ModelResponse, withRequest = true): string {
  return JSON.stringify({ v: 1, trace: req.trace, ...(withRequest ? { request: canonicalRequest(req) } : {}), response });
}

function cassette(lines: string[]): string {
  const file = join(dir, 'run.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const gather1 = request({ trace: { task: 'gather', agent: 'worker', turn: 1 } });
const gather2 = request({
  trace: { task: 'gather', agent: 'worker', turn: 2 },
  messages: [userText('What is the weather in Paris?'), reply('Let me look.').message, userText('Go on.')],
});
const report1 = request({ system: 'You are the commander.', trace: { task: 'report', agent: 'commander', turn: 1 } });

describe('replay client', () => {
  it('plays back the entry of a request that matches exactly', async () => {
    const client = createReplayClient({ cassette: cassette([line(gather1, reply('Sunny.'))]) });
    const deltas: string[] = [];
    const response = await client.complete(gather1, { onTextDelta: (t) => deltas.push(t) });
    expect(response).toEqual({ ...reply('Sunny.'), replayed: true });
    expect(deltas).toEqual(['Sunny.']);
    expect(client.provider).toBe('replay');
  });

  it('finds entries by trace, whatever order parallel tasks were recorded in', async () => {
    const file = cassette([line(report1, reply('report 1')), line(gather2, reply('gather 2')), line(gather1, reply('gather 1'))]);
    const client = createReplayClient({ cassette: file });
    const answers = await Promise.all([client.complete(gather1), client.complete(report1), client.complete(gather2)]);
    expect(answers.map((a) => a.message.parts[0])).toEqual([
      { type: 'text', text: 'gather 1' },
      { type: 'text', text: 'report 1' },
      { type: 'text', text: 'gather 2' },
    ]);
  });

  it('names the cause in one line when a message sent to the model differs', async () => {
    const client = createReplayClient({ cassette: cassette([line(gather1, reply('x')), line(gather2, reply('y'))]) });
    const live = structuredClone(gather2);
    live.messages[2] = userText('Go on, please.');
    const error = (await client.complete(live).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error.kind).toBe('replay');
    expect(error.message).toMatch(
      /^replay: the cassette has no answer for gather\/worker turn 2: message 3 of the conversation differs from the recording: "on\." recorded, "on, please\." now \(.*run\.jsonl:2\)$/,
    );
    expect(error.message).not.toContain('\n');
  });

  it('names a changed objective of a commander as a changed input', async () => {
    const recorded = request({ trace: { task: 'research', agent: 'commander', turn: 1 }, messages: [userText('Write three facts about tide pools to notes.md.')] });
    const client = createReplayClient({ cassette: cassette([line(recorded, reply('x'))]) });
    const live = request({ trace: { task: 'research', agent: 'commander', turn: 1 }, messages: [userText('Write three facts about volcanoes to notes.md.')] });
    const error = (await client.complete(live).catch((e: unknown) => e)) as ModelCallError;
    expect(error.message).toContain('the task objective differs from the recording: "tide pools" recorded, "volcanoes" now (a mission input changed?');
  });

  it('reports a changed tool list by name', async () => {
    const client = createReplayClient({ cassette: cassette([line(gather1, reply('x'))]) });
    const live = request({ tools: [] });
    const error = (await client.complete(live).catch((e: unknown) => e)) as ModelCallError;
    expect(error.message).toContain('the tools offered differ from the recording (recorded get_weather, now none;');
  });

  it('replays a conversation whose tool results differ from the recording (ids, times)', async () => {
    const withResult = (text: string, isError: boolean): ModelRequest =>
      request({
        trace: { task: 'gather', agent: 'worker', turn: 2 },
        messages: [
          userText('What time is it?'),
          { role: 'assistant', parts: [{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } }] },
          { role: 'user', parts: [{ type: 'tool_result', toolUseId: 'call_1', content: [{ type: 'text', text }], isError }] },
        ],
      });
    const client = createReplayClient({ cassette: cassette([line(withResult('12:00:01 id=abc', false), reply('noon'))]) });
    const response = await client.complete(withResult('12:07:55 id=xyz', true));
    expect(response.message.parts).toEqual([{ type: 'text', text: 'noon' }]);
  });

  it('still compares what the model said: a different tool call is a mismatch', async () => {
    const calling = (name: string): ModelRequest =>
      request({
        trace: { task: 'gather', agent: 'worker', turn: 2 },
        messages: [userText('Go.'), { role: 'assistant', parts: [{ type: 'tool_use', id: 'call_1', name, input: {} }] }],
      });
    const client = createReplayClient({ cassette: cassette([line(calling('get_weather'), reply('x'))]) });
    const error = (await client.complete(calling('get_time')).catch((e: unknown) => e)) as ModelCallError;
    expect(error.message).toContain(`the model's earlier reply (message 2) differs from the recording: "get_weather" recorded, "get_time" now`);
  });

  it('accepts any request for an entry recorded without one', async () => {
    const client = createReplayClient({ cassette: cassette([line(gather1, reply('anything'), false)]) });
    const response = await client.complete(request({ system: 'a different prompt' }));
    expect(response.message.parts).toEqual([{ type: 'text', text: 'anything' }]);
  });

  it('fails loudly, naming the trace and the cassette, when no entry exists', async () => {
    const file = cassette([line(gather1, reply('x'))]);
    const client = createReplayClient({ cassette: file });
    const error = (await client.complete(report1).catch((e: unknown) => e)) as ModelCallError;
    expect(error.message).toBe(`replay: no cassette entry for report/commander turn 1 in ${file}`);
  });

  it('serves repeated entries of one trace in file order, then fails', async () => {
    const file = cassette([line(gather1, reply('first')), line(gather1, reply('second'))]);
    const client = createReplayClient({ cassette: file });
    expect((await client.complete(gather1)).message.parts).toEqual([{ type: 'text', text: 'first' }]);
    expect((await client.complete(gather1)).message.parts).toEqual([{ type: 'text', text: 'second' }]);
    const error = (await client.complete(gather1).catch((e: unknown) => e)) as ModelCallError;
    expect(error.message).toBe(`replay: no further cassette entry for gather/worker turn 1 in ${file} (2 already played)`);
  });

  it('rejects a malformed cassette line with its file and line number', async () => {
    const file = cassette([line(gather1, reply('x')), '{"v":1,"trace":{"task":"t","agent":"a","turn":0},"response":{}}']);
    const client = createReplayClient({ cassette: file });
    const error = (await client.complete(gather1).catch((e: unknown) => e)) as ModelCallError;
    expect(error.message).toMatch(new RegExp(`^replay: cassette ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2 is not a valid entry: trace\\.turn: `));
  });

  it('reports a missing cassette file', async () => {
    const client = createReplayClient({ cassette: join(dir, 'absent.jsonl') });
    const error = (await client.complete(gather1).catch((e: unknown) => e)) as ModelCallError;
    expect(error.message).toBe(`replay: cannot read cassette ${join(dir, 'absent.jsonl')} (ENOENT)`);
  });

  it('returns a copy, so a caller mutating the response cannot change a later replay', async () => {
    const file = cassette([line(gather1, reply('a')), line(gather1, reply('a'))]);
    const client = createReplayClient({ cassette: file });
    const first = await client.complete(gather1);
    first.message.parts.length = 0;
    const second = await client.complete(gather1);
    expect(second.message.parts).toHaveLength(1);
  });
});

describe('firstDifference', () => {
  it('shows long strings around their first difference', () => {
    const base = 'x'.repeat(200);
    const found = firstDifference({ s: `${base}A tail` }, { s: `${base}B tail` });
    expect(found).toEqual({ path: 's', keys: ['s'], expected: `"…${'x'.repeat(20)}A tail"`, got: `"…${'x'.repeat(20)}B tail"` });
  });

  it('reports missing and extra keys, type changes and no difference', () => {
    expect(firstDifference({ a: 1 }, {})).toEqual({ path: 'a', keys: ['a'], expected: '1', got: '(missing)' });
    expect(firstDifference({}, { 'odd key': true })).toEqual({ path: '["odd key"]', keys: ['odd key'], expected: '(missing)', got: 'true' });
    expect(firstDifference({ a: [1] }, { a: '1' })).toEqual({ path: 'a', keys: ['a'], expected: '[1]', got: '"1"' });
    expect(firstDifference({ a: [1, { b: undefined }] }, { a: [1, {}] })).toBeUndefined();
  });
});
