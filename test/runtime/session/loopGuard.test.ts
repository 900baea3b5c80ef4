// The loop guards' watch, kept up message by message, judges as the guards did when they re-read the
// whole conversation every turn (the reference below), on many random conversations.

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../core/canonicalJson.js';
import { LoopWatch, type RepeatVerdict } from '../../../runtime/session/loopGuard.js';
import type { SessionMessage } from '../../../runtime/session/sessionTypes.js';
import type { ToolResultPart, ToolUsePart } from '../../../runtime/providers/types.js';

/** The guards as they were: read from the whole conversation each time. */
function reference(messages: readonly SessionMessage[], max: number): { repeated: Omit<RepeatVerdict, 'answers'> & { corrected?: string[] }; idle: number } {
  const key = (c: ToolUsePart) => `${c.name}\u0000${canonicalJson(c.input)}`;
  const sequence = messages.flatMap((m) => (m.role === 'assistant' ? m.parts.filter((p): p is ToolUsePart => p.type === 'tool_use') : []));
  const last = messages[messages.length - 1];
  const pending = last?.role === 'assistant' ? last.parts.filter((p) => p.type === 'tool_use').length : 0;
  let repeated: ReturnType<typeof reference>['repeated'] = { kind: 'ok' };
  const corrected: string[] = [];
  for (let i = sequence.length - pending; i < sequence.length; i++) {
    const call = sequence[i]!;
    let count = 1;
    for (let j = i - 1; j >= 0 && key(sequence[j]!) === key(call); j--) count += 1;
    if (count > max) {
      repeated = { kind: 'stop', tool: call.name, count } as typeof repeated;
      break;
    }
    if (count === max) {
      corrected.push(call.id);
      repeated = { kind: 'correct', tool: call.name, count, corrected } as typeof repeated;
    }
  }
  const seen = new Set<string>();
  let idle = 0;
  for (const m of messages) {
    if (m.role !== 'user' || m.kind !== 'tool_results') continue;
    let fresh = false;
    for (const part of m.parts as ToolResultPart[]) {
      const digest = createHash('sha256').update(canonicalJson(part.content)).update(part.isError ? '1' : '0').digest('base64');
      if (!seen.has(digest)) fresh = seen.add(digest) !== undefined;
    }
    idle = fresh ? 0 : idle + 1;
  }
  return { repeated, idle };
}

/** A seeded generator, so a failure names a conversation that can be rebuilt. */
function random(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
}

/** A conversation of `turns` model turns drawing calls and results from small pools, so repeats happen. */
function conversation(seed: number, turns: number): SessionMessage[] {
  const pick = random(seed);
  const messages: SessionMessage[] = [{ role: 'user', parts: [{ type: 'text', text: 'go' }], kind: 'instruction' }];
  let id = 0;
  for (let t = 0; t < turns; t++) {
    const calls: ToolUsePart[] = Array.from({ length: 1 + pick(3) }, () => ({
      type: 'tool_use',
      id: `c${++id}`,
      name: pick(4) === 0 ? 'fetch' : 'clock',
      // Same arguments in a different key order: the guard compares them as equal.
      input: pick(2) === 0 ? { zone: 'UTC', page: pick(2) } : { page: pick(2), zone: 'UTC' },
    }));
    messages.push({ role: 'assistant', parts: [{ type: 'text', text: 'working' }, ...calls] });
    const results: ToolResultPart[] = calls.map((c) => ({ type: 'tool_result', toolUseId: c.id, isError: pick(5) === 0, content: [{ type: 'text', text: `result ${pick(6)}` }] }));
    messages.push({ role: 'user', parts: results, kind: 'tool_results' });
    if (pick(10) === 0) messages.push({ role: 'user', parts: [{ type: 'text', text: 'again' }], kind: 'instruction' }, { role: 'assistant', parts: [{ type: 'text', text: 'ok' }] });
  }
  return messages;
}

describe('LoopWatch', () => {
  it('judges repeated calls and turns without progress as a re-read of the whole conversation would, turn by turn', () => {
    let verdicts = { ok: 0, correct: 0, stop: 0 };
    for (let seed = 1; seed <= 40; seed++) {
      const messages = conversation(seed, 30);
      const max = 2 + (seed % 3);
      const watch = new LoopWatch();
      for (const [i, message] of messages.entries()) {
        watch.observe(message);
        const upTo = messages.slice(0, i + 1);
        const expected = reference(upTo, max);
        expect(watch.turnsWithoutProgress(), `seed ${seed}, message ${i}`).toBe(expected.idle);
        const calls = message.role === 'assistant' ? message.parts.filter((p): p is ToolUsePart => p.type === 'tool_use') : [];
        if (calls.length === 0) continue;
        const got = watch.repeatedCalls(calls, { maxRepeatedCalls: max });
        const shown = got.kind === 'correct' ? { kind: got.kind, tool: got.tool, count: got.count, corrected: [...got.answers.keys()] } : got.kind === 'stop' ? { kind: got.kind, tool: got.tool, count: got.count } : got;
        expect(shown, `seed ${seed}, message ${i}`).toEqual(expected.repeated);
        verdicts = { ...verdicts, [got.kind]: verdicts[got.kind] + 1 };
        // A watch made at once from the conversation so far (as a resumed session makes it) agrees.
        expect(LoopWatch.over(upTo).repeatedCalls(calls, { maxRepeatedCalls: max }).kind).toBe(got.kind);
        expect(LoopWatch.over(upTo).turnsWithoutProgress()).toBe(expected.idle);
      }
    }
    // The conversations exercised every verdict.
    expect(verdicts.ok).toBeGreaterThan(0);
    expect(verdicts.correct).toBeGreaterThan(0);
    expect(verdicts.stop).toBeGreaterThan(0);
  });
});
