// The repositories' contract, held by every backend: ids, idempotency (first result wins, ensure,
// open returning the existing row), list orders, totals, relabel, transactions.

import { describe, expect, it } from 'vitest';
import { createSecretRedactor, StoreError, storedPartsBytes } from '../../../store/index.js';
import { seedSession, useBackends } from './backends.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each(useBackends())('$name store', (backend) => {
  describe('runs', () => {
    it('creates a running run with a run_ id of 20 base32 characters and an ISO start time', async () => {
      const store = await backend.fresh();
      const run = await store.runs.create({ mission: 'research', configPath: '/p/m.hcl', inputs: { topic: 'owls' } });
      expect(run.id).toMatch(/^run_[a-z2-7]{20}$/);
      expect(run).toMatchObject({ mission: 'research', configPath: '/p/m.hcl', status: 'running', inputs: { topic: 'owls' }, options: {}, configChanges: [] });
      expect(run.startedAt).toMatch(ISO);
      expect(run.finishedAt).toBeUndefined();
      expect(run.config).toBeUndefined();
      expect(await store.runs.get(run.id)).toEqual(run);
      expect(await store.runs.get('run_nope')).toBeUndefined();
      const given = await store.runs.create({ id: 'run_given', mission: 'm', configPath: '/c.hcl', inputs: {}, options: { maxTurns: 3 } });
      expect(given).toMatchObject({ id: 'run_given', options: { maxTurns: 3 } });
    });

    it('stores the start time the clock gives, to the millisecond', async () => {
      const store = await backend.fresh({ clock: () => Date.parse('2025-03-04T05:06:07.089Z') });
      const run = await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} });
      expect(run.startedAt).toBe('2025-03-04T05:06:07.089Z');
      expect((await store.runs.get(run.id))?.startedAt).toBe('2025-03-04T05:06:07.089Z');
    });

    it('sets finished_at for terminal states and clears it (and the error) when running again', async () => {
      let t = Date.parse('2025-01-01T00:00:00.000Z');
      const store = await backend.fresh({ clock: () => t });
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

    it('stores a run stopped by its budget, with its reason, and runs it again on resume', async () => {
      const store = await backend.fresh();
      const run = await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} });
      await store.runs.setStatus(run.id, 'stopped', 'the mission budget cannot afford the next model call');
      expect(await store.runs.get(run.id)).toMatchObject({ status: 'stopped', error: 'the mission budget cannot afford the next model call' });
      expect((await store.runs.list({ limit: 5 })).map((r) => r.status)).toEqual(['stopped']);
      await store.runs.setStatus(run.id, 'running');
      expect(await store.runs.get(run.id)).toMatchObject({ status: 'running' });
    });

    it('records the run budget on its row, read back by get and list (undefined until recorded)', async () => {
      const store = await backend.fresh();
      const run = await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} });
      expect((await store.runs.get(run.id))?.budget).toBeUndefined();
      const budget = { limits: { mission: { dollars: 2.5, duration: 60_000 }, fetch: { tokens: 1000 } }, elapsed: { mission: 1234, fetch: 0 }, since: '2025-01-01T00:00:00.000Z' };
      await store.runs.setBudget(run.id, budget);
      expect((await store.runs.get(run.id))?.budget).toEqual(budget);
      await store.runs.setBudget(run.id, { limits: {}, elapsed: {} });
      expect((await store.runs.list({ limit: 1 }))[0]?.budget).toEqual({ limits: {}, elapsed: {} });
      await expect(store.runs.setBudget('run_nope', { limits: {}, elapsed: {} })).rejects.toThrow(StoreError);
    });

    it('lists newest first with usage totals, cost and task counts, filtered by mission', async () => {
      let t = Date.parse('2025-01-01T00:00:00.000Z');
      const store = await backend.fresh({ clock: () => (t += 1000) });
      const { runId: older, sessionId } = await seedSession(store);
      await store.turns.record({ runId: older, task: 'research', sessionId, turn: 1, model: 'x', usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 2, cacheWriteTokens: 1 }, costUsd: 0.25, durationMs: 12.7, stopReason: 'end_turn' });
      await store.tasks.complete(older, 'research', { summary: 'done' });
      await store.tasks.ensure(older, 'broken');
      await store.tasks.fail(older, 'broken', 'boom');
      const newer = await store.runs.create({ mission: 'other', configPath: '/c.hcl', inputs: {} });
      const all = await store.runs.list();
      expect(all.map((r) => r.id)).toEqual([newer.id, older]);
      expect(all[1]?.totals).toEqual({ inputTokens: 10, outputTokens: 5, cacheReadTokens: 2, cacheWriteTokens: 1, costUsd: 0.25, turns: 1 });
      expect(all[1]?.tasks).toEqual({ total: 2, completed: 1, failed: 1 });
      expect(all[0]?.totals).toEqual({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0, turns: 0 });
      expect(all[0]?.tasks).toEqual({ total: 0, completed: 0, failed: 0 });
      expect((await store.runs.list({ mission: 'm' })).map((r) => r.id)).toEqual([older]);
      expect((await store.runs.list({ limit: 1 })).map((r) => r.id)).toEqual([newer.id]);
      expect((await store.runs.list({ mission: 'm', limit: 1 })).map((r) => r.id)).toEqual([older]);
    });

    it('lists runs started in the same millisecond newest first', async () => {
      const store = await backend.fresh({ clock: () => Date.parse('2025-01-01T00:00:00.000Z') });
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} })).id);
      expect((await store.runs.list()).map((r) => r.id)).toEqual([...ids].reverse());
      expect((await store.runs.latestForMission('m', '/c.hcl'))?.id).toBe(ids[4]);
    });

    it('finds the latest run of a mission for the same config file', async () => {
      let t = Date.parse('2025-01-01T00:00:00.000Z');
      const store = await backend.fresh({ clock: () => (t += 10) });
      await store.runs.create({ mission: 'm', configPath: '/a.hcl', inputs: {} });
      const latest = await store.runs.create({ mission: 'm', configPath: '/a.hcl', inputs: {} });
      await store.runs.create({ mission: 'm', configPath: '/b.hcl', inputs: {} });
      expect((await store.runs.latestForMission('m', '/a.hcl'))?.id).toBe(latest.id);
      expect(await store.runs.latestForMission('m', '/none.hcl')).toBeUndefined();
    });

    it('replaces the config and variables and appends each recorded change', async () => {
      const store = await backend.fresh({ clock: () => Date.parse('2025-02-02T00:00:00.000Z') });
      const run = await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {}, config: { files: { 'a.hcl': 'h1' } }, variables: { values: { region: 'eu' }, secrets: ['token'] } });
      expect(run).toMatchObject({ config: { files: { 'a.hcl': 'h1' } }, variables: { values: { region: 'eu' }, secrets: ['token'] } });
      await store.runs.updateConfig(run.id, { config: { files: { 'a.hcl': 'h2' } }, variables: { values: {}, secrets: [] } });
      expect(await store.runs.get(run.id)).toMatchObject({ config: { files: { 'a.hcl': 'h2' } }, variables: { values: {}, secrets: [] }, configChanges: [] });
      await store.runs.updateConfig(run.id, { config: { files: { 'a.hcl': 'h3' } }, variables: { values: {}, secrets: [] }, changes: ['a.hcl changed'] });
      await store.runs.updateConfig(run.id, { config: { files: { 'a.hcl': 'h4' } }, variables: { values: {}, secrets: [] }, changes: ['a.hcl changed again'] });
      expect((await store.runs.get(run.id))?.configChanges).toEqual([
        { at: '2025-02-02T00:00:00.000Z', changes: ['a.hcl changed'] },
        { at: '2025-02-02T00:00:00.000Z', changes: ['a.hcl changed again'] },
      ]);
      await expect(store.runs.updateConfig('run_nope', { config: { files: {} }, variables: { values: {}, secrets: [] } })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  describe('tasks', () => {
    it('ensure creates a pending task once and returns the same row afterwards, listed in creation order', async () => {
      const store = await backend.fresh();
      const run = await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} });
      const first = await store.tasks.ensure(run.id, 'fetch');
      expect(first.id).toMatch(/^tsk_[a-z2-7]{20}$/);
      expect(first).toMatchObject({ status: 'pending', attempt: 1, startedAt: undefined });
      await store.tasks.markRunning(run.id, 'fetch');
      expect(await store.tasks.ensure(run.id, 'fetch')).toMatchObject({ id: first.id, status: 'running' });
      const names = ['analyze', 'write', 'a-first-by-name', 'review', 'zz', 'b'];
      for (const name of names) await store.tasks.ensure(run.id, name);
      await store.tasks.complete(run.id, 'analyze', { summary: 'updated after creation' });
      expect((await store.tasks.list(run.id)).map((t) => t.name)).toEqual(['fetch', ...names]);
      expect(await store.tasks.get(run.id, 'ghost')).toBeUndefined();
    });

    it('records completion with summary, output and route, and failure with its error', async () => {
      const store = await backend.fresh();
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
      await store.tasks.setStatus(run.id, 'b', 'pending');
      expect((await store.tasks.get(run.id, 'b'))?.finishedAt).toBeUndefined();
      await expect(store.tasks.markRunning(run.id, 'ghost')).rejects.toThrow(/no task ghost/);
      await expect(store.tasks.complete(run.id, 'ghost', { summary: '' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(store.tasks.fail(run.id, 'ghost', '')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(store.tasks.setStatus(run.id, 'ghost', 'skipped')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('keeps the first start time across retries, and retry counts attempts of a failed task only', async () => {
      let t = Date.parse('2025-01-01T00:00:00.000Z');
      const store = await backend.fresh({ clock: () => t });
      const run = await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} });
      await store.tasks.ensure(run.id, 'a');
      await store.tasks.markRunning(run.id, 'a');
      await store.tasks.fail(run.id, 'a', 'boom');
      expect(await store.tasks.retry(run.id, 'a')).toBe(2);
      expect(await store.tasks.get(run.id, 'a')).toMatchObject({ status: 'pending', attempt: 2, error: undefined, finishedAt: undefined });
      await expect(store.tasks.retry(run.id, 'a')).rejects.toThrow(/no failed task a/);
      t += 5000;
      await store.tasks.markRunning(run.id, 'a');
      expect((await store.tasks.get(run.id, 'a'))?.startedAt).toBe('2025-01-01T00:00:00.000Z');
    });
  });

  describe('sessions', () => {
    it('open returns the existing row for the same (run, task, agent)', async () => {
      const store = await backend.fresh();
      const { runId, sessionId } = await seedSession(store);
      const again = await store.sessions.open({ runId, task: 'research', agent: 'worker', role: 'agent', model: 'other', systemPrompt: 'changed', tools: [], skills: [] });
      expect(again.id).toBe(sessionId);
      expect(again).toMatchObject({ model: 'claude', systemPrompt: 'You are a worker.', tools: ['builtins.http.get'], skills: [], status: 'running', role: 'agent', answerDelivered: false });
      expect(again.id).toMatch(/^ses_[a-z2-7]{20}$/);
      const commander = await store.sessions.open({ runId, task: 'research', agent: 'commander', role: 'commander', model: 'c', systemPrompt: 'lead', tools: [], skills: [] });
      expect(commander.id).not.toBe(sessionId);
      expect((await store.sessions.listForRun(runId)).map((s) => s.agent)).toEqual(['worker', 'commander']);
      expect((await store.sessions.get(runId, 'research', 'commander'))?.id).toBe(commander.id);
      expect(await store.sessions.get(runId, 'research', 'nobody')).toBeUndefined();
      expect(await store.sessions.byId('ses_nope')).toBeUndefined();
    });

    it('lists sessions opened in the same millisecond in creation order', async () => {
      const store = await backend.fresh({ clock: () => Date.parse('2025-01-01T00:00:00.000Z') });
      const run = await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} });
      const agents = ['zeta', 'alpha', 'mu', 'beta', 'omega'];
      for (const agent of agents) await store.sessions.open({ runId: run.id, task: 't', agent, role: 'agent', model: 'x', systemPrompt: '', tools: [], skills: [] });
      expect((await store.sessions.listForRun(run.id)).map((s) => s.agent)).toEqual(agents);
    });

    it('keeps the answer undelivered until marked, and tracks status', async () => {
      const store = await backend.fresh();
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
      await expect(store.sessions.setStatus('ses_nope', 'failed')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(store.sessions.setAnswer('ses_nope', 'x')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(store.sessions.markAnswerDelivered('ses_nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('relabels the sessions of a task so its next attempt opens fresh ones', async () => {
      const store = await backend.fresh();
      const { runId, sessionId } = await seedSession(store);
      const commander = await store.sessions.open({ runId, task: 'research', agent: 'commander', role: 'commander', model: 'c', systemPrompt: '', tools: [], skills: [] });
      expect(await store.sessions.relabel(runId, 'research', 'research#1')).toBe(2);
      expect(await store.sessions.relabel(runId, 'nothing', 'nothing#1')).toBe(0);
      expect((await store.sessions.get(runId, 'research#1', 'worker'))?.id).toBe(sessionId);
      expect((await store.sessions.get(runId, 'research#1', 'commander'))?.id).toBe(commander.id);
      expect(await store.sessions.get(runId, 'research', 'worker')).toBeUndefined();
      const fresh = await store.sessions.open({ runId, task: 'research', agent: 'worker', role: 'agent', model: 'x', systemPrompt: '', tools: [], skills: [] });
      expect(fresh.id).not.toBe(sessionId);
      expect((await store.sessions.listForRun(runId)).map((s) => [s.task, s.agent])).toEqual([
        ['research#1', 'worker'],
        ['research#1', 'commander'],
        ['research', 'worker'],
      ]);
    });

    it('remembers loaded tools once each, in load order', async () => {
      const store = await backend.fresh({ clock: () => Date.parse('2025-01-01T00:00:00.000Z') });
      const { sessionId } = await seedSession(store);
      for (const ref of ['mcp.fs.read_file', 'builtins.http.get', 'mcp.fs.read_file', 'tools.weather', 'a.first.by.name']) await store.sessions.addLoadedTool(sessionId, ref);
      expect(await store.sessions.loadedTools(sessionId)).toEqual(['mcp.fs.read_file', 'builtins.http.get', 'tools.weather', 'a.first.by.name']);
      expect(await store.sessions.loadedTools('ses_other')).toEqual([]);
    });
  });

  describe('messages', () => {
    it('appends with consecutive seq numbers and lists them in order with parts parsed', async () => {
      const store = await backend.fresh();
      const { sessionId } = await seedSession(store);
      const other = (await seedSession(store, 'analyst')).sessionId;
      const a = await store.messages.append(sessionId, { role: 'user', parts: [{ type: 'text', text: 'go' }], turn: 1, kind: 'instruction', callId: 'toolu_1' });
      await store.messages.append(other, { role: 'user', parts: [{ type: 'text', text: 'elsewhere' }], turn: 1 });
      const b = await store.messages.append(sessionId, { role: 'assistant', parts: [{ type: 'tool_use', id: 't1', name: 'x', input: {} }], turn: 1 });
      const c = await store.messages.append(sessionId, { role: 'user', parts: [{ type: 'tool_result', toolUseId: 't1', content: [{ type: 'text', text: 'ok' }], isError: false }], turn: 1, kind: 'tool_results' });
      expect([a.seq, b.seq, c.seq]).toEqual([1, 2, 3]);
      expect(a).toMatchObject({ sessionId, role: 'user', turn: 1, kind: 'instruction', callId: 'toolu_1' });
      expect(a.createdAt).toMatch(ISO);
      const listed = await store.messages.list(sessionId);
      expect(listed.map((m) => m.seq)).toEqual([1, 2, 3]);
      expect(listed[0]).toEqual(a);
      expect(listed[0]).toMatchObject({ role: 'user', kind: 'instruction', callId: 'toolu_1', parts: [{ type: 'text', text: 'go' }] });
      expect(listed[1]?.kind).toBeUndefined();
      expect(listed[2]?.parts[0]).toEqual({ type: 'tool_result', toolUseId: 't1', content: [{ type: 'text', text: 'ok' }], isError: false });
      expect(await store.messages.count(sessionId)).toBe(3);
      expect(await store.messages.count(other)).toBe(1);
      expect(await store.messages.count('ses_none')).toBe(0);
    });

    it('keeps part fields it does not know, and the key order and escapes of what it stored', async () => {
      const store = await backend.fresh();
      const { sessionId } = await seedSession(store);
      const part = { type: 'thinking' as const, text: 'z \u0000 nul, é', redactedData: 'abc', providerId: 'rs_1' };
      const input = { zeta: 1, alpha: { y: 2, b: 3 } };
      await store.messages.append(sessionId, { role: 'assistant', parts: [part, { type: 'tool_use', id: 't', name: 'n', input }], turn: 1 });
      const [message] = await store.messages.list(sessionId);
      expect(message?.parts).toEqual([part, { type: 'tool_use', id: 't', name: 'n', input }]);
      const used = message?.parts[1];
      expect(used?.type === 'tool_use' ? JSON.stringify(used.input) : undefined).toBe('{"zeta":1,"alpha":{"y":2,"b":3}}');
    });

    it('lists a session from a given seq on, and its heads without parts', async () => {
      const store = await backend.fresh();
      const { sessionId } = await seedSession(store);
      const other = (await seedSession(store, 'analyst')).sessionId;
      await store.messages.append(sessionId, { role: 'user', parts: [{ type: 'text', text: 'go' }], turn: 1, kind: 'instruction', callId: 'toolu_1' });
      await store.messages.append(other, { role: 'user', parts: [{ type: 'text', text: 'elsewhere' }], turn: 1 });
      const b = await store.messages.append(sessionId, { role: 'assistant', parts: [{ type: 'text', text: 'done' }], turn: 1 });
      const c = await store.messages.append(sessionId, { role: 'user', parts: [{ type: 'text', text: 'more' }], turn: 2, kind: 'instruction' });
      expect((await store.messages.list(sessionId, 2)).map((m) => [m.seq, m.parts])).toEqual([
        [2, [{ type: 'text', text: 'done' }]],
        [3, [{ type: 'text', text: 'more' }]],
      ]);
      expect(await store.messages.list(sessionId, 4)).toEqual([]);
      const heads = await store.messages.heads(sessionId);
      const bytes = (text: string) => Buffer.byteLength(JSON.stringify([{ type: 'text', text }]));
      expect(heads).toEqual([
        { id: heads[0]?.id, seq: 1, role: 'user', turn: 1, kind: 'instruction', callId: 'toolu_1', partsBytes: bytes('go') },
        { id: b.id, seq: 2, role: 'assistant', turn: 1, partsBytes: bytes('done') },
        { id: c.id, seq: 3, role: 'user', turn: 2, kind: 'instruction', partsBytes: bytes('more') },
      ]);
      expect(await store.messages.heads('ses_none')).toEqual([]);
    });

    it('knows the size of parts stored as their own JSON without parsing them, and reads chosen seqs', async () => {
      const secret = 'sk-test-0123456789abcdefghijklmnopqrstuv';
      const store = await backend.fresh({ redactor: createSecretRedactor([{ name: 'vars.key', value: secret }]) });
      const { sessionId } = await seedSession(store);
      const plain = [{ type: 'text' as const, text: 'plain é ✓ "quoted"' }];
      const withSecret = [{ type: 'text' as const, text: `key ${secret}` }];
      const literal = [{ type: 'text' as const, text: 'a literal [REDACTED:x] in text' }];
      for (const parts of [plain, withSecret, literal, plain, plain]) await store.messages.append(sessionId, { role: 'user', parts, turn: 1 });
      // A row from before checksums, and one edited since: neither vouches for its size.
      await backend.exec(store, 'UPDATE messages SET checksum = NULL WHERE seq = 4');
      await backend.exec(store, `UPDATE messages SET parts_json = ? WHERE seq = 5`, JSON.stringify(plain, null, 1));
      const rows = await store.messages.list(sessionId);
      expect(rows.map((m) => [m.seq, storedPartsBytes(m)])).toEqual([
        [1, Buffer.byteLength(JSON.stringify(plain))],
        [2, undefined],
        [3, undefined],
        [4, undefined],
        [5, undefined],
      ]);
      expect(rows.map((m) => m.parts)).toEqual([plain, withSecret, literal, plain, plain]);
      // The heads carry the same size, written with the row (edits made since do not change it).
      expect((await store.messages.heads(sessionId)).map((h) => [h.seq, h.partsBytes])).toEqual([
        [1, Buffer.byteLength(JSON.stringify(plain))],
        [2, undefined],
        [3, undefined],
        [4, Buffer.byteLength(JSON.stringify(plain))],
        [5, Buffer.byteLength(JSON.stringify(plain))],
      ]);
      const read = await store.messages.listSeqs(sessionId, [3, 1, 9]);
      expect(read.map((m) => [m.seq, m.parts])).toEqual([
        [1, plain],
        [3, literal],
      ]);
      expect(storedPartsBytes(read[0]!)).toBe(Buffer.byteLength(JSON.stringify(plain)));
      expect((await store.messages.listSeqs(sessionId, [2]))[0]?.parts).toEqual(withSecret);
      expect(await store.messages.listSeqs(sessionId, [])).toEqual([]);
    });

    it('refuses to append to a session that does not exist', async () => {
      const store = await backend.fresh();
      await expect(store.messages.append('ses_nope', { role: 'user', parts: [], turn: 1 })).rejects.toThrow();
    });
  });

  describe('ledger', () => {
    const start = (sessionId: string, callId = 'toolu_1') => ({ sessionId, callId, toolRef: 'builtins.http.get', apiName: 'builtins_http_get', input: { url: 'https://example.com' }, idempotent: true });

    it('records a call as started before its result and completed after', async () => {
      const store = await backend.fresh();
      const { sessionId } = await seedSession(store);
      await store.ledger.recordStarted(start(sessionId));
      expect(await store.ledger.get(sessionId, 'toolu_1')).toMatchObject({ status: 'started', toolRef: 'builtins.http.get', apiName: 'builtins_http_get', input: { url: 'https://example.com' }, idempotent: true, result: undefined, finishedAt: undefined });
      await store.ledger.recordCompleted(sessionId, 'toolu_1', { content: [{ type: 'text', text: '200 OK' }], isError: false, resources: [{ kind: 'resource', uri: 'file:///a', text: 'A' }] });
      const done = await store.ledger.get(sessionId, 'toolu_1');
      expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: '200 OK' }], isError: false, resources: [{ kind: 'resource', uri: 'file:///a', text: 'A' }] } });
      expect(done?.finishedAt).toMatch(ISO);
      expect(done?.startedAt).toMatch(ISO);
      expect(await store.ledger.get(sessionId, 'toolu_other')).toBeUndefined();
    });

    it('ignores a repeated start and keeps the first result of a call', async () => {
      const store = await backend.fresh();
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
      const store = await backend.fresh();
      const { sessionId } = await seedSession(store);
      await expect(store.ledger.recordCompleted(sessionId, 'ghost', { content: [], isError: false })).rejects.toThrow(/completed without being started/);
    });
  });

  describe('turns', () => {
    it('sums usage and cost per run and per session', async () => {
      const store = await backend.fresh();
      const { runId, sessionId } = await seedSession(store);
      const commander = (await store.sessions.open({ runId, task: 'research', agent: 'commander', role: 'commander', model: 'c', systemPrompt: '', tools: [], skills: [] })).id;
      const usage = (n: number) => ({ inputTokens: n, outputTokens: 2 * n, cacheReadTokens: 3 * n, cacheWriteTokens: 4 * n });
      await store.turns.record({ runId, task: 'research', sessionId, turn: 1, model: 'x', usage: usage(1), costUsd: 0.1, durationMs: 5.4, stopReason: 'tool_use' });
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

    it("gives every input token of a session's call recorded last with a turn number", async () => {
      const store = await backend.fresh();
      const { runId, sessionId } = await seedSession(store);
      const usage = (n: number) => ({ inputTokens: n, outputTokens: 7, cacheReadTokens: 10 * n, cacheWriteTokens: 100 * n });
      const row = (turn: number, n: number) => ({ runId, task: 'research', sessionId, turn, model: 'x', usage: usage(n), costUsd: 0, durationMs: 1, stopReason: 'tool_use' });
      expect(await store.turns.lastInputTokens(sessionId, 1)).toBeUndefined();
      await store.turns.record(row(1, 1));
      // A compaction summary recorded under turn 2 before the reply of turn 2: the reply is the last one.
      await store.turns.record(row(2, 2));
      await store.turns.record(row(2, 3));
      expect(await store.turns.lastInputTokens(sessionId, 1)).toBe(111);
      expect(await store.turns.lastInputTokens(sessionId, 2)).toBe(333);
      expect(await store.turns.lastInputTokens(sessionId, 3)).toBeUndefined();
      expect(await store.turns.lastInputTokens('ses_other', 1)).toBeUndefined();
    });
  });

  describe('events', () => {
    it('lists a run’s events in order and continues after a given id', async () => {
      const store = await backend.fresh();
      const { runId, sessionId } = await seedSession(store);
      const other = (await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} })).id;
      await store.events.append({ runId, type: 'task.started', task: 'research', data: { n: 1 } });
      await store.events.append({ runId: other, type: 'noise', data: null });
      await store.events.appendMany([
        { runId, type: 'tool.started', task: 'research', sessionId, data: { n: 2 } },
        { runId, type: 'tool.finished', task: 'research', sessionId, data: { n: 3 } },
      ]);
      await store.events.appendMany([]);
      const all = await store.events.list(runId);
      expect(all.map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      expect(all[1]).toMatchObject({ type: 'tool.started', task: 'research', sessionId });
      expect(all[0]?.sessionId).toBeUndefined();
      expect(all[0]?.createdAt).toMatch(ISO);
      expect((await store.events.list(runId, { afterId: all[0]?.id })).map((e) => e.type)).toEqual(['tool.started', 'tool.finished']);
      expect((await store.events.list(runId, { limit: 1 })).map((e) => e.type)).toEqual(['task.started']);
      expect((await store.events.list(other)).map((e) => e.data)).toEqual([null]);
    });

    it('appendMany writes all events or none', async () => {
      const store = await backend.fresh();
      const { runId } = await seedSession(store);
      await expect(store.events.appendMany([{ runId, type: 'ok', data: 1 }, { runId: 'run_missing', type: 'bad', data: 2 }])).rejects.toThrow(/foreign key/i);
      expect(await store.events.list(runId)).toEqual([]);
    });

    it('appendMany keeps the order of a batch larger than one statement holds', async () => {
      const store = await backend.fresh();
      const { runId } = await seedSession(store);
      const many = Array.from({ length: 2500 }, (_, i) => ({ runId, type: 'tick', data: i }));
      await store.events.appendMany(many);
      expect((await store.events.list(runId)).map((e) => e.data)).toEqual(many.map((e) => e.data));
    });
  });

  describe('routes', () => {
    it('the first decision for a target wins, listed in decision order', async () => {
      const store = await backend.fresh({ clock: () => Date.parse('2025-01-01T00:00:00.000Z') });
      const run = await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} });
      expect(await store.routes.record(run.id, 'triage', 'fix', 'route')).toBe(true);
      expect(await store.routes.record(run.id, 'review', 'fix', 'send_to')).toBe(false);
      expect(await store.routes.record(run.id, 'triage', 'notify', 'send_to')).toBe(true);
      expect(await store.routes.record(run.id, 'triage', 'archive', 'route')).toBe(true);
      expect((await store.routes.list(run.id)).map((r) => [r.from, r.to, r.kind])).toEqual([
        ['triage', 'fix', 'route'],
        ['triage', 'notify', 'send_to'],
        ['triage', 'archive', 'route'],
      ]);
    });
  });

  describe('items', () => {
    it('creates an iterated task\'s items once, moves each through its states and re-runs a failed one as a new attempt', async () => {
      let t = Date.parse('2025-01-01T00:00:00.000Z');
      const store = await backend.fresh({ clock: () => (t += 1000) });
      const run = await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} });
      await store.items.ensure(run.id, 'triage', 3);
      await store.items.ensure(run.id, 'triage', 3);
      await store.items.ensure(run.id, 'other', 0);
      expect((await store.items.list(run.id, 'triage')).map((i) => [i.index, i.status, i.attempt])).toEqual([
        [0, 'pending', 1],
        [1, 'pending', 1],
        [2, 'pending', 1],
      ]);
      expect(await store.items.list(run.id, 'other')).toEqual([]);
      await store.items.markRunning(run.id, 'triage', 1);
      await store.items.complete(run.id, 'triage', 1, { summary: 'filed', output: { priority: 'high', n: 2 } });
      await store.items.markRunning(run.id, 'triage', 2);
      await store.items.fail(run.id, 'triage', 2, 'boom');
      expect(await store.items.get(run.id, 'triage', 1)).toMatchObject({ status: 'completed', summary: 'filed', output: { priority: 'high', n: 2 }, attempt: 1 });
      expect((await store.items.get(run.id, 'triage', 1))?.finishedAt).toMatch(ISO);
      expect(await store.items.get(run.id, 'triage', 2)).toMatchObject({ status: 'failed', error: 'boom' });
      expect(await store.items.retry(run.id, 'triage', 2)).toBe(2);
      const retried = await store.items.get(run.id, 'triage', 2);
      expect(retried).toMatchObject({ status: 'pending', attempt: 2 });
      expect(retried?.error).toBeUndefined();
      expect(retried?.finishedAt).toBeUndefined();
      await expect(store.items.retry(run.id, 'triage', 1)).rejects.toThrow(StoreError);
      await store.items.setStatus(run.id, 'triage', 0, 'cancelled');
      expect((await store.items.get(run.id, 'triage', 0))?.status).toBe('cancelled');
      await expect(store.items.markRunning(run.id, 'triage', 9)).rejects.toThrow(StoreError);
      expect(await store.items.get(run.id, 'triage', 9)).toBeUndefined();
    });

    it('creates 1,000 items in one call', async () => {
      const store = await backend.fresh();
      const run = await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} });
      await store.transaction((tx) => tx.items.ensure(run.id, 'big', 1000));
      const items = await store.items.list(run.id, 'big');
      expect(items).toHaveLength(1000);
      expect(items[999]?.index).toBe(999);
    });
  });

  describe('transactions', () => {
    it('rolls back every write of a failed transaction', async () => {
      const store = await backend.fresh();
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

    it('commits a transaction’s writes together and returns its value', async () => {
      const store = await backend.fresh();
      const { runId, sessionId } = await seedSession(store);
      const seq = await store.transaction(async (tx) => {
        const m = await tx.messages.append(sessionId, { role: 'assistant', parts: [{ type: 'text', text: 'x' }], turn: 1 });
        await tx.turns.record({ runId, task: 'research', sessionId, turn: 1, model: 'x', usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0, durationMs: 1, stopReason: 'end_turn' });
        await tx.leases.acquire(runId, { id: 'me', pid: process.pid, host: 'h' }, 1000);
        await tx.runs.updateConfig(runId, { config: { files: {} }, variables: { values: {}, secrets: [] }, changes: ['x'] });
        await tx.events.appendMany(Array.from({ length: 1200 }, (_, i) => ({ runId, type: 'e', data: i })));
        return m.seq;
      });
      expect(seq).toBe(1);
      expect(await store.messages.count(sessionId)).toBe(1);
      expect((await store.turns.totalsForRun(runId)).turns).toBe(1);
      expect((await store.leases.get(runId))?.owner).toBe('me');
      expect((await store.events.list(runId)).length).toBe(1200);
    });

    it('rolls back a nested transaction alone, keeping the outer one’s writes', async () => {
      const store = await backend.fresh();
      const { sessionId } = await seedSession(store);
      await store.transaction(async (tx) => {
        await tx.messages.append(sessionId, { role: 'user', parts: [{ type: 'text', text: 'kept' }], turn: 1 });
        await expect(
          tx.transaction(async (inner) => {
            await inner.messages.append(sessionId, { role: 'assistant', parts: [{ type: 'text', text: 'undone' }], turn: 1 });
            throw new Error('inner failure');
          }),
        ).rejects.toThrow('inner failure');
        await tx.transaction(async (inner) => {
          await inner.messages.append(sessionId, { role: 'assistant', parts: [{ type: 'text', text: 'nested, kept' }], turn: 1 });
        });
      });
      expect((await store.messages.list(sessionId)).map((m) => [m.seq, m.parts])).toEqual([
        [1, [{ type: 'text', text: 'kept' }]],
        [2, [{ type: 'text', text: 'nested, kept' }]],
      ]);
    });

    it('runs nested transactions started together one after another, each kept or undone alone', async () => {
      const store = await backend.fresh();
      const { runId } = await seedSession(store);
      await store.transaction(async (tx) => {
        const results = await Promise.allSettled(
          ['a', 'b', 'c', 'd'].map((name, i) =>
            tx.transaction(async (inner) => {
              await inner.events.append({ runId, type: name, data: i });
              await inner.events.append({ runId, type: `${name}2`, data: i });
              if (i % 2 === 1) throw new Error(`undo ${name}`);
            }),
          ),
        );
        expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
      });
      expect((await store.events.list(runId)).map((e) => e.type)).toEqual(['a', 'a2', 'c', 'c2']);
    });

    it('rolls back writes inside a transaction when a statement fails, and the store stays usable', async () => {
      const store = await backend.fresh();
      const { runId, sessionId } = await seedSession(store);
      await expect(
        store.transaction(async (tx) => {
          await tx.events.append({ runId, type: 'before', data: 1 });
          await tx.events.append({ runId: 'run_missing', type: 'bad', data: 2 });
        }),
      ).rejects.toThrow(/foreign key/i);
      expect(await store.events.list(runId)).toEqual([]);
      await store.events.append({ runId, type: 'after', data: 3 });
      expect((await store.events.list(runId)).map((e) => e.type)).toEqual(['after']);
      expect(await store.messages.count(sessionId)).toBe(0);
    });

    it('makes committed writes visible to a second store (another process reading the run)', async () => {
      const store = await backend.fresh();
      const { sessionId } = await seedSession(store);
      await store.messages.append(sessionId, { role: 'user', parts: [{ type: 'text', text: 'hello' }], turn: 1 });
      const reader = await backend.second(store);
      expect((await reader.messages.list(sessionId)).map((m) => m.parts)).toEqual([[{ type: 'text', text: 'hello' }]]);
    });

    it('checkpoint and close can be called, and close more than once', async () => {
      const store = await backend.fresh();
      await store.checkpoint();
      await store.close();
      await store.close();
    });
  });
});
