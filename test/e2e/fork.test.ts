// End-to-end: `squadron fork` and `squadron diff`. A run of three direct tasks, each with a side effect
// (an HTTP POST a test server counts), is forked at a task: the tasks before it are copied (no model
// request, no side effect), the fork task and the rest run once. A fork at a turn continues the copied
// session (its first request is the parent's request at that turn); an edited config shows in diff;
// a fork of a fork; a fork of a running run is refused; a fork killed with SIGKILL resumes; approvals
// given before the fork point stay given, the fork task asks again.

import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../support/cli.js';
import { openRunDb, removeProjects, writeProject } from '../support/e2eProject.js';
import { startFakeModelServer } from '../support/fakeModelServer.js';
import { forkMission as mission, forkScript as script, labelOf } from '../support/forkMission.js';
import { startCounter } from '../support/localServer.js';

vi.setConfig({ testTimeout: 180_000 });
afterAll(removeProjects);

function forkedId(stdout: string): string {
  const id = /^run (run_\w+) \(forked from/m.exec(stdout)?.[1];
  expect(id, stdout).toBeDefined();
  return id!;
}

async function parentRun(dir: string): Promise<string> {
  const first = await runCli(['run', dir], { cwd: dir });
  expect(first.code, first.stderr + first.stdout).toBe(0);
  const id = /^run (run_\w+)/m.exec(first.stdout)?.[1];
  expect(id).toBeDefined();
  return id!;
}

describe('squadron fork', () => {
  it('copies the tasks before the fork point (no request, no side effect) and runs the fork task and the rest once; diff and lineage show it', async () => {
    const counter = await startCounter();
    const models = await startFakeModelServer({ respond: script(counter.url) });
    try {
      const dir = writeProject({ 'main.hcl': mission(models, counter.url) });
      const parent = await parentRun(dir);
      expect(counter.marks).toEqual(['OBJ-prepare-one#1', 'OBJ-draft-one#1', 'OBJ-draft-one#2', 'OBJ-publish-one#1']);
      const before = models.requests.length;
      counter.marks.length = 0;

      const forked = await runCli(['fork', parent, '--at', 'draft', '--set-input', 'tag=two'], { cwd: dir });
      expect(forked.code, forked.stderr + forked.stdout).toBe(0);
      const child = forkedId(forked.stdout);
      // prepare was copied: no request of its worker, no POST; draft and publish ran once with the new input.
      const requests = models.requests.slice(before);
      expect(requests.map(labelOf)).toEqual(['draft', 'draft', 'draft', 'publish', 'publish']);
      expect(counter.marks).toEqual(['OBJ-draft-two#1', 'OBJ-draft-two#2', 'OBJ-publish-two#1']);

      const db = openRunDb(dir);
      try {
        const row = db.prepare('SELECT parent_run_id, fork_json FROM runs WHERE id = ?').get(child) as { parent_run_id: string; fork_json: string };
        expect(row.parent_run_id).toBe(parent);
        expect(JSON.parse(row.fork_json)).toEqual({ task: 'draft', changes: ['input tag'], copied: ['prepare'] });
        const tasks = db.prepare('SELECT name, status, summary FROM tasks WHERE run_id = ? ORDER BY created_seq').all(child);
        expect(tasks).toEqual([
          { name: 'prepare', status: 'completed', summary: 'done OBJ-prepare-one' },
          { name: 'draft', status: 'completed', summary: 'done OBJ-draft-two' },
          { name: 'publish', status: 'completed', summary: 'done OBJ-publish-two' },
        ]);
        // The copied session and its ledger are there (inspect reads them); its turns are inherited, not the child's spend.
        const calls = db.prepare("SELECT count(*) FROM tool_calls c JOIN sessions s ON s.id = c.session_id WHERE s.run_id = ? AND s.task_name = 'prepare' AND c.tool_ref = 'builtins.http.post'").pluck().get(child);
        expect(calls).toBe(1);
        const turns = db.prepare('SELECT inherited, count(*) AS n FROM model_turns WHERE run_id = ? GROUP BY inherited ORDER BY inherited').all(child);
        expect(turns).toEqual([
          { inherited: 0, n: 5 },
          { inherited: 1, n: 2 },
        ]);
      } finally {
        db.close();
      }

      const runs = await runCli(['runs', '--db', dir, '--json'], { cwd: dir });
      const listed = (JSON.parse(runs.stdout) as { runs: { id: string; parent_run_id?: string; fork?: { task: string }; tokens: number }[] }).runs;
      expect(listed.find((r) => r.id === child)).toMatchObject({ parent_run_id: parent, fork: { task: 'draft' } });
      expect(listed.find((r) => r.id === parent)?.parent_run_id).toBeUndefined();
      // The fork's tokens are its own: the turns copied from its parent are not counted again.
      const own = openRunDb(dir);
      const ownTokens = own.prepare('SELECT SUM(input_tokens + output_tokens + cache_read_tokens + cache_write_tokens) FROM model_turns WHERE run_id = ? AND inherited = 0').pluck().get(child) as number;
      const allTokens = own.prepare('SELECT SUM(input_tokens + output_tokens + cache_read_tokens + cache_write_tokens) FROM model_turns WHERE run_id = ?').pluck().get(child) as number;
      own.close();
      expect(ownTokens).toBeLessThan(allTokens);
      expect(listed.find((r) => r.id === child)?.tokens).toBe(ownTokens);
      const human = await runCli(['runs', '--db', dir], { cwd: dir });
      expect(human.stdout).toMatch(new RegExp(`^${child} .*${parent} at draft$`, 'm'));
      const inspect = await runCli(['inspect', child, '--db', dir], { cwd: dir });
      expect(inspect.stdout).toContain(`forked from ${parent} at draft · changed: input tag · copied: prepare`);
      const inspectJson = JSON.parse((await runCli(['inspect', child, '--db', dir, '--json'], { cwd: dir })).stdout) as { run: { parent_run_id: string; fork: unknown } };
      expect(inspectJson.run.parent_run_id).toBe(parent);
      expect(inspectJson.run.fork).toEqual({ task: 'draft', changes: ['input tag'], copied: ['prepare'] });

      const diff = await runCli(['diff', parent, child, '--db', dir, '--json'], { cwd: dir });
      expect(diff.code, diff.stderr).toBe(0);
      const doc = JSON.parse(diff.stdout) as { tasks: { task: string; differs: boolean; a: { summary: string; copied: boolean; turns: number; tools: string[] }; b: { summary: string; copied: boolean; turns: number } }[] };
      expect(doc.tasks.map((t) => [t.task, t.differs, t.b.copied])).toEqual([
        ['prepare', false, true],
        ['draft', true, false],
        ['publish', true, false],
      ]);
      expect(doc.tasks[1]).toMatchObject({ a: { summary: 'done OBJ-draft-one', turns: 3, tools: ['builtins.http.post', 'task_complete'] }, b: { summary: 'done OBJ-draft-two', turns: 3 } });
      const text = await runCli(['diff', parent, child, '--db', dir], { cwd: dir });
      expect(text.stdout).toContain('differ: draft, publish');
      expect(text.stdout).toMatch(/^= prepare +a +completed +- +builtins\.http\.post task_complete +2 /m);

      // A fork of the fork, at its last task: prepare and draft are copied from the fork (its own draft).
      counter.marks.length = 0;
      const again = await runCli(['fork', child, '--at', 'publish'], { cwd: dir });
      expect(again.code, again.stderr + again.stdout).toBe(0);
      const grandchild = forkedId(again.stdout);
      expect(counter.marks).toEqual(['OBJ-publish-two#1']);
      const g = openRunDb(dir);
      try {
        expect(g.prepare('SELECT parent_run_id FROM runs WHERE id = ?').pluck().get(grandchild)).toBe(child);
        expect(g.prepare("SELECT summary FROM tasks WHERE run_id = ? AND name = 'draft'").pluck().get(grandchild)).toBe('done OBJ-draft-two');
      } finally {
        g.close();
      }
    } finally {
      await models.close();
      await counter.close();
    }
  });

  it('a fork at a turn continues the copied session: its first request is the parent\'s request at that turn, and the earlier call is not made again', async () => {
    const counter = await startCounter();
    const models = await startFakeModelServer({ respond: script(counter.url) });
    try {
      const dir = writeProject({ 'main.hcl': mission(models, counter.url) });
      const parent = await parentRun(dir);
      const parentDraft = models.requests.filter((r) => labelOf(r) === 'draft');
      expect(parentDraft).toHaveLength(3);
      const before = models.requests.length;
      counter.marks.length = 0;

      const forked = await runCli(['fork', parent, '--at', 'draft', '--turn', '2'], { cwd: dir });
      expect(forked.code, forked.stderr + forked.stdout).toBe(0);
      const requests = models.requests.slice(before);
      expect(requests.map(labelOf)).toEqual(['draft', 'draft', 'publish', 'publish']);
      expect(requests[0]!.canonical.messages).toEqual(parentDraft[1]!.canonical.messages);
      expect(requests[0]!.canonical.system).toBe(parentDraft[1]!.canonical.system);
      // The first POST of draft happened in the parent and is kept; only the second and publish's run.
      expect(counter.marks).toEqual(['OBJ-draft-one#2', 'OBJ-publish-one#1']);

      // With an edited config, the continued session's request is the parent's plus the change (its prompt, rendered anew).
      const main = join(dir, 'main.hcl');
      writeFileSync(main, readFileSync(main, 'utf8').replace('  direct = true\n', '  direct = true\n  description = "NEW-DESCRIPTION"\n'));
      const next = models.requests.length;
      const edited = await runCli(['fork', parent, '--at', 'draft', '--turn', '2'], { cwd: dir });
      expect(edited.code, edited.stderr + edited.stdout).toBe(0);
      const first = models.requests[next]!;
      expect(labelOf(first)).toBe('draft');
      expect(first.canonical.messages).toEqual(parentDraft[1]!.canonical.messages);
      expect(parentDraft[1]!.canonical.system).not.toContain('NEW-DESCRIPTION');
      expect(first.canonical.system).toContain('The mission: NEW-DESCRIPTION');
      expect(first.canonical.system.replace(' The mission: NEW-DESCRIPTION', '')).toBe(parentDraft[1]!.canonical.system);

      const bad = await runCli(['fork', parent, '--at', 'draft', '--turn', '9'], { cwd: dir });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--turn 9: the worker of task "draft" made 3 model requests in the parent run (give 1–3)');
    } finally {
      await models.close();
      await counter.close();
    }
  });

  it('an edited config applies from the fork point on, is recorded, and shows in diff', async () => {
    const counter = await startCounter();
    const models = await startFakeModelServer({ respond: script(counter.url) });
    try {
      const dir = writeProject({ 'main.hcl': mission(models, counter.url) });
      const parent = await parentRun(dir);
      const main = join(dir, 'main.hcl');
      writeFileSync(main, readFileSync(main, 'utf8').replace('OBJ-publish-', 'OBJ-release-'));
      counter.marks.length = 0;
      const forked = await runCli(['fork', parent, '--at', 'publish'], { cwd: dir });
      expect(forked.code, forked.stderr + forked.stdout).toBe(0);
      const child = forkedId(forked.stdout);
      expect(counter.marks).toEqual(['OBJ-release-one#1']);
      const diff = await runCli(['diff', parent, child, '--db', dir, '--json'], { cwd: dir });
      const doc = JSON.parse(diff.stdout) as { tasks: { task: string; differs: boolean; a: { summary: string }; b: { summary: string } }[] };
      expect(doc.tasks.map((t) => [t.task, t.differs, t.a.summary, t.b.summary])).toEqual([
        ['prepare', false, 'done OBJ-prepare-one', 'done OBJ-prepare-one'],
        ['draft', false, 'done OBJ-draft-one', 'done OBJ-draft-one'],
        ['publish', true, 'done OBJ-publish-one', 'done OBJ-release-one'],
      ]);
      const inspect = JSON.parse((await runCli(['inspect', child, '--db', dir, '--json'], { cwd: dir })).stdout) as { run: { fork: { changes: string[] } } };
      expect(inspect.run.fork.changes).toEqual(['config main.hcl']);
    } finally {
      await models.close();
      await counter.close();
    }
  });

  it('refuses to fork a run still running, in one line (exit 2)', async () => {
    const counter = await startCounter();
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    let reached: () => void = () => undefined;
    const atDraft = new Promise<void>((r) => (reached = r));
    const models = await startFakeModelServer({
      respond: async (request) => {
        if (labelOf(request) === 'draft') {
          reached();
          await held;
        }
        return script(counter.url)(request);
      },
    });
    try {
      const dir = writeProject({ 'main.hcl': mission(models, counter.url) });
      const running = runCli(['run', dir], { cwd: dir });
      await atDraft;
      const db = openRunDb(dir);
      const parent = db.prepare('SELECT id FROM runs').pluck().get() as string;
      db.close();
      const refused = await runCli(['fork', parent, '--at', 'draft'], { cwd: dir });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(`error: run ${parent} is still running; fork it once it has stopped (or interrupt it first)\n`);
      release();
      expect((await running).code).toBe(0);
    } finally {
      release();
      await models.close();
      await counter.close();
    }
  });

  it('a fork killed with SIGKILL resumes like any run: nothing copied or done runs again', async () => {
    const counter = await startCounter();
    let victim: ChildProcess | undefined;
    let killed = false;
    const models = await startFakeModelServer({
      respond: script(counter.url, (request) => {
        if (victim && !killed && labelOf(request) === 'publish') {
          killed = true;
          victim.kill('SIGKILL');
          return { delayMs: 5_000, text: 'too late' };
        }
        return undefined;
      }),
    });
    try {
      const dir = writeProject({ 'main.hcl': mission(models, counter.url) });
      const parent = await parentRun(dir);
      counter.marks.length = 0;
      const forked = await runCli(['fork', parent, '--at', 'draft', '--set-input', 'tag=k'], { cwd: dir, onSpawn: (c) => (victim = c) });
      expect(forked.signal).toBe('SIGKILL');
      const child = forkedId(forked.stdout);
      expect(counter.marks).toEqual(['OBJ-draft-k#1', 'OBJ-draft-k#2']);
      const before = models.requests.length;
      const resumed = await runCli(['resume', child, '--db', dir], { cwd: dir });
      expect(resumed.code, resumed.stderr + resumed.stdout).toBe(0);
      expect(models.requests.slice(before).map(labelOf)).toEqual(['publish', 'publish']);
      expect(counter.marks).toEqual(['OBJ-draft-k#1', 'OBJ-draft-k#2', 'OBJ-publish-k#1']);
    } finally {
      await models.close();
      await counter.close();
    }
  });
  it('approvals given in the parent before the fork point stay given; the fork task asks again', async () => {
    const counter = await startCounter();
    const models = await startFakeModelServer({ respond: script(counter.url) });
    try {
      const dir = writeProject({ 'main.hcl': mission(models, counter.url, { approval: true }) });
      let step = await runCli(['run', dir], { cwd: dir });
      const parent = /^run (run_\w+)/m.exec(step.stdout)![1]!;
      // Each POST waits for its approval: approve and resume until the run completes.
      for (let i = 0; i < 6 && step.code === 4; i++) {
        expect((await runCli(['approve', parent, '--all', '--db', dir], { cwd: dir })).code).toBe(0);
        step = await runCli(['resume', parent, '--db', dir], { cwd: dir });
      }
      expect(step.code, step.stderr + step.stdout).toBe(0);
      expect(counter.marks).toHaveLength(4);
      counter.marks.length = 0;

      const forked = await runCli(['fork', parent, '--at', 'draft'], { cwd: dir });
      expect(forked.code, forked.stderr + forked.stdout).toBe(4);
      const child = forkedId(forked.stdout);
      const db = openRunDb(dir);
      try {
        const requests = db.prepare('SELECT task, status FROM operator_requests WHERE run_id = ? ORDER BY created_at').all(child);
        expect(requests).toEqual([
          { task: 'prepare', status: 'approved' },
          { task: 'draft', status: 'pending' },
        ]);
      } finally {
        db.close();
      }
      expect(counter.marks).toEqual([]);
    } finally {
      await models.close();
      await counter.close();
    }
  });
});
