// End-to-end: tool calls that need the operator's approval, without a terminal. The call is stored as
// pending_approval and never run; the run ends `waiting` (exit 4) and prints the commands; approve
// then resume runs it exactly once, deny then resume gives the model the reason and never runs it;
// in a run of parallel tasks, the others finish first.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, commanderOf, dbRows, fakeModelBlock, removeProjects, workerOf, writeProject } from '../support/e2eProject.js';
import { type FakeModelServer, type FakeRequest, withFakeModelServer } from '../support/fakeModelServer.js';
import { callAgent, firstUserMessage, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

afterAll(removeProjects);

function project(server: FakeModelServer, extraTask = ''): string {
  return writeProject({
    'main.hcl': `${fakeModelBlock(server)}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "publish" {
    objective = "Write the note."
    tools     = [builtins.files.write, builtins.files.read]
    approval  = [builtins.files.write]
  }
  ${extraTask}
}
`,
  });
}

const write = toolCall('builtins_files_write', { path: 'note.txt', content: 'hello' });

function publishScript(extra: Record<string, ((req: FakeRequest) => unknown) | unknown[]> = {}) {
  return turnScript({
    [commanderOf('publish')]: [callAgent('worker', 'Write the note'), (req: FakeRequest) => taskComplete(`worker said: ${lastToolResult(req)}`)],
    [workerOf('publish')]: [write, (req: FakeRequest) => ({ text: `result: ${lastToolResult(req)}` })],
    ...(extra as Record<string, never>),
  });
}

function workspaceFile(dir: string, runId: string): string {
  return join(dir, '.squadron', 'workspaces', runId, 'note.txt');
}

describe('approvals without a terminal', () => {
  it('parks the call, ends waiting (exit 4), and runs it exactly once after approve and resume', async () => {
    const turns = publishScript();
    await withFakeModelServer(turns.respond, async (server) => {
      const dir = project(server);
      const plan = await runCli(['plan', dir], { cwd: dir });
      expect(plan.stdout).toContain('- builtins.files.write  (task) · needs approval (task)');
      expect(plan.stdout).toMatch(/- builtins\.files\.read {2}\(task\)\n/);
      const first = await runCli(['run', dir], { cwd: dir, timeoutMs: 120_000 });
      expect(first.code, first.stderr).toBe(4);
      const [run] = dbRows<{ id: string; status: string }>(dir, 'SELECT id, status FROM runs');
      expect(run!.status).toBe('waiting');
      const [request] = dbRows<{ id: string; status: string; tool_ref: string; kind: string }>(dir, 'SELECT * FROM operator_requests');
      expect(request).toMatchObject({ status: 'pending', tool_ref: 'builtins.files.write', kind: 'approval' });
      expect(first.stdout).toContain('waiting for the operator (1):');
      expect(first.stdout).toContain(`squadron approve ${run!.id} --call ${request!.id}`);
      expect(dbRows<{ status: string }>(dir, "SELECT status FROM tool_calls WHERE tool_ref = 'builtins.files.write'")).toEqual([{ status: 'pending_approval' }]);
      expect(existsSync(workspaceFile(dir, run!.id))).toBe(false);

      const listed = await runCli(['runs', '--db', dir, '--json'], { cwd: dir });
      const runs = JSON.parse(listed.stdout) as { runs: { status: string; waiting_for: { id: string }[] }[] };
      expect(runs.runs[0]).toMatchObject({ status: 'waiting', waiting_for: [{ id: request!.id }] });

      expect((await runCli(['runs', '--db', dir], { cwd: dir })).stdout).toMatch(/ waiting \(1 approval\) /);
      // The task that parked the call waits with its run; it is not `pending` (never started).
      expect((await runCli(['inspect', run!.id, '--db', dir], { cwd: dir })).stdout).toMatch(/^■ publish · waiting · /m);
      const approved = await runCli(['approve', run!.id, '--call', request!.id, '--db', dir], { cwd: dir, env: { SQUADRON_OPERATOR: 'alice' } });
      expect(approved.code, approved.stderr).toBe(0);
      // Every request decided, not yet resumed: not `waiting ()`.
      expect((await runCli(['runs', '--db', dir], { cwd: dir })).stdout).toMatch(/ waiting \(all decided: resume it\) /);
      expect((await runCli(['inspect', run!.id, '--db', dir], { cwd: dir })).stdout).toMatch(/^■ publish · waiting · /m);
      expect(approved.stdout).toContain(`${request!.id} approved by alice`);
      const again = await runCli(['approve', run!.id, '--call', request!.id, '--db', dir], { cwd: dir });
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('was already decided: approved by alice');

      const resumed = await runCli(['resume', run!.id, '--db', dir], { cwd: dir, timeoutMs: 120_000 });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(turns.problems).toEqual([]);
      expect(readFileSync(workspaceFile(dir, run!.id), 'utf8')).toBe('hello');
      expect(dbRows<{ status: string }>(dir, "SELECT status FROM tool_calls WHERE tool_ref = 'builtins.files.write'")).toEqual([{ status: 'completed' }]);
      expect(resumed.stdout).toContain('result: Wrote 5 bytes to note.txt');
      const shown = await runCli(['inspect', run!.id, '--db', dir], { cwd: dir });
      expect(shown.stdout).toMatch(new RegExp(`${request!.id} approval of builtins.files.write .*approved by alice`));
    });
  });

  it('gives the model the reason of a denied call and never runs it', async () => {
    const turns = publishScript();
    await withFakeModelServer(turns.respond, async (server) => {
      const dir = project(server);
      const first = await runCli(['run', dir, '--json'], { cwd: dir, timeoutMs: 120_000 });
      expect(first.code, first.stderr).toBe(4);
      const report = JSON.parse(first.stdout) as { status: string; error_code: string; run_id: string; waiting_for: { id: string; input: unknown }[] };
      expect(report).toMatchObject({ status: 'waiting', error_code: 'waiting' });
      expect(report.waiting_for[0]!.input).toEqual({ path: 'note.txt', content: 'hello' });
      const runId = report.run_id;
      const denied = await runCli(['deny', runId, '--reason', 'not today', '--db', dir, '--json'], { cwd: dir, env: { SQUADRON_OPERATOR: 'bob' } });
      expect(denied.code, denied.stderr).toBe(0);
      // --json: the requests decided, those still waiting and the command that continues the run.
      expect(JSON.parse(denied.stdout)).toMatchObject({
        schema_version: 1,
        run_id: runId,
        decided: [{ id: report.waiting_for[0]!.id, kind: 'approval', status: 'denied', reason: 'not today', decided_by: 'bob', input: { path: 'note.txt', content: 'hello' } }],
        still_waiting: [],
        resume_command: `squadron resume ${runId}`,
      });
      const resumed = await runCli(['resume', runId, '--db', dir], { cwd: dir, timeoutMs: 120_000 });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(turns.problems).toEqual([]);
      expect(resumed.stdout).toContain('The operator (bob) denied this call, so it was not executed. Reason: not today');
      expect(existsSync(workspaceFile(dir, runId))).toBe(false);
      expect(dbRows<{ is_error: number; status: string }>(dir, "SELECT status, is_error FROM tool_calls WHERE tool_ref = 'builtins.files.write'")).toEqual([{ status: 'completed', is_error: 1 }]);
    });
  });

  it('lets the other tasks of the run finish before it waits', async () => {
    const turns = publishScript({
      [commanderOf('other')]: [callAgent('worker', 'Read'), (req: FakeRequest) => taskComplete(`other: ${lastToolResult(req)}`)],
      [workerOf('other')]: [{ text: 'nothing to do' }],
      [commanderOf('after')]: [callAgent('worker', 'Read'), (req: FakeRequest) => taskComplete(`after: ${lastToolResult(req)}`)],
      [workerOf('after')]: [{ text: 'done after' }],
    });
    await withFakeModelServer(turns.respond, async (server) => {
      const dir = project(
        server,
        `task "other" {
    objective = "Other work."
    tools     = [builtins.files.read]
  }
  task "after" {
    objective = "After publish."
    depends_on = [tasks.publish]
    tools     = [builtins.files.read]
  }`,
      );
      const first = await runCli(['run', dir], { cwd: dir, timeoutMs: 120_000 });
      expect(first.code, first.stderr).toBe(4);
      expect(dbRows<{ name: string; status: string }>(dir, 'SELECT name, status FROM tasks ORDER BY name')).toEqual([
        { name: 'other', status: 'completed' },
        { name: 'publish', status: 'pending' },
      ]);
      const runId = dbRows<{ id: string }>(dir, 'SELECT id FROM runs')[0]!.id;
      expect((await runCli(['approve', runId, '--all', '--db', dir], { cwd: dir })).code).toBe(0);
      const resumed = await runCli(['resume', runId, '--db', dir], { cwd: dir, timeoutMs: 120_000 });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(turns.problems).toEqual([]);
      expect(dbRows<{ name: string; status: string }>(dir, 'SELECT name, status FROM tasks ORDER BY name').map((t) => t.status)).toEqual(['completed', 'completed', 'completed']);
    });
  });

  it('parks one item of a parallel iterated task while the other items finish, and continues it on resume', async () => {
    const turns = turnScript({
      'commander of task': [(req: FakeRequest) => callAgent('worker', firstUserMessage(req).slice(0, 200)), (req: FakeRequest) => taskComplete(`item: ${lastToolResult(req)}`)],
      'worker agent of task': [
        (req: FakeRequest) => (firstUserMessage(req).includes('Write note 1') ? toolCall('builtins_files_write', { path: 'n1.txt', content: 'one' }) : { text: 'nothing to write' }),
        (req: FakeRequest) => ({ text: `wrote: ${lastToolResult(req)}` }),
      ],
    });
    await withFakeModelServer(turns.respond, async (server) => {
      const dir = writeProject({
        'main.hcl': `${fakeModelBlock(server)}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  dataset "notes" {
    items = ["0", "1", "2"]
  }
  task "notes" {
    objective = "Write note \${item}."
    tools     = [builtins.files.write]
    approval  = [builtins.files.write]
    iterator {
      dataset  = datasets.notes
      parallel = true
    }
  }
}
`,
      });
      const first = await runCli(['run', dir], { cwd: dir, timeoutMs: 120_000 });
      expect(first.code, first.stderr).toBe(4);
      expect(turns.problems).toEqual([]);
      expect(dbRows<{ idx: number; status: string }>(dir, "SELECT idx, status FROM task_items WHERE task = 'notes' ORDER BY idx")).toEqual([
        { idx: 0, status: 'completed' },
        { idx: 1, status: 'cancelled' },
        { idx: 2, status: 'completed' },
      ]);
      const [request] = dbRows<{ id: string; task: string; item: number }>(dir, 'SELECT id, task, item FROM operator_requests');
      expect(request).toMatchObject({ task: 'notes[1]', item: 1 });
      const runId = dbRows<{ id: string }>(dir, 'SELECT id FROM runs')[0]!.id;
      expect((await runCli(['approve', runId, '--db', dir], { cwd: dir })).code).toBe(0);
      const resumed = await runCli(['resume', runId, '--db', dir], { cwd: dir, timeoutMs: 120_000 });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(turns.problems).toEqual([]);
      expect(readFileSync(join(dir, '.squadron', 'workspaces', runId, 'n1.txt'), 'utf8')).toBe('one');
      expect(dbRows<{ status: string }>(dir, "SELECT status FROM task_items WHERE task = 'notes'").map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
    });
  });
});
