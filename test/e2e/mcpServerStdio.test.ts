// `squadron mcp serve` as a desktop client starts it: the official SDK's stdio client spawns the CLI
// over a project on a real database. Mission tools with their schemas, a call to completion with its
// one side effect, an approval answered by elicitation, and a task come back to after the server
// process was restarted.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateTaskResultSchema, ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { agentProject, boardWorker } from '../support/agentMissions.js';
import { CLI, runCli } from '../support/cli.js';
import { dbRows, fakeModelBlock, readUntil, removeProjects } from '../support/e2eProject.js';
import { startFakeModelServer } from '../support/fakeModelServer.js';
import { startCounter } from '../support/localServer.js';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});
afterAll(removeProjects);

async function setUp(): Promise<{ dir: string; board: Awaited<ReturnType<typeof startCounter>> }> {
  const board = await startCounter();
  closers.push(board.close);
  const model = await startFakeModelServer({ respond: boardWorker(board.url) });
  closers.push(() => model.close());
  return { dir: agentProject(fakeModelBlock(model)), board };
}

async function connect(dir: string, approve?: boolean): Promise<Client> {
  const client = new Client({ name: 'desktop', version: '1.0.0' }, { capabilities: approve === undefined ? {} : { elicitation: { form: {} } } });
  if (approve !== undefined) client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { approve } }));
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', 'serve', dir], cwd: dir, env: { ...process.env, NO_COLOR: '1' } as Record<string, string>, stderr: 'pipe' });
  await client.connect(transport);
  closers.push(() => client.close());
  return client;
}

describe('squadron mcp serve (stdio)', () => {
  it('lists the mission tools with their schemas and runs one to completion, its POST made once', async () => {
    const { dir, board } = await setUp();
    const client = await connect(dir);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['cancel_run', 'get_run_details', 'guarded', 'list_missions', 'list_runs', 'publish', 'run_mission', 'slow']);
    expect(tools.find((t) => t.name === 'guarded')!.inputSchema).toMatchObject({ required: ['note'], properties: { copies: { type: 'integer', default: 1 } } });
    const missions = (await client.callTool({ name: 'list_missions', arguments: {} })) as CallToolResult;
    expect((missions.structuredContent as { missions: { name: string }[] }).missions.map((m) => m.name)).toEqual(['publish', 'guarded', 'slow']);
    // A missing input is the caller's to fix: a tool error that names it, and no run.
    const missing = (await client.callTool({ name: 'publish', arguments: { copies: 2 } })) as CallToolResult;
    expect(missing).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('input "note" (string) is required') }] });
    expect(dbRows(dir, 'SELECT id FROM runs')).toEqual([]);
    const result = (await client.callTool({ name: 'publish', arguments: { note: 'from the desktop' } }, undefined, { timeout: 180_000 })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ status: 'completed', outputs: { post: { posted: true } } });
    expect(board.marks).toEqual([expect.stringContaining('from the desktop')]);
  });

  it('answers an approval through elicitation, and a task is found again by id after the server process restarted', async () => {
    const { dir, board } = await setUp();
    let client = await connect(dir, true);
    const result = (await client.callTool({ name: 'guarded', arguments: { note: 'first' } }, undefined, { timeout: 180_000 })) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ status: 'completed' });
    expect(board.marks).toEqual([expect.stringContaining('first')]);

    const created = await client.request({ method: 'tools/call', params: { name: 'guarded', arguments: { note: 'second' } } }, CreateTaskResultSchema, { task: { ttl: 3_600_000 } });
    const taskId = created.task.taskId;
    await readUntil(() => client.experimental.tasks.getTask(taskId), (t) => t.status === 'input_required', 'input_required');
    await client.close();
    client = await connect(dir);
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('input_required');
    expect((await runCli(['approve', taskId, '--all'], { cwd: dir })).code).toBe(0);
    await readUntil(() => client.experimental.tasks.getTask(taskId), (t) => t.status === 'completed', 'completed');
    expect(board.marks).toEqual([expect.stringContaining('first'), expect.stringContaining('second')]);
    expect(dbRows(dir, 'SELECT status, decided_by FROM operator_requests ORDER BY created_at')).toEqual([
      { status: 'approved', decided_by: 'mcp:stdio' },
      { status: 'approved', decided_by: expect.any(String) },
    ]);
  });

  it('cancels a running task with tasks/cancel and with cancel_run: each run ends interrupted', async () => {
    const { dir } = await setUp();
    const client = await connect(dir);
    const first = await client.request({ method: 'tools/call', params: { name: 'slow', arguments: { note: 'a' } } }, CreateTaskResultSchema, { task: { ttl: 60_000 } });
    expect((await client.experimental.tasks.cancelTask(first.task.taskId)).status).toBe('cancelled');
    const second = (await client.callTool({ name: 'run_mission', arguments: { name: 'slow', inputs: { note: 'b' } } })) as CallToolResult;
    const runId = (second.structuredContent as { run_id: string }).run_id;
    const stopped = (await client.callTool({ name: 'cancel_run', arguments: { run_id: runId } })) as CallToolResult;
    expect(stopped.structuredContent).toEqual({ run_id: runId, status: 'stopping' });
    await readUntil(async () => dbRows<{ status: string }>(dir, 'SELECT status FROM runs ORDER BY started_at'), (rows) => rows.length === 2 && rows.every((r) => r.status === 'interrupted'), 'both interrupted');
    expect((await client.experimental.tasks.getTask(first.task.taskId)).status).toBe('cancelled');
  });
});
