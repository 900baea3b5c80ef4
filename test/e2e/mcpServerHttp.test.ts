// Missions as MCP tools on `squadron serve` (/mcp, Streamable HTTP), driven by the official SDK's
// client over a real database: tools with schemas, a call to completion with its one side effect,
// an approval answered through elicitation, a task come back to after restarting the server, a
// task cancelled, and tokens without rights refused.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateTaskResultSchema, ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { agentProject, boardWorker } from '../support/agentMissions.js';
import { runCli } from '../support/cli.js';
import { dbRows, fakeModelBlock, readUntil, removeProjects } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer.js';
import { startCounter } from '../support/localServer.js';
import { killStillRunning, type ServeProcess, startServe } from '../support/serveProcess.js';

const servers: ServeProcess[] = [];
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  killStillRunning(servers);
});
afterAll(removeProjects);

async function setUp(): Promise<{ dir: string; board: Awaited<ReturnType<typeof startCounter>>; model: FakeModelServer }> {
  const board = await startCounter();
  closers.push(board.close);
  const model = await startFakeModelServer({ respond: boardWorker(board.url) });
  closers.push(() => model.close());
  return { dir: agentProject(fakeModelBlock(model)), board, model };
}

async function token(dir: string, name: string, ...flags: string[]): Promise<string> {
  const r = await runCli(['token', 'create', name, ...flags], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

async function serve(dir: string): Promise<ServeProcess> {
  const s = await startServe([dir], { cwd: dir, env: { SQUADRON_SERVE_RECOVER_MS: '300' } });
  servers.push(s);
  return s;
}

async function connect(s: ServeProcess, tok: string, opts: { approve?: boolean } = {}): Promise<Client> {
  const client = new Client({ name: 'test-client', version: '1.0.0' }, { capabilities: opts.approve === undefined ? {} : { elicitation: { form: {} } } });
  if (opts.approve !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      expect(request.params.message).toContain('builtins.http.post');
      return { action: 'accept', content: { approve: opts.approve!, reason: 'looks fine' } };
    });
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${tok}` } } }));
  closers.push(() => client.close());
  return client;
}

describe('MCP server on squadron serve (/mcp)', () => {
  it('lists each exposed mission as a typed tool beside the generic tools, runs one to completion with one side effect, and refuses tokens without rights', async () => {
    const { dir, board } = await setUp();
    const all = await token(dir, 'ci');
    const narrow = await token(dir, 'narrow', '--mission', 'publish');
    const s = await serve(dir);

    const unauthorized = await fetch(`${s.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sqd_not-a-token' }, body: '{}' });
    expect(unauthorized.status).toBe(401);
    await unauthorized.body?.cancel();

    const client = await connect(s, all);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['cancel_run', 'get_run_details', 'guarded', 'list_missions', 'list_runs', 'publish', 'run_mission', 'slow']);
    const publish = tools.find((t) => t.name === 'publish')!;
    expect(publish.description).toBe('Post a note to the board.');
    expect(publish.inputSchema).toEqual({
      type: 'object',
      properties: { note: { type: 'string', description: 'The note to post' }, copies: { type: 'integer', description: 'How many copies', default: 1 } },
      additionalProperties: false,
      required: ['note'],
    });
    expect((publish.outputSchema!.properties as Record<string, { properties?: unknown }>)['outputs']!.properties).toEqual({
      post: {
        type: 'object',
        properties: { posted: { type: 'boolean', description: 'whether the note was posted' }, reply: { type: 'string', description: 'what the board answered' } },
        additionalProperties: false,
        required: ['posted'],
      },
    });
    expect(publish.execution).toEqual({ taskSupport: 'optional' });

    const progress: string[] = [];
    const result = (await client.callTool({ name: 'publish', arguments: { note: 'tide pools at noon' } }, undefined, { timeout: 180_000, onprogress: (p) => void progress.push(p.message ?? '') })) as CallToolResult;
    expect(result.isError).toBe(false);
    const structured = result.structuredContent as { run_id: string; status: string; outputs: Record<string, unknown> };
    expect(structured).toMatchObject({ status: 'completed', outputs: { post: { posted: true, reply: expect.stringContaining('marked') } } });
    expect(progress).toContain('run.started');
    expect(board.marks).toHaveLength(1);
    expect(board.marks[0]).toContain('tide pools at noon');
    expect(dbRows<{ id: string; status: string }>(dir, 'SELECT id, status FROM runs')).toEqual([{ id: structured.run_id, status: 'completed' }]);

    // The run as a resource, and through the Go original's generic tools.
    const resources = await client.listResources();
    expect(resources.resources.map((r) => r.uri)).toEqual([`squadron://runs/${structured.run_id}`]);
    const read = await client.readResource({ uri: `squadron://runs/${structured.run_id}` });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ run: { id: structured.run_id, status: 'completed' } });
    const transcript = await client.readResource({ uri: `squadron://runs/${structured.run_id}/transcript` });
    expect((transcript.contents[0] as { text: string }).text).toContain('builtins_http_post');
    const details = (await client.callTool({ name: 'get_run_details', arguments: { run_id: structured.run_id } })) as CallToolResult;
    expect(details.structuredContent).toMatchObject({ status: 'completed', tasks: [{ name: 'post', status: 'completed' }] });
    const listed = (await client.callTool({ name: 'list_runs', arguments: { mission_name: 'publish' } })) as CallToolResult;
    expect((listed.structuredContent as { runs: { id: string }[] }).runs.map((r) => r.id)).toEqual([structured.run_id]);

    // A token limited to `publish` sees only it, and neither the other missions nor their runs.
    const limited = await connect(s, narrow);
    expect((await limited.listTools()).tools.filter((t) => !['cancel_run', 'get_run_details', 'list_missions', 'list_runs', 'run_mission'].includes(t.name)).map((t) => t.name)).toEqual(['publish']);
    await expect(limited.callTool({ name: 'guarded', arguments: { note: 'x' } })).rejects.toThrow(/Tool guarded not found/);
    const refused = (await limited.callTool({ name: 'run_mission', arguments: { name: 'guarded', inputs: { note: 'x' } } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(board.marks).toHaveLength(1);
    expect(dbRows(dir, 'SELECT id FROM runs')).toHaveLength(1);
  });

  it('asks for an approval through elicitation and continues the run once approved: the POST happens once', async () => {
    const { dir, board } = await setUp();
    const tok = await token(dir, 'ci');
    const s = await serve(dir);
    const client = await connect(s, tok, { approve: true });
    const result = (await client.callTool({ name: 'guarded', arguments: { note: 'approved note' } }, undefined, { timeout: 180_000 })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ status: 'completed', outputs: { post: { posted: true } } });
    expect(board.marks).toEqual([expect.stringContaining('approved note')]);
    expect(dbRows(dir, 'SELECT kind, status, decided_by FROM operator_requests')).toEqual([{ kind: 'approval', status: 'approved', decided_by: 'mcp:ci' }]);
  });

  it('a client that declines the approval denies it: the run goes on without the POST', async () => {
    const { dir, board } = await setUp();
    const tok = await token(dir, 'ci');
    const s = await serve(dir);
    const client = await connect(s, tok, { approve: false });
    const result = (await client.callTool({ name: 'guarded', arguments: { note: 'never posted' } }, undefined, { timeout: 180_000 })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ status: 'completed' });
    expect(board.marks).toEqual([]);
    expect(dbRows(dir, 'SELECT status, reason, decided_by FROM operator_requests')).toEqual([{ status: 'denied', reason: 'looks fine', decided_by: 'mcp:ci' }]);
  });

  it('returns a long run as a task, and a client comes back to it by its id after the server restarted; approved in the CLI, it completes', async () => {
    const { dir, board } = await setUp();
    const tok = await token(dir, 'ci');
    let s = await serve(dir);
    let client = await connect(s, tok);
    const created = await client.request({ method: 'tools/call', params: { name: 'guarded', arguments: { note: 'come back later' } } }, CreateTaskResultSchema, { task: { ttl: 3_600_000 } });
    const taskId = created.task.taskId;
    expect(taskId).toMatch(/^run_/);
    const waiting = await readUntil(() => client.experimental.tasks.getTask(taskId), (t) => t.status === 'input_required', 'input_required');
    expect(waiting.statusMessage).toContain('approval');
    expect(board.marks).toHaveLength(0);

    // The server goes away and comes back; the client opens a new session and finds the task by id.
    await client.close();
    s.child.kill('SIGTERM');
    await s.exited;
    s = await serve(dir);
    client = await connect(s, tok);
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('input_required');
    const approved = await runCli(['approve', taskId, '--all'], { cwd: dir });
    expect(approved.code, approved.stderr).toBe(0);
    const done = await readUntil(() => client.experimental.tasks.getTask(taskId), (t) => t.status === 'completed', 'completed');
    expect(done.status).toBe('completed');
    const result = (await client.request({ method: 'tasks/result', params: { taskId } }, CreateTaskResultSchema.passthrough().partial({ task: true }))) as unknown as CallToolResult;
    expect(result.structuredContent).toMatchObject({ run_id: taskId, status: 'completed', outputs: { post: { posted: true } } });
    expect(board.marks).toEqual([expect.stringContaining('come back later')]);
    expect((await client.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).toEqual([taskId]);
  });

  it('cancels a running task: the run stops as interrupted and its task reads cancelled', async () => {
    const { dir, model } = await setUp();
    const tok = await token(dir, 'ci');
    const s = await serve(dir);
    const client = await connect(s, tok);
    const created = await client.request({ method: 'tools/call', params: { name: 'slow', arguments: { note: 'n' } } }, CreateTaskResultSchema, { task: { ttl: 60_000 } });
    const taskId = created.task.taskId;
    await readUntil(async () => model.requests.length, (n) => n > 0, 'the model call');
    const cancelled = await client.experimental.tasks.cancelTask(taskId);
    expect(cancelled.status).toBe('cancelled');
    await readUntil(async () => dbRows<{ status: string }>(dir, 'SELECT status FROM runs')[0]?.status, (st) => st === 'interrupted', 'interrupted');
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('cancelled');
  });
});
