// Property test of compaction and pruning over 500 generated sessions, each checked at every turn
// (about 10,000 requests; tool calls, parallel calls, thinking blocks, images, corrections, several
// instructions): whatever the limits, every request a session sends starts with a user message,
// alternates roles, never holds a tool_result without its tool_use in the message before it nor a
// tool_use without its result in the message after it, still carries the latest instruction, keeps
// its newest model turns verbatim (at most turn_retention; prune_to exactly), and never holds more
// tokens than token_limit (the provider's count is drawn per session at 20–100% of the upper-bound
// estimate) unless it holds a single model turn, which cannot be cut, and fits the window. A
// commander's compacted head carries its Commander State.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionDeps, SessionMessage } from '../../../runtime/session/sessionTypes.js';
import { contextPolicy } from '../../../runtime/context/policy.js';
import { SessionContext } from '../../../runtime/context/sessionContext.js';
import { EventBus } from '../../../runtime/kernel/events.js';
import type { Message, ModelRequest, Part } from '../../../runtime/providers/types.js';
import { inputUpperBound } from '../../../runtime/budget/estimate.js';
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
  tokensPerEstimate: fc.double({ min: 0.2, max: 1, noNaN: true }),
  commander: fc.boolean(),
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
  const store = { contextViews, turns: { record: async () => {}, lastInputTokens: async () => undefined } } as unknown as Store;
  (store as { transaction: unknown }).transaction = async <T>(fn: (tx: Store) => Promise<T>) => fn(store);
  return store;
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

interface SimPolicy {
  tokenLimit: number;
  turnRetention: number;
  pruning: { pruneOn: number; pruneTo: number } | undefined;
  /** The provider's tokens per estimated token in this session (the estimate is an upper bound). */
  tokensPerEstimate: number;
  commander: boolean;
}

const SYSTEM = 'You are a worker.';
const TOOLS = [{ name: 'tool_0', description: 'A tool.', inputSchema: { type: 'object' } }];

async function simulate(turns: TurnShape[], p: SimPolicy): Promise<number> {
  const store = memoryStore();
  const settings = { compaction: { tokenLimit: p.tokenLimit, turnRetention: p.turnRetention }, ...(p.pruning ? { pruning: p.pruning } : {}) };
  const policy = contextPolicy({ settings, via: 'agent' }, { contextWindow: 200_000, contextWindowVia: 'catalog', maxOutputTokens: 8192 });
  const context = await SessionContext.open(store, 'ses_1', policy);
  const toolbox = { visibleNames: () => (p.commander ? ['call_agent', 'submit_output', 'task_complete'] : ['tool_0']) };
  const deps = { sessionId: 'ses_1', task: 't', agent: 'worker', runId: 'run_1', bus: new EventBus(), store, toolbox, requireToolCall: p.commander } as unknown as SessionDeps;
  let instruction = 'Task 0: start the work.';
  const messages: SessionMessage[] = [{ role: 'user', parts: [{ type: 'text', text: instruction }], kind: 'instruction' }];
  let cuts = 0;
  let views = 0;
  for (const [n, shape] of turns.entries()) {
    const build = (): ModelRequest => ({ model: 'm', system: SYSTEM, messages: context.requestMessages(messages), tools: TOOLS, maxOutputTokens: 8192, trace: { task: 't', agent: 'worker', turn: n + 1 } });
    const prepared = await context.prepare(deps, messages, n + 1, build);
    if (prepared.kind === 'failed') throw new Error(prepared.reason);
    const request = prepared.request.messages;
    checkRequest(request, instruction);
    // The provider's figure for the request: at most its estimate, cached tokens included.
    const tokens = Math.ceil(inputUpperBound(prepared.request) * p.tokensPerEstimate);
    const assistantsSent = request.filter((m) => m.role === 'assistant').length;
    // No request passes the limit, unless it holds a single model turn (which cannot be cut) and fits the window.
    if (tokens > p.tokenLimit) expect(assistantsSent).toBeLessThanOrEqual(1);
    expect(tokens).toBeLessThanOrEqual(200_000 - 8192);
    const latest = await store.contextViews.latest('ses_1');
    if (latest !== undefined && latest.seq > views) {
      views = latest.seq;
      cuts += 1;
      // Retention: the newest turns are sent verbatim; a compaction keeps fewer only when the limit asks.
      const keep = latest.kind === 'compaction' ? p.turnRetention : p.pruning!.pruneTo;
      const sent = request.slice(1);
      const assistants = messages.filter((m) => m.role === 'assistant');
      const keptAssistants = sent.filter((m) => m.role === 'assistant');
      expect(keptAssistants.length).toBeLessThanOrEqual(Math.min(keep, assistants.length));
      if (latest.kind === 'pruning') expect(keptAssistants.length).toBe(Math.min(keep, assistants.length));
      if (keptAssistants.length > 0) expect(keptAssistants).toEqual(assistants.slice(-keptAssistants.length).map((m) => ({ role: m.role, parts: m.parts })));
      const head = (request[0]!.parts[0] as { text: string }).text;
      if (latest.kind === 'compaction') expect(head.includes('## Commander State')).toBe(p.commander);
    }
    const parts: Part[] = [];
    if (shape.thinking) parts.push({ type: 'thinking', text: `thinking ${n}`, signature: `sig-${n}` });
    if (shape.text || shape.calls === 0) parts.push({ type: 'text', text: `reply ${n}` });
    for (let c = 0; c < shape.calls; c++) parts.push({ type: 'tool_use', id: `call_${n}_${c}`, name: p.commander ? 'call_agent' : `tool_${c}`, input: { n, name: 'worker', task: `part ${n}` } });
    const reply: SessionMessage = { role: 'assistant', parts };
    const usage = { inputTokens: Math.floor(tokens / 3), cacheReadTokens: tokens - Math.floor(tokens / 3), cacheWriteTokens: 0, outputTokens: 10 };
    context.noteReply(prepared.request, messages.length, usage);
    messages.push(reply);
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
  it('compacts instead of pruning when the pruned head outweighs the short turns it drops (a case the property found)', async () => {
    const turn = (thinking: boolean, calls: number): TurnShape => ({ thinking, text: false, calls, image: false, next: 'instruction', size: 10 });
    const policy = { tokensPerEstimate: 0.646830530401035, commander: true, tokenLimit: 1000, turnRetention: 1, pruning: { pruneOn: 3, pruneTo: 2 } };
    expect(await simulate([turn(false, 0), turn(true, 0), turn(true, 2), turn(false, 0)], policy)).toBeGreaterThan(0);
  });

  it('never orphan a tool pair, never drop the task, never pass the limit, and keep the retained turns verbatim', async () => {
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
