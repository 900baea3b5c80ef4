import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSecretRedactor, openStore, type Store } from '../../store/index.js';
import { freshStore } from './fixtures.js';

const SECRET = 'sk-test-Zq8v"Wq\\Lm0';
const redactor = () => createSecretRedactor([{ name: 'vars.api_key', value: SECRET }]);

/** Writes the secret through every store API that takes user or model content. */
async function writeEverywhere(store: Store): Promise<{ runId: string; sessionId: string }> {
  const run = await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: { key: SECRET, [SECRET]: 'as a key' } });
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

function fileBytes(path: string): Buffer {
  return Buffer.concat([path, `${path}-wal`].filter(existsSync).map((f) => readFileSync(f)));
}

describe('redaction at the store boundary', () => {
  it('never writes a secret to the database file or the WAL, in raw or JSON-escaped form', async () => {
    const store = freshStore({ redactor: redactor() });
    await writeEverywhere(store);
    const forms = [SECRET, JSON.stringify(SECRET).slice(1, -1), JSON.stringify(JSON.stringify(SECRET)).slice(1, -1), 'Zq8v'];
    const before = fileBytes(store.path);
    expect(before.includes('[REDACTED:vars.api_key')).toBe(true);
    for (const form of forms) expect(before.includes(form)).toBe(false);
    await store.checkpoint();
    const after = fileBytes(store.path);
    expect(after.includes('[REDACTED:vars.api_key')).toBe(true);
    for (const form of forms) expect(after.includes(form)).toBe(false);
  });

  it('restores every secret on read', async () => {
    const store = freshStore({ redactor: redactor() });
    const { runId, sessionId } = await writeEverywhere(store);
    const run = await store.runs.get(runId);
    expect(run?.inputs).toEqual({ key: SECRET, [SECRET]: 'as a key' });
    expect(run?.error).toBe(`run error ${SECRET}`);
    expect(await store.tasks.get(runId, 'a')).toMatchObject({ summary: `summary ${SECRET}`, output: { nested: [SECRET] } });
    expect((await store.tasks.get(runId, 'b'))?.error).toBe(`error ${SECRET}`);
    const session = await store.sessions.byId(sessionId);
    expect(session).toMatchObject({ systemPrompt: `prompt ${SECRET}`, tools: [{ description: SECRET }], skills: [SECRET], answer: `answer ${SECRET}` });
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
    const first = freshStore({ redactor: redactor() });
    const { runId } = await writeEverywhere(first);
    first.close();
    const reopened = openStore(first.path, { redactor: createSecretRedactor([{ name: 'vars.api_key', value: 'sk-rotated-0001' }]) });
    expect((await reopened.runs.get(runId))?.inputs['key']).toBe('sk-rotated-0001');
    await reopened.close();
  });
});
