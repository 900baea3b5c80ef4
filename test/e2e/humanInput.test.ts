// End-to-end: the operator in the loop. builtins.human.ask without a terminal parks the run (exit 4)
// until `squadron answer` (a choice checked against the question's choices), and resume gives the
// model the answer; on a terminal (a pseudo-terminal here) the CLI asks at once, for a question and
// for an approval, and the run completes without stopping.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { ANTHROPIC_MODEL, commanderOf, fakeModelBlock, openRunDb, removeProjects, workerOf, writeProject } from '../support/e2eProject.js';
import { type FakeModelServer, type FakeRequest, withFakeModelServer } from '../support/fakeModelServer.js';
import { spawnCliInPty } from '../support/ptyCli.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

afterAll(removeProjects);

function project(server: FakeModelServer): string {
  return writeProject({
    'main.hcl': `${fakeModelBlock(server)}
mission "m" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "paint" {
    objective = "Paint the shed."
    tools     = [builtins.human.ask, builtins.files.write]
    approval  = [builtins.files.write]
  }
}
`,
  });
}

const ask = toolCall('builtins_human_ask', { question: 'Which colour?', choices: ['red', 'blue'] });

function script(afterAnswer: (req: FakeRequest) => unknown = (req) => ({ text: `worker: ${lastToolResult(req)}` })) {
  return turnScript({
    [commanderOf('paint')]: [callAgent('worker', 'Paint'), (req: FakeRequest) => taskComplete(`done: ${lastToolResult(req)}`)],
    [workerOf('paint')]: [ask, afterAnswer as never, (req: FakeRequest) => ({ text: `worker: ${lastToolResult(req)}` })],
  });
}

function runIdOf(dir: string): string {
  const db = openRunDb(dir);
  try {
    return db.prepare('SELECT id FROM runs').pluck().get() as string;
  } finally {
    db.close();
  }
}

describe('human input', () => {
  it('parks a question without a terminal until answer, then resume gives the model the answer', async () => {
    const turns = script();
    await withFakeModelServer(turns.respond, async (server) => {
      const dir = project(server);
      const first = await runCli(['run', dir], { cwd: dir, timeoutMs: 120_000 });
      expect(first.code, first.stderr).toBe(4);
      const runId = runIdOf(dir);
      const db = openRunDb(dir);
      const q = db.prepare("SELECT id, kind, status, payload_json FROM operator_requests").get() as { id: string; kind: string; status: string; payload_json: string };
      db.close();
      expect(q).toMatchObject({ kind: 'question', status: 'pending' });
      expect(JSON.parse(q.payload_json)).toEqual({ question: 'Which colour?', choices: ['red', 'blue'] });
      expect(first.stdout).toContain(`squadron answer ${runId} --question ${q.id} --choice "red" | --choice "blue"`);

      const wrong = await runCli(['answer', runId, '--question', q.id, '--choice', 'green', '--db', dir], { cwd: dir });
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain('"green" is not one of the choices: red, blue');
      const answered = await runCli(['answer', runId, '--choice', 'blue', '--db', dir, '--json'], { cwd: dir, env: { SQUADRON_OPERATOR: 'carol' } });
      expect(answered.code, answered.stderr).toBe(0);
      expect(JSON.parse(answered.stdout)).toMatchObject({ schema_version: 1, run_id: runId, decided: [{ id: q.id, kind: 'question', status: 'answered', decided_by: 'carol', answer: { choices: ['blue'] } }], still_waiting: [] });

      const resumed = await runCli(['resume', runId, '--db', dir], { cwd: dir, timeoutMs: 120_000 });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(turns.problems).toEqual([]);
      expect(resumed.stdout).toContain('worker: The operator chose: blue');
    });
  });

  it('asks on a terminal: a question, then an approval, and the run completes at once', async () => {
    const turns = script(() => toolCall('builtins_files_write', { path: 'shed.txt', content: 'blue' }));
    await withFakeModelServer(turns.respond, async (server) => {
      const dir = project(server);
      const term = spawnCliInPty(['run', dir], { cwd: dir, env: { SQUADRON_OPERATOR: 'dave' } });
      let at = await term.waitFor('Which colour?');
      at = await term.waitFor('choose a number', at);
      term.type('2');
      at = await term.waitFor('approve this call? [y/n]', at);
      expect(term.screen().slice(0, at)).toContain('tool builtins.files.write (needs approval: task)');
      expect(term.screen().slice(0, at)).toContain('"content": "blue"');
      term.type('y');
      const code = await term.exited;
      expect(code, term.screen()).toBe(0);
      expect(turns.problems).toEqual([]);
      const runId = runIdOf(dir);
      expect(readFileSync(join(dir, '.squadron', 'workspaces', runId, 'shed.txt'), 'utf8')).toBe('blue');
      const db = openRunDb(dir);
      const rows = db.prepare('SELECT kind, status, decided_by FROM operator_requests ORDER BY created_at').all();
      db.close();
      expect(rows).toEqual([
        { kind: 'question', status: 'answered', decided_by: 'dave' },
        { kind: 'approval', status: 'approved', decided_by: 'dave' },
      ]);
    });
  });

  it('records a denial typed at the terminal with its reason, and the tool never runs', async () => {
    const turns = script(() => toolCall('builtins_files_write', { path: 'shed.txt', content: 'red' }));
    await withFakeModelServer(turns.respond, async (server) => {
      const dir = project(server);
      const term = spawnCliInPty(['run', dir], { cwd: dir });
      let at = await term.waitFor('choose a number');
      term.type('1');
      at = await term.waitFor('approve this call? [y/n]', at);
      term.type('n');
      at = await term.waitFor('reason (the model reads it):', at);
      term.type('red is ugly');
      expect(await term.exited, term.screen()).toBe(0);
      expect(term.screen()).toContain('worker: The operator');
      expect(term.screen()).toContain('Reason: red is ugly');
      expect(existsSync(join(dir, '.squadron', 'workspaces', runIdOf(dir), 'shed.txt'))).toBe(false);
    });
  });

  it('survives kill -9 while the terminal asks: approve without it, then resume runs the call once', async () => {
    const turns = script(() => toolCall('builtins_files_write', { path: 'shed.txt', content: 'blue' }));
    await withFakeModelServer(turns.respond, async (server) => {
      const dir = project(server);
      const term = spawnCliInPty(['run', dir], { cwd: dir });
      let at = await term.waitFor('choose a number');
      term.type('2');
      at = await term.waitFor('approve this call? [y/n]', at);
      // The CLI's own pid, from its lease on the run (the pty sits between the test and it).
      const db = openRunDb(dir);
      const { pid, run_id: runId } = db.prepare('SELECT pid, run_id FROM leases').get() as { pid: number; run_id: string };
      db.close();
      process.kill(pid, 'SIGKILL');
      await term.exited;
      const check = openRunDb(dir);
      const pending = check.prepare("SELECT id, status FROM operator_requests WHERE kind = 'approval'").get() as { id: string; status: string };
      const ledger = check.prepare("SELECT status FROM tool_calls WHERE tool_ref = 'builtins.files.write'").all();
      check.close();
      expect(pending.status).toBe('pending');
      expect(ledger).toEqual([{ status: 'pending_approval' }]);
      expect(existsSync(join(dir, '.squadron', 'workspaces', runId, 'shed.txt'))).toBe(false);

      expect((await runCli(['approve', runId, '--call', pending.id, '--db', dir], { cwd: dir })).code).toBe(0);
      const resumed = await runCli(['resume', runId, '--db', dir], { cwd: dir, timeoutMs: 120_000 });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(turns.problems).toEqual([]);
      expect(readFileSync(join(dir, '.squadron', 'workspaces', runId, 'shed.txt'), 'utf8')).toBe('blue');
      const after = openRunDb(dir);
      expect(after.prepare("SELECT COUNT(*) FROM tool_calls WHERE tool_ref = 'builtins.files.write'").pluck().get()).toBe(1);
      // The question answered before the kill was not asked again.
      expect(after.prepare("SELECT status FROM operator_requests WHERE kind = 'question'").pluck().get()).toBe('answered');
      after.close();
    });
  });
});
