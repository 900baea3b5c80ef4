// Property test of compaction and pruning over 500 generated sessions, each checked at every turn
// (about 10,000 requests; tool calls, parallel calls, thinking blocks, images, corrections, several
// instructions): whatever the limits, every request a session sends starts with a user message,
// alternates roles, never holds a tool_result without its tool_use in the message before it nor a
// tool_use without its result in the message after it, still carries the latest instruction, and
// keeps the last turn_retention (or prune_to) model turns verbatim.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionDeps, SessionMessage } from '../../../runtime/agents/sessionTypes.js';
import { contextPolicy } from '../../../runtime/context/policy.js';
import { SessionContext } from '../../../runtime/context/sessionContext.js';
import { EventBus } from '../../../runtime/events.js';
import type { Message, Part } from '../../../runtime/providers/types.js';
import type { ContextViewRow, NewContextView, Store } from '../../../store/index.js';

/** One model turn as generated: what the reply holds, and what the runtime sends back. */
interface TurnShape {
  thinking: boolean;
  text: boolean;
  calls: number;
  image: boolean;
  /** After a reply without calls: a new instruction follows, or a correction. */
  next: 'instruction' | 'correction';
  size: number;
}

const turnArb: fc.Arbitrary<TurnShape> = fc.record({
  thinking: fc.boolean(),
  text: fc.boolean(),
  calls: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3 })),
  image: fc.boolean(),
  next: fc.constantFrom('instruction' as const, 'correction' as const),
  size: fc.integer({ min: 10, max: 4000 }),
});

const policyArb = fc.record({
  tokenLimit: fc.integer({ min: 1_000, max: 12_000 }),
  turnRetention: fc.integer({ min: 1, max: 6 }),
  pruning: fc.option(fc.integer({ min: 2, max: 10 }).chain((on) => fc.record({ pruneOn: fc.constant(on), pruneTo: fc.integer({ min: 1, max: on - 1 }) })), { nil: undefined }),
});

/** A store holding only what the session context reads and writes. */
function memoryStore(): Store {
  const views: ContextViewRow[] = [];
  const contextViews = {
    record: async (sessionId: string, v: NewContextView) => {
      const row: ContextViewRow = { ...v, sessionId, seq: views.length + 1, createdAt: '2026-01-01T00:00:00.000Z' };
      views.push(row);
      return row;
    },
    latest: async () => views.at(-1),
    list: async () => [...views],
  };
  return { contextViews, turns: { record: async () => {} } } as unknown as Store;
}

function bytesOf(messages: readonly Message[]): number {
  return JSON.stringify(messages).length;
}

function checkRequest(request: Message[], latestInstruction: string): void {
  expect(request[0]?.role).toBe('user');
  for (let i = 1; i < request.length; i++) expect(request[i]!.role).not.toBe(request[i - 1]!.role);
  for (let i = 0; i < request.length; i++) {
    const m = request[i]!;
    const uses = m.parts.filter((p) => p.type === 'tool_use').map((p) => (p as { id: string }).id);
    const results = m.parts.filter((p) => p.type === 'tool_result').map((p) => (p as { toolUseId: string }).toolUseId);
    if (results.length > 0) {
      const before = request[i - 1];
      expect(before?.role).toBe('assistant');
      const called = before!.parts.filter((p) => p.type === 'tool_use').map((p) => (p as { id: string }).id);
      for (const id of results) expect(called).toContain(id);
    }
    if (uses.length > 0 && i < request.length - 1) {
      const answered = request[i + 1]!.parts.filter((p) => p.type === 'tool_result').map((p) => (p as { toolUseId: string }).toolUseId);
      expect(answered.sort()).toEqual([...uses].sort());
    }
  }
  expect(JSON.stringify(request)).toContain(JSON.stringify(latestInstruction).slice(1, -1));
}

async function simulate(turns: TurnShape[], p: { tokenLimit: number; turnRetention: number; pruning: { pruneOn: number; pruneTo: number } | undefined }): Promise<number> {
  const store = memoryStore();
  const settings = { compaction: { tokenLimit: p.tokenLimit, turnRetention: p.turnRetention }, ...(p.pruning ? { pruning: p.pruning } : {}) };
  const policy = contextPolicy({ settings, via: 'agent' }, { contextWindow: 200_000, contextWindowVia: 'catalog', maxOutputTokens: 8192 });
  const context = await SessionContext.open(store, 'ses_1', policy);
  const deps = { sessionId: 'ses_1', task: 't', agent: 'worker', runId: 'run_1', bus: new EventBus() } as unknown as SessionDeps;
  let instruction = 'Task 0: start the work.';
  const messages: SessionMessage[] = [{ role: 'user', parts: [{ type: 'text', text: instruction }], kind: 'instruction' }];
  let cuts = 0;
  for (const [n, shape] of turns.entries()) {
    const request = context.requestMessages(messages);
    checkRequest(request, instruction);
    const parts: Part[] = [];
    if (shape.thinking) parts.push({ type: 'thinking', text: `thinking ${n}`, signature: `sig-${n}` });
    if (shape.text || shape.calls === 0) parts.push({ type: 'text', text: `reply ${n}` });
    for (let c = 0; c < shape.calls; c++) parts.push({ type: 'tool_use', id: `call_${n}_${c}`, name: `tool_${c}`, input: { n } });
    const reply: SessionMessage = { role: 'assistant', parts };
    // The provider's figure for the request just made: its size, cached tokens included.
    const tokens = Math.ceil(bytesOf(request) / 4);
    const usage = { inputTokens: Math.floor(tokens / 3), cacheReadTokens: tokens - Math.floor(tokens / 3), cacheWriteTokens: 0, outputTokens: 10 };
    const cut = await context.afterReply(deps, messages, reply, usage, n + 1);
    messages.push(reply);
    if (cut) {
      cuts += 1;
      (await context.record(deps, cut, n + 1, store, messages.length))();
      // Retention: the newest turns are sent verbatim.
      const keep = cut.view.kind === 'compaction' ? p.turnRetention : p.pruning!.pruneTo;
      const sent = context.requestMessages(messages).slice(1);
      const assistants = messages.filter((m) => m.role === 'assistant');
      const keptAssistants = sent.filter((m) => m.role === 'assistant');
      expect(keptAssistants.length).toBe(Math.min(keep, assistants.length));
      expect(keptAssistants).toEqual(assistants.slice(-keptAssistants.length).map((m) => ({ role: m.role, parts: m.parts })));
    }
    if (shape.calls > 0) {
      const results: Part[] = parts
        .filter((x) => x.type === 'tool_use')
        .map((use) => ({
          type: 'tool_result' as const,
          toolUseId: (use as { id: string }).id,
          isError: false,
          content: shape.image ? [{ type: 'image' as const, mediaType: 'image/png', data: 'iVBORw0' }] : [{ type: 'text' as const, text: 'x'.repeat(shape.size) }],
        }));
      messages.push({ role: 'user', parts: results, kind: 'tool_results' });
    } else if (shape.next === 'instruction') {
      instruction = `Task ${n + 1}: go on with part ${n + 1}.`;
      messages.push({ role: 'user', parts: [{ type: 'text', text: instruction }], kind: 'instruction' });
    } else {
      messages.push({ role: 'user', parts: [{ type: 'text', text: 'Call a tool.' }], kind: 'correction' });
    }
  }
  checkRequest(context.requestMessages(messages), instruction);
  return cuts;
}

describe('compaction and pruning over generated sessions', () => {
  it('never orphan a tool pair, never drop the task, and keep the retained turns verbatim', async () => {
    let cutSessions = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(turnArb, { minLength: 1, maxLength: 40 }), policyArb, async (turns, policy) => {
        if ((await simulate(turns, policy)) > 0) cutSessions += 1;
      }),
      { numRuns: 500 },
    );
    // The generator must exercise cuts, or the property says nothing.
    expect(cutSessions).toBeGreaterThan(100);
  });
});
