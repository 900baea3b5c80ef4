// What every backend guarantees about the rows it keeps: message checksums prove a row it wrote (and
// a row edited behind its back is validated in full), secrets never reach the database, and
// concurrent writers never produce two messages with one seq.

import { describe, expect, it } from 'vitest';
import { createSecretRedactor, type Store } from '../../../store/index.js';
import { messageChecksum } from '../../../store/rowChecksum.js';
import { readError } from '../fixtures.js';
import { seedSession, useBackends } from './backends.js';

/** Not valid parts (a text part without its text), as stored JSON. */
const INVALID_PARTS = '[{"type":"text"}]';

const SECRET = 'sk-test-Zq8v"Wq\\Lm0';
const redactor = () => createSecretRedactor([{ name: 'vars.api_key', value: SECRET }]);

/** Writes the secret through every store API that takes user or model content. */
async function writeEverywhere(store: Store): Promise<{ runId: string; sessionId: string }> {
  const run = await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: { key: SECRET, [SECRET]: 'as a key' }, options: { note: SECRET } });
  await store.tasks.ensure(run.id, 'a');
  await store.tasks.complete(run.id, 'a', { summary: `summary ${SECRET}`, output: { nested: [SECRET] } });
  await store.tasks.ensure(run.id, 'b');
  await store.tasks.fail(run.id, 'b', `error ${SECRET}`);
  const session = await store.sessions.open({
    runId: run.id,
    task: 'a',
    agent: 'worker',
    role: 'agent',
    model: 'm',
    systemPrompt: `prompt ${SECRET}`,
    tools: [{ description: SECRET }],
    skills: [SECRET],
  });
  await store.sessions.setAnswer(session.id, `answer ${SECRET}`);
  await store.messages.append(session.id, {
    role: 'assistant',
    turn: 1,
    parts: [
      { type: 'text', text: `text ${SECRET}` },
      { type: 'thinking', text: SECRET, signature: 'sig' },
      { type: 'tool_use', id: 'call_1', name: 'builtins_http_get', input: { headers: { Authorization: `Bearer ${SECRET}` } } },
    ],
  });
  await store.messages.append(session.id, {
    role: 'user',
    turn: 1,
    parts: [{ type: 'tool_result', toolUseId: 'call_1', isError: false, content: [{ type: 'text', text: JSON.stringify({ echoed: SECRET }) }] }],
  });
  await store.ledger.recordStarted({ sessionId: session.id, callId: 'call_1', toolRef: 'builtins.http.get', apiName: 'builtins_http_get', input: { token: SECRET }, idempotent: true });
  await store.ledger.recordCompleted(session.id, 'call_1', { content: [{ type: 'text', text: SECRET }], isError: false, structured: { token: SECRET } });
  await store.events.append({ runId: run.id, type: 'tool.finished', sessionId: session.id, data: { raw: SECRET } });
  await store.events.appendMany([{ runId: run.id, type: 'x', data: `event ${SECRET}` }]);
  await store.runs.setStatus(run.id, 'failed', `run error ${SECRET}`);
  return { runId: run.id, sessionId: session.id };
}

describe.each(useBackends())('$name store', (backend) => {
  describe('message checksums', () => {
    it('stores a checksum of role, kind, call id and stored parts with every message', async () => {
      const store = await backend.fresh();
      const { sessionId } = await seedSession(store);
      await store.messages.append(sessionId, { role: 'user', parts: [{ type: 'text', text: 'go' }], turn: 1, kind: 'instruction', callId: 'toolu_1' });
      const [row] = await backend.exec(store, 'SELECT role, kind, call_id, parts_json, checksum FROM messages');
      expect(Number(row?.['checksum'])).toBe(messageChecksum('user', 'instruction', 'toolu_1', String(row?.['parts_json'])));
    });

    it('reads back a row its checksum proves without validating it again', async () => {
      const store = await backend.fresh();
      const { sessionId } = await seedSession(store);
      await store.messages.append(sessionId, { role: 'assistant', parts: [{ type: 'text', text: 'hi' }], turn: 1 });
      // Forged: invalid parts with a matching checksum. Validation would refuse it; the proof skips it.
      await backend.exec(store, 'UPDATE messages SET parts_json = ?, checksum = ?', INVALID_PARTS, messageChecksum('assistant', null, null, INVALID_PARTS));
      expect((await store.messages.list(sessionId))[0]?.parts).toEqual([{ type: 'text' }]);
    });

    it('validates a row edited by hand in full, with the error of an unchecksummed row', async () => {
      const store = await backend.fresh();
      const { sessionId } = await seedSession(store);
      await store.messages.append(sessionId, { role: 'assistant', parts: [{ type: 'text', text: 'hi' }], turn: 1 });
      await backend.exec(store, 'UPDATE messages SET parts_json = ?', INVALID_PARTS);
      const edited = await readError(() => store.messages.list(sessionId));
      expect(edited.code).toBe('CORRUPT_ROW');
      expect(edited.message).toMatch(/^messages \d+ parts_json: .*expected string, received undefined[\s\S]*at \[0\]\.text$/);
      await backend.exec(store, 'UPDATE messages SET checksum = NULL');
      expect((await readError(() => store.messages.list(sessionId))).message).toBe(edited.message);
    });

    it('covers role, kind and call id: moving a proven row to another of them makes it validated', async () => {
      for (const change of ["role = 'user'", "kind = 'instruction'", "call_id = 'toolu_9'", "kind = ''"]) {
        const store = await backend.fresh();
        const { sessionId } = await seedSession(store);
        await store.messages.append(sessionId, { role: 'assistant', parts: [{ type: 'text', text: 'hi' }], turn: 1 });
        await backend.exec(store, 'UPDATE messages SET parts_json = ?, checksum = ?', INVALID_PARTS, messageChecksum('assistant', null, null, INVALID_PARTS));
        await backend.exec(store, `UPDATE messages SET ${change}`);
        expect((await readError(() => store.messages.list(sessionId))).code, change).toBe('CORRUPT_ROW');
      }
    });

    it('proves rows written with a redactor, and restores their secrets', async () => {
      const store = await backend.fresh({ redactor: createSecretRedactor([{ name: 'vars.token', value: 'tok-0123456789abcdef' }]) });
      const { sessionId } = await seedSession(store);
      const parts = [{ type: 'tool_use' as const, id: 'toolu_1', name: 'http_get', input: { auth: 'Bearer tok-0123456789abcdef', note: 'a \u0001 control' } }];
      await store.messages.append(sessionId, { role: 'assistant', parts, turn: 1 });
      const [stored] = await backend.exec(store, 'SELECT parts_json, checksum FROM messages');
      expect(String(stored?.['parts_json'])).not.toContain('tok-0123456789abcdef');
      expect(Number(stored?.['checksum'])).toBe(messageChecksum('assistant', null, null, String(stored?.['parts_json'])));
      expect((await store.messages.list(sessionId))[0]?.parts).toEqual(parts);
    });
  });

  describe('redaction at the store boundary', () => {
    it('never writes a secret to the database, in raw or JSON-escaped form', async () => {
      const store = await backend.fresh({ redactor: redactor() });
      await writeEverywhere(store);
      const forms = [SECRET, JSON.stringify(SECRET).slice(1, -1), JSON.stringify(JSON.stringify(SECRET)).slice(1, -1), 'Zq8v'];
      const before = await backend.dump(store);
      expect(before).toContain('[REDACTED:vars.api_key');
      for (const form of forms) expect(before).not.toContain(form);
      await store.checkpoint();
      const after = await backend.dump(store);
      expect(after).toContain('[REDACTED:vars.api_key');
      for (const form of forms) expect(after).not.toContain(form);
    });

    it('restores every secret on read', async () => {
      const store = await backend.fresh({ redactor: redactor() });
      const { runId, sessionId } = await writeEverywhere(store);
      const run = await store.runs.get(runId);
      expect(run?.inputs).toEqual({ key: SECRET, [SECRET]: 'as a key' });
      expect(run?.options).toEqual({ note: SECRET });
      expect(run?.error).toBe(`run error ${SECRET}`);
      expect(await store.tasks.get(runId, 'a')).toMatchObject({ summary: `summary ${SECRET}`, output: { nested: [SECRET] } });
      expect((await store.tasks.get(runId, 'b'))?.error).toBe(`error ${SECRET}`);
      expect(await store.sessions.byId(sessionId)).toMatchObject({ systemPrompt: `prompt ${SECRET}`, tools: [{ description: SECRET }], skills: [SECRET], answer: `answer ${SECRET}` });
      const [assistant, user] = await store.messages.list(sessionId);
      expect(assistant?.parts).toEqual([
        { type: 'text', text: `text ${SECRET}` },
        { type: 'thinking', text: SECRET, signature: 'sig' },
        { type: 'tool_use', id: 'call_1', name: 'builtins_http_get', input: { headers: { Authorization: `Bearer ${SECRET}` } } },
      ]);
      const resultText = user?.parts[0]?.type === 'tool_result' ? user.parts[0].content[0] : undefined;
      expect(resultText).toEqual({ type: 'text', text: JSON.stringify({ echoed: SECRET }) });
      const call = await store.ledger.get(sessionId, 'call_1');
      expect(call?.input).toEqual({ token: SECRET });
      expect(call?.result).toEqual({ content: [{ type: 'text', text: SECRET }], isError: false, structured: { token: SECRET } });
      expect((await store.events.list(runId)).map((e) => e.data)).toEqual([{ raw: SECRET }, `event ${SECRET}`]);
      expect((await store.runs.list())[0]?.error).toBe(`run error ${SECRET}`);
    });

    it('restores from the secret values supplied when the store is reopened (resume with a rotated key)', async () => {
      const first = await backend.fresh({ redactor: redactor() });
      const { runId } = await writeEverywhere(first);
      const reopened = await backend.second(first, { redactor: createSecretRedactor([{ name: 'vars.api_key', value: 'sk-rotated-0001' }]) });
      expect((await reopened.runs.get(runId))?.inputs['key']).toBe('sk-rotated-0001');
    });

    it('withRedactor reads and writes the same database through another redactor', async () => {
      const plain = await backend.fresh();
      const { runId } = await writeEverywhere(plain.withRedactor(redactor()));
      expect((await plain.runs.get(runId))?.inputs['key']).toMatch(/^\[REDACTED:vars\.api_key/);
      expect((await plain.withRedactor(redactor()).runs.get(runId))?.inputs['key']).toBe(SECRET);
      const inTx = await plain.transaction(async (tx) => (await tx.withRedactor(redactor()).runs.get(runId))?.inputs['key']);
      expect(inTx).toBe(SECRET);
    });
  });

  describe('concurrent writers', () => {
    it('numbers racing appends to one session 1..n, each seq once', async () => {
      const store = await backend.fresh();
      const { sessionId } = await seedSession(store);
      // PostgreSQL: three pools racing. SQLite: one store, its transactions and appends interleaved;
      // two SQLite connections in one process cannot race (a writer waiting for the lock blocks the
      // event loop the other needs to commit), and across processes SQLite serialises writers itself.
      const stores = backend.name === 'postgres' ? [store, await backend.second(store), await backend.second(store)] : [store];
      const appended = await Promise.all(
        Array.from({ length: 30 }, (_, i) => {
          const on = stores[i % stores.length]!;
          const message = { role: 'user' as const, parts: [{ type: 'text' as const, text: `m${i}` }], turn: 1 };
          // Some appends on their own, some inside a transaction with another write.
          return i % 2 === 0
            ? on.messages.append(sessionId, message)
            : on.transaction(async (tx) => {
                const row = await tx.messages.append(sessionId, message);
                await tx.sessions.addLoadedTool(sessionId, `tool.${i}`);
                return row;
              });
        }),
      );
      expect(appended.map((m) => m.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      const listed = await store.messages.list(sessionId);
      expect(listed.map((m) => m.seq)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      for (const m of appended) expect(listed[m.seq - 1]?.parts).toEqual(m.parts);
    });

    it('creates a task and a session once when two stores ensure and open them at the same time', async () => {
      const store = await backend.fresh();
      const second = await backend.second(store);
      const run = await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} });
      const open = (s: Store, model: string) => s.sessions.open({ runId: run.id, task: 't', agent: 'a', role: 'agent', model, systemPrompt: '', tools: [], skills: [] });
      const [t1, t2, s1, s2] = await Promise.all([store.tasks.ensure(run.id, 't'), second.tasks.ensure(run.id, 't'), open(store, 'one'), open(second, 'two')]);
      expect(t1.id).toBe(t2.id);
      expect(s1.id).toBe(s2.id);
      expect(s1.model).toBe(s2.model);
      expect(await store.tasks.list(run.id)).toHaveLength(1);
      expect(await store.sessions.listForRun(run.id)).toHaveLength(1);
    });

    it('keeps the first result when two stores complete one call at the same time', async () => {
      const store = await backend.fresh();
      const second = await backend.second(store);
      const { sessionId } = await seedSession(store);
      await store.ledger.recordStarted({ sessionId, callId: 'c', toolRef: 'r', apiName: 'r', input: {}, idempotent: false });
      await Promise.all([
        store.ledger.recordCompleted(sessionId, 'c', { content: [{ type: 'text', text: 'one' }], isError: false }),
        second.ledger.recordCompleted(sessionId, 'c', { content: [{ type: 'text', text: 'two' }], isError: false }),
      ]);
      const row = await store.ledger.get(sessionId, 'c');
      expect(row?.status).toBe('completed');
      expect(['one', 'two']).toContain(row?.result?.content[0]?.type === 'text' ? row.result.content[0].text : undefined);
    });
  });
});
