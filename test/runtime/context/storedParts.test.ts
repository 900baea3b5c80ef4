// A resumed session parses only the stored parts its next request sends or a cut's head is made
// from (and reads no row a stored cut dropped), and sends exactly what a session holding its whole
// conversation would: the same request, estimate and stored cut, with a large window, a compaction,
// a pruning, and rows holding a secret (whose size is only known once they are parsed).

import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { ContextSettings } from '../../../config/graph.js';
import { AgentSession, loadHistory } from '../../../runtime/session/session.js';
import type { SessionDeps } from '../../../runtime/session/sessionTypes.js';
import { Toolbox } from '../../../runtime/tools/toolbox.js';
import { contextPolicy } from '../../../runtime/context/policy.js';
import { SessionContext } from '../../../runtime/context/sessionContext.js';
import { EventBus } from '../../../runtime/kernel/events.js';
import type { ModelClient, ModelRequest, Part } from '../../../runtime/providers/types.js';
import { inputUpperBound } from '../../../runtime/budget/estimate.js';
import { createSecretRedactor, openStore, type Store } from '../../../store/index.js';
import { messageChecksum } from '../../../store/rowChecksum.js';
import { freshStore, seedSession } from '../../store/fixtures.js';
import { gatedClient, UNGATED } from '../../../runtime/model/modelCall.js';

const SECRET = 'sk-test-0123456789abcdefghijklmnopqrstuv';
const redactor = () => createSecretRedactor([{ name: 'vars.key', value: SECRET }]);
const TURNS = 40;
const text = (n: number, seed: string) => `${seed} `.repeat(Math.ceil(n / (seed.length + 1))).slice(0, n);

/** A stored session of 40 tool-calling turns (two instructions, a secret in a few rows), cut off after a tool result. */
async function storedSession(): Promise<{ path: string; runId: string; sessionId: string }> {
  const store = freshStore({ redactor: redactor() });
  const { runId, sessionId } = await seedSession(store);
  const append = (role: 'user' | 'assistant', parts: Part[], turn: number, kind?: string) =>
    store.messages.append(sessionId, { role, parts, turn, ...(kind ? { kind } : {}) });
  await append('user', [{ type: 'text', text: 'Read every page.' }], 1, 'instruction');
  for (let t = 1; t <= TURNS; t++) {
    const secret = t % 9 === 0 ? ` ${SECRET}` : '';
    await append('assistant', [
      { type: 'text', text: `${text(300, `reasoning ${t}`)}${secret}` },
      { type: 'tool_use', id: `call_${t}`, name: 'look', input: { page: t, note: 'é ✓ "quoted"' } },
    ], t);
    await store.turns.record({ runId, task: 'research', sessionId, turn: t, model: 'm', usage: { inputTokens: 200 * t, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0, durationMs: 1, stopReason: 'tool_use' });
    const resultSecret = t % 7 === 0 || t === TURNS ? ` ${SECRET}` : '';
    await append('user', [{ type: 'tool_result', toolUseId: `call_${t}`, isError: false, content: [{ type: 'text', text: `${text(600, `page ${t}`)}${resultSecret}` }] }], t, 'tool_results');
    if (t === 20) await append('user', [{ type: 'text', text: 'Now the second half.' }], t, 'instruction');
  }
  const path = store.path;
  await store.close();
  return { path, runId, sessionId };
}

/** Resumes the stored session (its history read whole first, or not) and returns the request it sends and the cut it stored. */
async function resume(path: string, ids: { runId: string; sessionId: string }, settings: ContextSettings | undefined, wholeHistory: boolean) {
  const store: Store = openStore(path, { redactor: redactor() });
  try {
    const requests: ModelRequest[] = [];
    // The estimate as the budget gate and the next check make it (from stored sizes where known).
    let estimate = 0;
    const client: ModelClient = {
      provider: 'anthropic',
      complete: async (request) => {
        requests.push(request);
        estimate = inputUpperBound(request);
        return { message: { role: 'assistant', parts: [{ type: 'text', text: 'done' }] }, stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }, model: 'm' };
      },
    };
    const model = { apiModel: 'm', label: 'fake.m', maxOutputTokens: 1000, contextWindow: 200_000, contextWindowVia: 'catalog' as const };
    const look = { ref: 'tools.look', definition: { name: 'look', description: 'look', inputSchema: { type: 'object' } }, onInterrupted: 'report' as const, execute: async () => ({ content: [], isError: false }) };
    const deps: SessionDeps = {
      store,
      bus: new EventBus(),
      client: gatedClient(client, model, UNGATED),
      runId: ids.runId,
      task: 'research',
      agent: 'worker',
      sessionId: ids.sessionId,
      model,
      systemPrompt: 'You are a worker.',
      toolbox: new Toolbox([look]),
      maxTurns: 1000,
      resultMaxTokens: 16_000,
      context: await SessionContext.open(store, ids.sessionId, contextPolicy({ settings, via: 'agent' }, model)),
      signal: new AbortController().signal,
      requireToolCall: false,
    };
    const session = await AgentSession.restore(deps, wholeHistory ? await loadHistory(store, ids.sessionId) : undefined);
    expect(await session.run()).toEqual({ kind: 'answer', text: 'done' });
    const views = (await store.contextViews.list(ids.sessionId)).map(({ createdAt: _, ...view }) => view);
    expect(requests).toHaveLength(1);
    return { request: JSON.stringify(requests[0]), views, estimate };
  } finally {
    await store.close();
  }
}

const policies: [string, ContextSettings | undefined, number][] = [
  ['a window that holds it all', undefined, 0],
  ['a compaction', { compaction: { tokenLimit: 6_000, turnRetention: 3 } }, 1],
  ['a pruning', { pruning: { pruneOn: 30, pruneTo: 5 } }, 1],
];

describe('a resumed session reading its stored parts as needed', () => {
  for (const [name, settings, cuts] of policies) {
    it(`sends what a session holding its whole conversation sends, with ${name}`, async () => {
      const ids = await storedSession();
      const copy = join(ids.path, '..', 'copy.db');
      copyFileSync(ids.path, copy);
      const whole = await resume(ids.path, ids, settings, true);
      const lazy = await resume(copy, ids, settings, false);
      expect(whole.views).toHaveLength(cuts);
      expect(lazy.views).toEqual(whole.views);
      expect(lazy.request).toEqual(whole.request);
      expect(lazy.estimate).toBe(whole.estimate);
      expect(lazy.request).toContain(SECRET);
    });
  }

  it('sizes rows stored before their size was kept (migration 0014) from the rows, and sends the same', async () => {
    const ids = await storedSession();
    const copy = join(ids.path, '..', 'copy.db');
    copyFileSync(ids.path, copy);
    const raw = new Database(copy);
    const unsized = raw.prepare('UPDATE messages SET parts_bytes = NULL WHERE session_id = ?').run(ids.sessionId).changes;
    raw.close();
    expect(unsized).toBeGreaterThan(80);
    const whole = await resume(ids.path, ids, policies[1]![1], true);
    const lazy = await resume(copy, ids, policies[1]![1], false);
    expect(lazy.views).toEqual(whole.views);
    expect(lazy.request).toEqual(whole.request);
    expect(lazy.estimate).toBe(whole.estimate);
  });

  it('never reads the tool results a compaction drops', async () => {
    const ids = await storedSession();
    const copy = join(ids.path, '..', 'copy.db');
    copyFileSync(ids.path, copy);
    const whole = await resume(ids.path, ids, policies[1]![1], true);
    // Every dropped tool result without a secret is made unreadable, its checksum still vouching for
    // it (its size too): reading any of them would fail.
    const raw = new Database(copy);
    const rows = raw.prepare("SELECT id, parts_json FROM messages WHERE session_id = ? AND kind = 'tool_results' AND seq < 60 AND instr(parts_json, '[REDACTED:') = 0").all(ids.sessionId) as { id: number; parts_json: string }[];
    const edit = raw.prepare('UPDATE messages SET parts_json = ?, checksum = ? WHERE id = ?');
    for (const row of rows) {
      const broken = `{${row.parts_json.slice(1)}`;
      edit.run(broken, messageChecksum('user', 'tool_results', null, broken), row.id);
    }
    raw.close();
    expect(rows.length).toBeGreaterThan(20);
    await expect(resume(copy, ids, undefined, false)).rejects.toThrow(/JSON/);
    // The copy above stored nothing before failing; compacted, the same session resumes as before.
    const lazy = await resume(copy, ids, policies[1]![1], false);
    expect(lazy.views).toEqual(whole.views);
    expect(lazy.request).toEqual(whole.request);
  });

  it('resumes a session holding a stored cut reading only the messages the cut keeps', async () => {
    const ids = await storedSession();
    const broken = join(ids.path, '..', 'broken.db');
    const compaction = policies[1]![1];
    // A first resume compacts (and answers); the session is then given a new instruction.
    await resume(ids.path, ids, compaction, false);
    const store = openStore(ids.path, { redactor: redactor() });
    await store.messages.append(ids.sessionId, { role: 'user', parts: [{ type: 'text', text: 'One more page.' }], turn: TURNS + 2, kind: 'instruction' });
    const [view] = await store.contextViews.list(ids.sessionId);
    await store.close();
    copyFileSync(ids.path, broken);
    // Every message the cut dropped is damaged (no checksum, not JSON): reading any of them fails.
    const raw = new Database(broken);
    const damaged = raw.prepare("UPDATE messages SET parts_json = 'not json', checksum = NULL WHERE session_id = ? AND seq < ?").run(ids.sessionId, view!.keepFrom).changes;
    raw.close();
    expect(damaged).toBeGreaterThan(70);
    const check = openStore(broken);
    await expect(loadHistory(check, ids.sessionId)).rejects.toThrow(/parts_json/);
    await check.close();
    const whole = await resume(ids.path, ids, compaction, true);
    const lazy = await resume(broken, ids, compaction, false);
    expect(lazy.views).toEqual(whole.views);
    expect(lazy.views).toHaveLength(1);
    expect(lazy.request).toEqual(whole.request);
    expect(lazy.estimate).toBe(whole.estimate);
  });
});
