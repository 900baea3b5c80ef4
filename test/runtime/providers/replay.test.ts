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
    expect(response).toEqual(reply('Sunny.'));
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

  it('names the first diverging path and both values when the live request differs', async () => {
    const client = createReplayClient({ cassette: cassette([line(gather1, reply('x')), line(gather2, reply('y'))]) });
    const live = structuredClone(gather2);
    live.messages[2] = userText('Go on, please.');
    const error = (await client.complete(live).catch((e: unknown) => e)) as ModelCallError;
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error.kind).toBe('replay');
    expect(error.message).toMatch(
      /^replay: request for gather\/worker turn 2 diverges from the cassette at messages\[2\]\.parts\[0\]\.text: expected "Go on\." got "Go on, please\." \(.*run\.jsonl:2\)$/,
    );
  });

  it('reports a changed tool list by path', async () => {
    const client = createReplayClient({ cassette: cassette([line(gather1, reply('x'))]) });
    const live = request({ tools: [] });
    const error = (await client.complete(live).catch((e: unknown) => e)) as ModelCallError;
    expect(error.message).toContain('diverges from the cassette at tools[0]: expected {"description":"Current weather');
    expect(error.message).toContain('got (nothing)');
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
    expect(found).toEqual({ path: 's', expected: `"…${'x'.repeat(20)}A tail"`, got: `"…${'x'.repeat(20)}B tail"` });
  });

  it('reports missing and extra keys, type changes and no difference', () => {
    expect(firstDifference({ a: 1 }, {})).toEqual({ path: 'a', expected: '1', got: '(missing)' });
    expect(firstDifference({}, { 'odd key': true })).toEqual({ path: '["odd key"]', expected: '(missing)', got: 'true' });
    expect(firstDifference({ a: [1] }, { a: '1' })).toEqual({ path: 'a', expected: '[1]', got: '"1"' });
    expect(firstDifference({ a: [1, { b: undefined }] }, { a: [1, {}] })).toBeUndefined();
  });
});
