// A2A v1.0 on `squadron serve`, driven by the maintained SDK's client (@a2a-js/sdk) over JSON-RPC and
// by a v0.3 client's plain wire (message/send, tasks/get): agent cards per mission, a message run to
// completion with its one side effect, a pending approval as INPUT_REQUIRED answered by a reply to
// the task, a cancel, and a request without a token refused.

import { ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { Role, TaskState } from '@a2a-js/sdk';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { agentProject, boardWorker } from '../support/agentMissions.js';
import { runCli } from '../support/cli.js';
import { fakeModelBlock, openRunDb, removeProjects } from '../support/e2eProject.js';
import { startFakeModelServer } from '../support/fakeModelServer.js';
import { startCounter } from '../support/localServer.js';
import { killStillRunning, type ServeProcess, startServe } from '../support/serveProcess.js';

const servers: ServeProcess[] = [];
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  killStillRunning(servers);
});
afterAll(removeProjects);

async function setUp() {
  const board = await startCounter();
  closers.push(board.close);
  const model = await startFakeModelServer({ respond: boardWorker(board.url) });
  closers.push(() => model.close());
  const dir = agentProject(fakeModelBlock(model));
  const made = await runCli(['token', 'create', 'peer'], { cwd: dir });
  expect(made.code, made.stderr).toBe(0);
  const s = await startServe([dir], { cwd: dir, env: { SQUADRON_SERVE_RECOVER_MS: '300' } });
  servers.push(s);
  return { dir, board, model, s, token: made.stdout.trim() };
}

function client(token: string) {
  const fetchImpl: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${token}` } });
  return new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl })] });
}

function message(text: string, data?: Record<string, unknown>, taskId = '') {
  const parts = [{ content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }];
  if (data) parts.push({ content: { $case: 'data' as const, value: data } as never, metadata: undefined, filename: '', mediaType: 'application/json' });
  return { tenant: '', message: { messageId: `m-${Math.random().toString(36).slice(2)}`, contextId: '', taskId, role: Role.ROLE_USER, parts, metadata: undefined, extensions: [], referenceTaskIds: [] }, configuration: undefined, metadata: undefined };
}

describe('A2A on squadron serve', () => {
  it('serves agent cards, runs a message to completion with the SDK client, and answers an approval by a reply to the INPUT_REQUIRED task', async () => {
    const { dir, board, s, token } = await setUp();
    const card = (await (await fetch(`${s.url}/.well-known/agent-card.json`)).json()) as { skills: { id: string }[]; supportedInterfaces: { url: string; protocolBinding: string }[] };
    expect(card.skills.map((k) => k.id)).toEqual(['publish', 'guarded', 'slow']);
    expect(card.supportedInterfaces[0]).toMatchObject({ url: `${s.url}/a2a`, protocolBinding: 'JSONRPC' });
    expect((await fetch(`${s.url}/a2a/internal/.well-known/agent-card.json`)).status).toBe(404);
    const refused = await fetch(`${s.url}/a2a/publish`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(refused.status).toBe(401);

    const publish = await client(token).createFromUrl(`${s.url}/a2a/publish/`);
    const done = (await publish.sendMessage(message('kelp forests'))) as { id: string; status: { state: number }; artifacts: { name: string; parts: { content: { value: unknown } }[] }[] };
    expect(done.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(done.artifacts[0]!.name).toBe('post');
    expect(done.artifacts[0]!.parts[0]!.content.value).toMatchObject({ posted: true });
    expect(board.marks).toEqual([expect.stringContaining('kelp forests')]);
    expect(((await publish.getTask({ tenant: '', id: done.id })) as { status: { state: number } }).status.state).toBe(TaskState.TASK_STATE_COMPLETED);

    const guarded = await client(token).createFromUrl(`${s.url}/a2a/guarded/`);
    const waiting = (await guarded.sendMessage(message('needs a yes'))) as { id: string; status: { state: number } };
    expect(waiting.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(board.marks).toHaveLength(1);
    const approved = (await guarded.sendMessage(message('approve', { approve: true }, waiting.id))) as { id: string; status: { state: number } };
    expect(approved.id).toBe(waiting.id);
    expect(approved.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(board.marks).toEqual([expect.stringContaining('kelp forests'), expect.stringContaining('needs a yes')]);
    const db = openRunDb(dir);
    try {
      expect(db.prepare('SELECT status, decided_by FROM operator_requests').all()).toEqual([{ status: 'approved', decided_by: 'a2a:peer' }]);
    } finally {
      db.close();
    }
  });

  it('speaks the v0.3 wire (message/send, tasks/get, tasks/cancel) and cancels a running task', async () => {
    const { s, token, model } = await setUp();
    const rpc = async (method: string, params: unknown) => {
      const res = await fetch(`${s.url}/a2a/slow`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
      return (await res.json()) as { result?: Record<string, unknown>; error?: { message: string } };
    };
    const sent = await rpc('message/send', { message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'take your time' }] }, configuration: { blocking: false } });
    const task = sent.result as { id: string; status: { state: string } };
    expect(task.status.state).toBe('working');
    while (model.requests.length === 0) await new Promise((r) => setTimeout(r, 50));
    const got = await rpc('tasks/get', { id: task.id });
    expect((got.result as { status: { state: string } }).status.state).toBe('working');
    const cancelled = await rpc('tasks/cancel', { id: task.id });
    expect((cancelled.result as { status: { state: string } }).status.state).toBe('canceled');
    expect((await rpc('tasks/get', { id: 'run_0000000000000000' })).error?.message).toMatch(/not found|no task/i);
  });
});
