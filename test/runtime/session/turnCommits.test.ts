// How a model turn becomes durable, seen from another connection (only committed rows): the reply, its
// usage and the starts of its calls are one commit made before the first tool runs; the results are
// the second. A reply the session leaves before its calls run (the run stopping) is stored all the
// same, so a spent call's usage is never lost once its reply was received.

import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { AgentSession } from '../../../runtime/session/session.js';
import { RunInterrupted, type SessionDeps, type SessionMessage } from '../../../runtime/session/sessionTypes.js';
import { Toolbox, type SessionTool } from '../../../runtime/tools/toolbox.js';
import { SessionContext } from '../../../runtime/context/sessionContext.js';
import { contextPolicy } from '../../../runtime/context/policy.js';
import { EventBus } from '../../../runtime/kernel/events.js';
import type { ModelClient, ModelResponse } from '../../../runtime/providers/types.js';
import type { Store } from '../../../store/index.js';
import { freshStore, seedSession } from '../../store/fixtures.js';
import { gatedClient, UNGATED } from '../../../runtime/model/modelCall.js';

const usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 };
const callingReply: ModelResponse = {
  message: { role: 'assistant', parts: [{ type: 'tool_use', id: 'c1', name: 'look', input: {} }] },
  stopReason: 'tool_use',
  usage,
  model: 'm',
};
const answer: ModelResponse = { message: { role: 'assistant', parts: [{ type: 'text', text: 'done' }] }, stopReason: 'end_turn', usage, model: 'm' };

interface Seen {
  messages: number;
  turns: number;
  ledger: string[];
}

/** A session over a real store whose `transaction` calls are counted; `replies` answer the model calls in order. */
async function setup(replies: (() => ModelResponse)[], tool: SessionTool) {
  const store = freshStore();
  const { runId, sessionId } = await seedSession(store);
  await store.messages.append(sessionId, { role: 'user', parts: [{ type: 'text', text: 'look once' }], turn: 1, kind: 'instruction' });
  const observer = new Database(store.path, { readonly: true });
  const seen = (): Seen => ({
    messages: (observer.prepare('SELECT COUNT(*) AS n FROM messages WHERE session_id = ?').get(sessionId) as { n: number }).n,
    turns: (observer.prepare('SELECT COUNT(*) AS n FROM model_turns WHERE session_id = ?').get(sessionId) as { n: number }).n,
    ledger: (observer.prepare('SELECT status FROM tool_calls WHERE session_id = ?').all(sessionId) as { status: string }[]).map((r) => r.status),
  });
  let transactions = 0;
  const counted = Object.create(store) as Store;
  counted.transaction = (fn) => {
    transactions += 1;
    return store.transaction(fn);
  };
  const client: ModelClient = {
    provider: 'anthropic',
    complete: async () => {
      const next = replies.shift();
      if (!next) throw new Error('no reply scripted');
      return next();
    },
  };
  const model = { apiModel: 'm', label: 'fake.m', maxOutputTokens: 1000, contextWindow: 200_000, contextWindowVia: 'catalog' as const };
  const controller = new AbortController();
  const deps: SessionDeps = {
    store: counted,
    bus: new EventBus(),
    client: gatedClient(client, model, UNGATED),
    runId,
    task: 'research',
    agent: 'worker',
    sessionId,
    model,
    systemPrompt: 'You are a worker.',
    toolbox: new Toolbox([tool]),
    maxTurns: 10,
    resultMaxTokens: 16_000,
    context: await SessionContext.open(store, sessionId, contextPolicy({ settings: undefined, via: 'agent' }, model)),
    signal: controller.signal,
    requireToolCall: false,
  };
  const history: SessionMessage[] = [{ role: 'user', parts: [{ type: 'text', text: 'look once' }], kind: 'instruction' }];
  const session = await AgentSession.restore(deps, history);
  return { session, seen, transactions: () => transactions, controller, close: () => observer.close() };
}

function lookTool(onRun: () => void): SessionTool {
  return {
    ref: 'tools.look',
    definition: { name: 'look', description: 'look', inputSchema: { type: 'object' } },
    onInterrupted: 'report',
    execute: async () => {
      onRun();
      return { content: [{ type: 'text', text: 'seen' }], isError: false };
    },
  };
}

describe('a model turn with a tool call', () => {
  it('commits the reply with its usage and the start of its call before the tool runs, then the results: two commits', async () => {
    let atRun: Seen | undefined;
    let transactionsAtRun = 0;
    const t = await setup([() => callingReply, () => answer], lookTool(() => {
      atRun = t.seen();
      transactionsAtRun = t.transactions();
    }));
    const before = t.transactions();
    const outcome = await t.session.run();
    expect(outcome).toEqual({ kind: 'answer', text: 'done' });
    // Instruction and reply, the reply's turn, the call started: all committed when the tool runs, in one transaction.
    expect(atRun).toEqual({ messages: 2, turns: 1, ledger: ['started'] });
    expect(transactionsAtRun - before).toBe(1);
    // The results, then the answer turn.
    expect(t.seen()).toEqual({ messages: 4, turns: 2, ledger: ['completed'] });
    expect(t.transactions() - before).toBe(3);
    t.close();
  });

  it('stores the reply and its usage when the run stops before its call runs, and runs nothing', async () => {
    let runs = 0;
    const t = await setup(
      [
        () => {
          // The stop arrives while the reply is on its way: the call must not run, the spend must be kept.
          t.controller.abort();
          return callingReply;
        },
      ],
      lookTool(() => (runs += 1)),
    );
    await expect(t.session.run()).rejects.toBeInstanceOf(RunInterrupted);
    expect(runs).toBe(0);
    expect(t.seen()).toEqual({ messages: 2, turns: 1, ledger: [] });
    t.close();
  });
});
