import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore, StoreError } from '../../store/index.js';
import { freshStore, seedSession } from './fixtures.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('runs', () => {
  it('creates a running run with a run_ id of 20 base32 characters and an ISO start time', async () => {
    const store = freshStore();
    const run = await store.runs.create({ mission: 'research', configPath: '/p/m.hcl', inputs: { topic: 'owls' } });
    expect(run.id).toMatch(/^run_[a-z2-7]{20}$/);
    expect(run).toMatchObject({ mission: 'research', configPath: '/p/m.hcl', status: 'running', inputs: { topic: 'owls' } });
    expect(run.startedAt).toMatch(ISO);
    expect(run.finishedAt).toBeUndefined();
    expect(await store.runs.get(run.id)).toEqual(run);
    expect(await store.runs.get('run_nope')).toBeUndefined();
  });

  it('sets finished_at for terminal states and clears it (and the error) when running again', async () => {
    let t = Date.parse('2025-01-01T00:00:00.000Z');
    const store = freshStore({ clock: () => t });
    const run = await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} });
    t += 1500;
    await store.runs.setStatus(run.id, 'interrupted', 'SIGINT');
    expect(await store.runs.get(run.id)).toMatchObject({ status: 'interrupted', error: 'SIGINT', finishedAt: '2025-01-01T00:00:01.500Z' });
    await store.runs.setStatus(run.id, 'running');
    const resumed = await store.runs.get(run.id);
    expect(resumed?.status).toBe('running');
    expect(resumed?.finishedAt).toBeUndefined();
    expect(resumed?.error).toBeUndefined();
    await expect(store.runs.setStatus('run_nope', 'failed')).rejects.toThrow(StoreError);
  });

  it('lists newest first with usage totals, cost and task counts, filtered by mission', async () => {
    let t = Date.parse('2025-01-01T00:00:00.000Z');
    const store = freshStore({ clock: () => (t += 1000) });
    const { runId: older, sessionId } = await seedSession(store);
    await store.turns.record({ runId: older, task: 'research', sessionId, turn: 1, model: 'x', usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 2, cacheWriteTokens: 1 }, costUsd: 0.25, durationMs: 12.7, stopReason: 'end_turn' });
    await store.tasks.complete(older, 'research', { summary: 'done' });
    const newer = await store.runs.create({ mission: 'other', configPath: '/c.hcl', inputs: {} });
    const all = await store.runs.list();
    expect(all.map((r) => r.id)).toEqual([newer.id, older]);
    expect(all[1]?.totals).toEqual({ inputTokens: 10, outputTokens: 5, cacheReadTokens: 2, cacheWriteTokens: 1, costUsd: 0.25, turns: 1 });
    expect(all[1]?.tasks).toEqual({ total: 1, completed: 1, failed: 0 });
    expect(all[0]?.totals.turns).toBe(0);
    expect((await store.runs.list({ mission: 'm' })).map((r) => r.id)).toEqual([older]);
    expect((await store.runs.list({ limit: 1 })).map((r) => r.id)).toEqual([newer.id]);
  });

  it('finds the latest run of a mission for the same config file', async () => {
    let t = Date.parse('2025-01-01T00:00:00.000Z');
    const store = freshStore({ clock: () => (t += 10) });
    await store.runs.create({ mission: 'm', configPath: '/a.hcl', inputs: {} });
    const latest = await store.runs.create({ mission: 'm', configPath: '/a.hcl', inputs: {} });
    await store.runs.create({ mission: 'm', configPath: '/b.hcl', inputs: {} });
    expect((await store.runs.latestForMission('m', '/a.hcl'))?.id).toBe(latest.id);
    expect(await store.runs.latestForMission('m', '/none.hcl')).toBeUndefined();
  });
});

describe('tasks', () => {
  it('ensure creates a pending task once and returns the same row afterwards', async () => {
    const store = freshStore();
    const run = await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} });
    const first = await store.tasks.ensure(run.id, 'fetch');
    expect(first.id).toMatch(/^tsk_[a-z2-7]{20}$/);
    expect(first.status).toBe('pending');
    await store.tasks.markRunning(run.id, 'fetch');
    expect(await store.tasks.ensure(run.id, 'fetch')).toMatchObject({ id: first.id, status: 'running' });
    await store.tasks.ensure(run.id, 'analyze');
    expect((await store.tasks.list(run.id)).map((t) => t.name)).toEqual(['fetch', 'analyze']);
  });

  it('records completion with summary, output and route, and failure with its error', async () => {
    const store = freshStore();
    const run = await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} });
    await store.tasks.ensure(run.id, 'a');
    await store.tasks.markRunning(run.id, 'a');
    await store.tasks.complete(run.id, 'a', { summary: 'found 3', output: { count: 3 }, route: 'b' });
    expect(await store.tasks.get(run.id, 'a')).toMatchObject({ status: 'completed', summary: 'found 3', output: { count: 3 }, route: 'b' });
    expect((await store.tasks.get(run.id, 'a'))?.finishedAt).toMatch(ISO);
    await store.tasks.ensure(run.id, 'c');
    await store.tasks.complete(run.id, 'c', { summary: 'null output', output: null });
    expect((await store.tasks.get(run.id, 'c'))?.output).toBeNull();
    await store.tasks.ensure(run.id, 'b');
    await store.tasks.markRunning(run.id, 'b');
    await store.tasks.fail(run.id, 'b', 'boom');
    expect(await store.tasks.get(run.id, 'b')).toMatchObject({ status: 'failed', error: 'boom' });
    await store.tasks.markRunning(run.id, 'b');
    expect(await store.tasks.get(run.id, 'b')).toMatchObject({ status: 'running', error: undefined, finishedAt: undefined });
    await store.tasks.setStatus(run.id, 'b', 'cancelled');
    expect((await store.tasks.get(run.id, 'b'))?.finishedAt).toMatch(ISO);
    await expect(store.tasks.markRunning(run.id, 'ghost')).rejects.toThrow(/no task ghost/);
  });
});

describe('sessions', () => {
  it('open returns the existing row for the same (run, task, agent)', async () => {
    const store = freshStore();
    const { runId, sessionId } = await seedSession(store);
    const again = await store.sessions.open({ runId, task: 'research', agent: 'worker', role: 'agent', model: 'other', systemPrompt: 'changed', tools: [], skills: [] });
    expect(again.id).toBe(sessionId);
    expect(again).toMatchObject({ model: 'claude', systemPrompt: 'You are a worker.', tools: ['builtins.http.get'], status: 'running' });
    expect(again.id).toMatch(/^ses_[a-z2-7]{20}$/);
    const commander = await store.sessions.open({ runId, task: 'research', agent: 'commander', role: 'commander', model: 'c', systemPrompt: 'lead', tools: [], skills: [] });
    expect(commander.id).not.toBe(sessionId);
    expect((await store.sessions.listForRun(runId)).map((s) => s.agent)).toEqual(['worker', 'commander']);
    expect((await store.sessions.get(runId, 'research', 'commander'))?.id).toBe(commander.id);
  });

  it('keeps the answer undelivered until marked, and tracks status', async () => {
    const store = freshStore();
    const { sessionId } = await seedSession(store);
    await store.sessions.setAnswer(sessionId, 'the answer');
    expect(await store.sessions.byId(sessionId)).toMatchObject({ answer: 'the answer', answerDelivered: false });
    await store.sessions.markAnswerDelivered(sessionId);
    expect((await store.sessions.byId(sessionId))?.answerDelivered).toBe(true);
    await store.sessions.setAnswer(sessionId, 'a newer answer');
    expect(await store.sessions.byId(sessionId)).toMatchObject({ answer: 'a newer answer', answerDelivered: false });
    await store.sessions.setStatus(sessionId, 'completed');
    expect((await store.sessions.byId(sessionId))?.finishedAt).toMatch(ISO);
    await store.sessions.setStatus(sessionId, 'running');
    expect((await store.sessions.byId(sessionId))?.finishedAt).toBeUndefined();
  });

  it('remembers loaded tools once each, in load order', async () => {
    const store = freshStore();
    const { sessionId } = await seedSession(store);
    for (const ref of ['mcp.fs.read_file', 'builtins.http.get', 'mcp.fs.read_file', 'tools.weather']) await store.sessions.addLoadedTool(sessionId, ref);
    expect(await store.sessions.loadedTools(sessionId)).toEqual(['mcp.fs.read_file', 'builtins.http.get', 'tools.weather']);
  });
});

describe('messages', () => {
  it('appends with consecutive seq numbers and lists them in order with parts parsed', async () => {
    const store = freshStore();
    const { sessionId } = await seedSession(store);
    const other = (await seedSession(store, 'analyst')).sessionId;
    const a = await store.messages.append(sessionId, { role: 'user', parts: [{ type: 'text', text: 'go' }], turn: 1, kind: 'instruction', callId: 'toolu_1' });
    await store.messages.append(other, { role: 'user', parts: [{ type: 'text', text: 'elsewhere' }], turn: 1 });
    const b = await store.messages.append(sessionId, { role: 'assistant', parts: [{ type: 'tool_use', id: 't1', name: 'x', input: {} }], turn: 1 });
    const c = await store.messages.append(sessionId, { role: 'user', parts: [{ type: 'tool_result', toolUseId: 't1', content: [{ type: 'text', text: 'ok' }], isError: false }], turn: 1, kind: 'tool_results' });
    expect([a.seq, b.seq, c.seq]).toEqual([1, 2, 3]);
    const listed = await store.messages.list(sessionId);
    expect(listed.map((m) => m.seq)).toEqual([1, 2, 3]);
    expect(listed[0]).toMatchObject({ role: 'user', kind: 'instruction', callId: 'toolu_1', parts: [{ type: 'text', text: 'go' }] });
    expect(listed[1]?.kind).toBeUndefined();
    expect(listed[2]?.parts[0]).toEqual({ type: 'tool_result', toolUseId: 't1', content: [{ type: 'text', text: 'ok' }], isError: false });
    expect(await store.messages.count(sessionId)).toBe(3);
    expect(await store.messages.count(other)).toBe(1);
  });

  it('keeps part fields it does not know (added to the contract later)', async () => {
    const store = freshStore();
    const { sessionId } = await seedSession(store);
    const part = { type: 'thinking' as const, text: '', redactedData: 'abc', providerId: 'rs_1' };
    await store.messages.append(sessionId, { role: 'assistant', parts: [part], turn: 1 });
    expect((await store.messages.list(sessionId))[0]?.parts).toEqual([part]);
  });

  it('refuses to read back a message whose parts were corrupted outside the store', async () => {
    const store = freshStore();
    const { sessionId } = await seedSession(store);
    await store.messages.append(sessionId, { role: 'user', parts: [{ type: 'text', text: 'hi' }], turn: 1 });
    const raw = new Database(store.path);
    raw.prepare(`UPDATE messages SET parts_json = '[{"type":"text"}]'`).run();
    raw.close();
    await expect(store.messages.list(sessionId)).rejects.toThrow(/messages \d+ parts_json/);
  });
});

describe('ledger', () => {
  const start = (sessionId: string, callId = 'toolu_1') => ({ sessionId, callId, toolRef: 'builtins.http.get', apiName: 'builtins_http_get', input: { url: 'https://example.com' }, idempotent: true });

  it('records a call as started before its result and completed after', async () => {
    const store = freshStore();
    const { sessionId } = await seedSession(store);
    await store.ledger.recordStarted(start(sessionId));
    expect(await store.ledger.get(sessionId, 'toolu_1')).toMatchObject({ status: 'started', toolRef: 'builtins.http.get', apiName: 'builtins_http_get', input: { url: 'https://example.com' }, idempotent: true, result: undefined, finishedAt: undefined });
    await store.ledger.recordCompleted(sessionId, 'toolu_1', { content: [{ type: 'text', text: '200 OK' }], isError: false, resources: [{ kind: 'resource', uri: 'file:///a', text: 'A' }] });
    const done = await store.ledger.get(sessionId, 'toolu_1');
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: '200 OK' }], isError: false, resources: [{ kind: 'resource', uri: 'file:///a', text: 'A' }] } });
    expect(done?.finishedAt).toMatch(ISO);
    expect(await store.ledger.get(sessionId, 'toolu_other')).toBeUndefined();
  });

  it('ignores a repeated start and keeps the first result of a call', async () => {
    const store = freshStore();
    const { sessionId } = await seedSession(store);
    await store.ledger.recordStarted(start(sessionId));
    await store.ledger.recordStarted({ ...start(sessionId), input: { url: 'changed' }, idempotent: false });
    await store.ledger.recordCompleted(sessionId, 'toolu_1', { content: [{ type: 'text', text: 'first' }], isError: true });
    await store.ledger.recordCompleted(sessionId, 'toolu_1', { content: [{ type: 'text', text: 'second' }], isError: false });
    const row = await store.ledger.get(sessionId, 'toolu_1');
    expect(row).toMatchObject({ input: { url: 'https://example.com' }, idempotent: true, result: { content: [{ type: 'text', text: 'first' }], isError: true } });
    await store.ledger.recordStarted({ ...start(sessionId, 'toolu_2'), idempotent: false });
    expect((await store.ledger.listForSession(sessionId)).map((r) => [r.callId, r.status, r.idempotent])).toEqual([
      ['toolu_1', 'completed', true],
      ['toolu_2', 'started', false],
    ]);
  });

  it('refuses a result for a call that was never started', async () => {
    const store = freshStore();
    const { sessionId } = await seedSession(store);
    await expect(store.ledger.recordCompleted(sessionId, 'ghost', { content: [], isError: false })).rejects.toThrow(/completed without being started/);
  });
});

describe('turns', () => {
  it('sums usage and cost per run and per session', async () => {
    const store = freshStore();
    const { runId, sessionId } = await seedSession(store);
    const commander = (await store.sessions.open({ runId, task: 'research', agent: 'commander', role: 'commander', model: 'c', systemPrompt: '', tools: [], skills: [] })).id;
    const usage = (n: number) => ({ inputTokens: n, outputTokens: 2 * n, cacheReadTokens: 3 * n, cacheWriteTokens: 4 * n });
    await store.turns.record({ runId, task: 'research', sessionId, turn: 1, model: 'x', usage: usage(1), costUsd: 0.1, durationMs: 5, stopReason: 'tool_use' });
    await store.turns.record({ runId, task: 'research', sessionId, turn: 2, model: 'x', usage: usage(10), costUsd: 0.2, durationMs: 5, stopReason: 'end_turn' });
    await store.turns.record({ runId, task: 'research', sessionId: commander, turn: 1, model: 'y', usage: usage(100), costUsd: 1, durationMs: 5, stopReason: 'tool_use' });
    const total = await store.turns.totalsForRun(runId);
    expect(total).toMatchObject({ inputTokens: 111, outputTokens: 222, cacheReadTokens: 333, cacheWriteTokens: 444, turns: 3 });
    expect(total.costUsd).toBeCloseTo(1.3, 10);
    const bySession = await store.turns.totalsBySession(runId);
    expect(bySession.get(sessionId)).toMatchObject({ inputTokens: 11, turns: 2 });
    expect(bySession.get(commander)).toMatchObject({ inputTokens: 100, turns: 1, costUsd: 1 });
    const emptyRun = (await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} })).id;
    expect(await store.turns.totalsForRun(emptyRun)).toEqual({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0, turns: 0 });
    expect((await store.turns.totalsBySession(emptyRun)).size).toBe(0);
  });
});

describe('events', () => {
  it('lists a run’s events in order and continues after a given id', async () => {
    const store = freshStore();
    const { runId, sessionId } = await seedSession(store);
    const other = (await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} })).id;
    await store.events.append({ runId, type: 'task.started', task: 'research', data: { n: 1 } });
    await store.events.append({ runId: other, type: 'noise', data: null });
    await store.events.appendMany([
      { runId, type: 'tool.started', task: 'research', sessionId, data: { n: 2 } },
      { runId, type: 'tool.finished', task: 'research', sessionId, data: { n: 3 } },
    ]);
    const all = await store.events.list(runId);
    expect(all.map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(all[1]).toMatchObject({ type: 'tool.started', task: 'research', sessionId });
    expect(all[0]?.sessionId).toBeUndefined();
    expect((await store.events.list(runId, { afterId: all[0]?.id })).map((e) => e.type)).toEqual(['tool.started', 'tool.finished']);
    expect((await store.events.list(runId, { limit: 1 })).map((e) => e.type)).toEqual(['task.started']);
  });

  it('appendMany writes all events or none', async () => {
    const store = freshStore();
    const { runId } = await seedSession(store);
    await expect(store.events.appendMany([{ runId, type: 'ok', data: 1 }, { runId: 'run_missing', type: 'bad', data: 2 }])).rejects.toThrow(/FOREIGN KEY/);
    expect(await store.events.list(runId)).toEqual([]);
  });
});

describe('routes', () => {
  it('the first decision for a target wins', async () => {
    const store = freshStore();
    const run = await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} });
    expect(await store.routes.record(run.id, 'triage', 'fix', 'route')).toBe(true);
    expect(await store.routes.record(run.id, 'review', 'fix', 'send_to')).toBe(false);
    expect(await store.routes.record(run.id, 'triage', 'notify', 'send_to')).toBe(true);
    expect((await store.routes.list(run.id)).map((r) => [r.from, r.to, r.kind])).toEqual([
      ['triage', 'fix', 'route'],
      ['triage', 'notify', 'send_to'],
    ]);
  });
});

describe('transactions', () => {
  it('rolls back every write of a failed transaction', async () => {
    const store = freshStore();
    const { sessionId } = await seedSession(store);
    await expect(
      store.transaction(async (tx) => {
        await tx.messages.append(sessionId, { role: 'assistant', parts: [{ type: 'text', text: 'x' }], turn: 1 });
        await tx.ledger.recordStarted({ sessionId, callId: 'c', toolRef: 'r', apiName: 'r', input: {}, idempotent: true });
        throw new Error('crash between writes');
      }),
    ).rejects.toThrow('crash between writes');
    expect(await store.messages.count(sessionId)).toBe(0);
    expect(await store.ledger.get(sessionId, 'c')).toBeUndefined();
    expect(await store.transaction(async (tx) => (await tx.messages.append(sessionId, { role: 'user', parts: [], turn: 1 })).seq)).toBe(1);
  });

  it('makes committed writes visible to a second connection (another process reading the run)', async () => {
    const store = freshStore();
    const { sessionId } = await seedSession(store);
    await store.messages.append(sessionId, { role: 'user', parts: [{ type: 'text', text: 'hello' }], turn: 1 });
    const reader = openStore(store.path);
    expect((await reader.messages.list(sessionId)).map((m) => m.parts)).toEqual([[{ type: 'text', text: 'hello' }]]);
    await reader.close();
  });
});
