// `squadron runs` and `squadron inspect`: looking at stored runs through the CLI.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';
import { fakeModelBlock } from '../support/e2eProject.js';
import { startFakeModelServer, type FakeModelServer } from '../support/fakeModelServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

let server: FakeModelServer;
let dir = '';
let runId = '';

beforeAll(async () => {
  const script = turnScript({
    'commander of task "write"': [callAgent('worker', 'Write hello.txt'), (req) => taskComplete(`wrote it: ${JSON.parse(lastToolResult(req)).answer}`)],
    'worker agent of task "write"': [toolCall('builtins_files_write', { path: 'hello.txt', content: 'hello' }), { text: 'hello.txt written' }],
    'commander of task "check"': [
      { toolCalls: [{ name: 'submit_output', input: { output: { ok: true } } }, { name: 'task_complete', input: { summary: 'checked' } }] },
    ],
  });
  server = await startFakeModelServer({ respond: script.respond });
  dir = tempDir();
  writeFileSync(
    join(dir, 'mission.hcl'),
    `${fakeModelBlock(server)}mission "inspectable" {
  commander { model = models.fake.claude_haiku_4_5 }
  task "write" {
    objective = "write a file"
    tools     = [builtins.files.write]
  }
  task "check" {
    depends_on = [tasks.write]
    objective  = "check it"
    tools      = [builtins.files.read]
    output {
      field "ok" {
        type     = "boolean"
        required = true
      }
    }
  }
}`,
  );
  const result = await runCli(['run', dir, '--json'], { cwd: dir });
  expect(result.code, result.stderr).toBe(0);
  runId = JSON.parse(result.stdout).run_id as string;
});

afterAll(async () => {
  await server.close();
});

describe('squadron runs', () => {
  it('lists stored runs with status, tokens and cost (text and --json)', async () => {
    const json = await runCli(['runs', '--json'], { cwd: dir });
    expect(json.code, json.stderr).toBe(0);
    const { runs } = JSON.parse(json.stdout) as { runs: { id: string; mission: string; status: string; tokens: number; tasks: { completed: number } }[] };
    expect(runs[0]).toMatchObject({ id: runId, mission: 'inspectable', status: 'completed', tasks: { total: 2, completed: 2, failed: 0, skipped: 0 } });
    expect(runs[0]!.tokens).toBeGreaterThan(0);
    const text = await runCli(['runs'], { cwd: dir });
    expect(text.stdout).toMatch(/^RUN\s+MISSION\s+STATUS\s+STARTED\s+DURATION\s+TASKS\s+TOKENS\s+COST/);
    expect(text.stdout).toContain(runId);
  });

  it('--db may name the config (its directory or .hcl file) as given to run, from anywhere', async () => {
    const elsewhere = tempDir();
    for (const db of [dir, join(dir, 'mission.hcl'), join(dir, '.squadron', 'squadron.db')]) {
      const listed = await runCli(['runs', '--db', db], { cwd: elsewhere });
      expect([listed.code, listed.stdout.includes(runId)], `${db}: ${listed.stderr}`).toEqual([0, true]);
    }
    const inspected = await runCli(['inspect', runId, '--db', join(dir, 'mission.hcl')], { cwd: elsewhere });
    expect([inspected.code, inspected.stdout]).toEqual([0, expect.stringContaining(`run ${runId} · mission inspectable · completed`)]);
    const missing = await runCli(['runs', '--db', elsewhere], { cwd: elsewhere });
    expect([missing.code, missing.stderr]).toEqual([2, 'error: no database at .squadron/squadron.db; pass --db with the database file or the config path you ran (run stores it in .squadron/squadron.db beside the config)\n']);
  });

  it('explains where the database is when there is none', async () => {
    const result = await runCli(['runs'], { cwd: tempDir() });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: no database in this folder (.squadron/squadron.db) or in the folders below it (3 levels); run the command from the folder you ran `squadron run` from, or pass --db with the config path you ran\n',
    );
  });
});

describe('squadron inspect', () => {
  it('shows the task graph with statuses, summaries, outputs and usage', async () => {
    const result = await runCli(['inspect', runId, '--json'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const doc = JSON.parse(result.stdout);
    expect(doc.run.status).toBe('completed');
    expect(doc.tasks.map((t: { name: string }) => t.name)).toEqual(['write', 'check']);
    expect(doc.tasks[0]).toMatchObject({ status: 'completed', summary: 'wrote it: hello.txt written', depends_on: [] });
    expect(doc.tasks[1]).toMatchObject({ status: 'completed', output: { ok: true }, depends_on: ['write'] });
    expect(doc.tasks[0].usage.model_turns).toBe(4);
    expect(doc.tasks[0].sessions).toBeUndefined();
  });

  it('with --transcript prints every session, message and tool call in order', async () => {
    const result = await runCli(['inspect', runId, '--transcript', '--task', 'write'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const out = result.stdout;
    expect(out).not.toContain('■ check');
    const order = ['── commander', '[user] write a file', 'call_agent', '── worker', 'builtins_files_write {"path":"hello.txt","content":"hello"} [builtins.files.write: completed]', '[assistant] hello.txt written'];
    let at = -1;
    for (const piece of order) {
      const next = out.indexOf(piece, at + 1);
      expect(next, `"${piece}" after position ${at}`).toBeGreaterThan(at);
      at = next;
    }
  });

  it('rejects an unknown run or task with a usage error', async () => {
    expect((await runCli(['inspect', 'run_nope'], { cwd: dir })).stderr).toContain('no run run_nope');
    const task = await runCli(['inspect', runId, '--task', 'nope'], { cwd: dir });
    expect(task.code).toBe(2);
    expect(task.stderr).toContain('has no task "nope"');
  });
});
