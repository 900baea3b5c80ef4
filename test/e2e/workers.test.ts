// Many runners on one PostgreSQL database: a run queued with `run --detach` is executed by three
// `squadron worker` processes, one of which is killed with SIGKILL while it holds work; every task
// completes, each task's side effect (a POST to a counting server) happens exactly once, no model
// reply is stored twice, and the work was spread over more than one worker. Also: `worker` and
// `--detach` against SQLite are one clear line, and `--concurrency` bounds a worker's tasks in flight.

import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { LOCAL_HTTP, ANTHROPIC_MODEL, removeProjects, writeProject } from '../support/e2eProject.js';
import { type FakeModelServer, type FakeRequest, startFakeModelServer } from '../support/fakeModelServer.js';
import { startCounter } from '../support/localServer.js';
import { usePostgres } from '../support/postgres.js';
import { LISTENER_LIMIT_OPTIONS, query, startWorker, waitFor, type Worker } from '../support/workerProcess.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

const server = usePostgres();
afterAll(removeProjects);

const TASKS = ['t1', 't2', 't3', 't4', 't5', 't6', 't7', 't8'];
const MODEL_DELAY_MS = 300;

function project(models: FakeModelServer, maxParallel: number): string {
  const tasks = TASKS.map((t) => `  task "${t}" {\n    objective = "Mark ${t}."\n    tools     = [builtins.http.post]\n  }\n`).join('');
  return writeProject({
    'main.hcl': `
${LOCAL_HTTP}model "fake" {
  provider = "anthropic"
  base_url = "${models.anthropicBaseURL}"
  api_key  = "k"
}
mission "fan" {
  max_parallel = ${maxParallel}
  commander { model = ${ANTHROPIC_MODEL} }
${tasks}}
`,
  });
}

/** Each task: the commander calls the worker, which POSTs the task's name once; every reply takes a while. */
function script(counterUrl: string): (request: FakeRequest) => ReturnType<ReturnType<typeof turnScript>['respond']> {
  const rules: Parameters<typeof turnScript>[0] = {};
  for (const t of TASKS) {
    rules[`commander of task "${t}"`] = [callAgent('worker', `Mark ${t}`), (req) => taskComplete(`${t}: ${lastToolResult(req).slice(0, 40)}`)];
    rules[`worker agent of task "${t}"`] = [toolCall('builtins_http_post', { url: `${counterUrl}/mark`, body: t, content_type: 'text' }), { text: 'marked' }];
  }
  const turns = turnScript(rules);
  return (request) => ({ ...turns.respond(request), delayMs: MODEL_DELAY_MS });
}

describe('squadron worker', () => {
  it('runs a detached run across three workers, one killed with SIGKILL mid-way: nothing lost, nothing done twice', async () => {
    const url = await server().createDatabase();
    const counter = await startCounter();
    const models = await startFakeModelServer({ respond: script(counter.url) });
    const workers: Worker[] = [];
    try {
      const dir = project(models, TASKS.length);
      const queued = await runCli(['run', dir, '--db', url, '--detach'], { cwd: dir });
      expect(queued.code, queued.stderr).toBe(0);
      const runId = /^run (run_\w+)$/m.exec(queued.stdout)?.[1];
      expect(runId, queued.stdout).toBeDefined();
      const listed = await runCli(['runs', '--json', '--db', url], { cwd: dir });
      expect(JSON.parse(listed.stdout).runs[0]).toMatchObject({ id: runId, status: 'queued' });
      expect(models.requests).toHaveLength(0);
      const inspected = await runCli(['inspect', runId!, '--db', url], { cwd: dir });
      expect(inspected.code, inspected.stderr).toBe(0);
      expect(inspected.stdout).toContain(runId);

      for (let i = 0; i < 3; i++) workers.push(startWorker(dir, url, 2));
      // The first worker seen holding a task is killed while that task's model call is in flight.
      const victim = await waitFor('a worker to take a task', () => workers.find((w) => /^took task /m.test(w.out())));
      victim.child.kill('SIGKILL');
      await victim.exited;
      const survivors = workers.filter((w) => w !== victim);

      await waitFor('the run to complete', async () => {
        const rows = await query<{ status: string }>(url, 'SELECT status FROM runs WHERE id = $1', [runId]);
        return rows[0]?.status === 'completed' || rows[0]?.status === 'failed' ? rows[0].status : undefined;
      });
      for (const w of survivors) w.child.kill('SIGTERM');
      for (const w of survivors) expect(await w.exited, w.out()).toBe(0);

      const tasks = await query<{ name: string; status: string }>(url, 'SELECT name, status FROM tasks WHERE run_id = $1 ORDER BY name', [runId]);
      expect(tasks.map((t) => `${t.name}:${t.status}`)).toEqual(TASKS.map((t) => `${t}:completed`));
      expect((await query<{ status: string }>(url, 'SELECT status FROM runs WHERE id = $1', [runId]))[0]?.status).toBe('completed');
      // Each side effect exactly once, whichever runner did it.
      expect([...counter.marks].sort()).toEqual(TASKS);
      // One commander and one worker session per task, each with its two replies: none stored twice,
      // and the killed worker's tasks were continued in their sessions, not started again.
      const sessions = await query<{ role: string; replies: string }>(
        url,
        `SELECT s.role, (SELECT count(*) FROM messages m WHERE m.session_id = s.id AND m.role = 'assistant')::text AS replies FROM sessions s WHERE s.run_id = $1`,
        [runId],
      );
      expect(sessions).toHaveLength(TASKS.length * 2);
      expect(sessions.every((s) => s.replies === '2')).toBe(true);
      // Model calls: the stored replies, plus at most the ones the killed worker had in flight.
      expect(models.requests.length).toBeLessThanOrEqual(TASKS.length * 4 + 2);
      // The killed worker's work was taken over, and the survivors both did work.
      const claims = await query<{ kind: string; claims: string }>(url, 'SELECT kind, claims::text FROM work_units WHERE run_id = $1', [runId]);
      expect(claims.some((u) => Number(u.claims) > 1)).toBe(true);
      for (const w of survivors) expect(w.out()).toMatch(/^finished (task|run) /m);
      expect(survivors.filter((w) => /^finished task /m.test(w.out())).length + 1).toBeGreaterThan(1);
      expect(victim.out()).toMatch(/^took task /m);

      // inspect names the runner of each task: a worker's lease owner id, pid and host.
      const pids = new Set(workers.map((w) => w.child.pid));
      const shown = await runCli(['inspect', runId!, '--db', url, '--json'], { cwd: dir });
      expect(shown.code, shown.stderr).toBe(0);
      const doc = JSON.parse(shown.stdout) as { run: { runner?: { id: string; pid: number } }; tasks: { name: string; runner?: { id: string; pid: number; host: string; claims: number } }[] };
      // The coordination's lease owner is its own (own_…); the pid says which worker process it ran in.
      expect(doc.run.runner?.id).toMatch(/^own_/);
      expect(pids.has(doc.run.runner?.pid)).toBe(true);
      for (const t of doc.tasks) {
        expect(t.runner?.id, t.name).toMatch(/^wrk_/);
        expect(pids.has(t.runner?.pid), t.name).toBe(true);
        expect(t.runner?.host).toBe(hostname());
        // A task taken over from the killed worker names the survivor that finished it.
        if (t.runner!.claims > 1) expect(t.runner?.pid).not.toBe(victim.child.pid);
      }
      expect(new Set(doc.tasks.map((t) => t.runner?.id)).size).toBeGreaterThan(1);
      const text = await runCli(['inspect', runId!, '--db', url], { cwd: dir });
      expect(text.stdout).toMatch(/^coordinated by own_\S+ \(pid \d+ on /m);
      expect(text.stdout.match(/^  ran on wrk_\S+ \(pid \d+ on /gm)).toHaveLength(TASKS.length);
    } finally {
      for (const w of workers) w.child.kill('SIGKILL');
      await models.close();
      await counter.close();
    }
  }, 480_000);

  it('executes at most --concurrency tasks at once in one worker, whatever the run allows', async () => {
    const url = await server().createDatabase();
    const counter = await startCounter();
    const models = await startFakeModelServer({ respond: script(counter.url) });
    let worker: Worker | undefined;
    try {
      const dir = project(models, TASKS.length);
      const queued = await runCli(['run', dir, '--db', url, '--detach'], { cwd: dir });
      expect(queued.code, queued.stderr).toBe(0);
      const runId = /^run (run_\w+)$/m.exec(queued.stdout)?.[1];
      worker = startWorker(dir, url, 2);
      let most = 0;
      await waitFor('the run to complete', async () => {
        const held = await query<{ n: string }>(url, "SELECT count(*)::text AS n FROM work_units WHERE kind = 'task' AND state = 'claimed'");
        most = Math.max(most, Number(held[0]?.n));
        const rows = await query<{ status: string }>(url, 'SELECT status FROM runs WHERE id = $1', [runId]);
        return rows[0]?.status === 'completed' || rows[0]?.status === 'failed' ? rows[0].status : undefined;
      });
      expect((await query<{ status: string }>(url, 'SELECT status FROM runs WHERE id = $1', [runId]))[0]?.status).toBe('completed');
      expect(most).toBe(2);
      worker.child.kill('SIGINT');
      expect(await worker.exited, worker.out()).toBe(0);
      expect(worker.out()).toMatch(/^worker stopped$/m);
      expect(worker.out().match(/^finished task /gm)).toHaveLength(TASKS.length);
    } finally {
      worker?.child.kill('SIGKILL');
      await models.close();
      await counter.close();
    }
  }, 480_000);

  it('a worker at capacity many times over leaves no abort listener behind (no MaxListenersExceededWarning)', async () => {
    const url = await server().createDatabase();
    const names = Array.from({ length: 14 }, (_, i) => `q${i + 1}`);
    const rules: Parameters<typeof turnScript>[0] = {};
    for (const t of names) rules[`commander of task "${t}"`] = [taskComplete(`${t} done`)];
    const models = await startFakeModelServer({ respond: turnScript(rules).respond });
    let worker: Worker | undefined;
    try {
      const tasks = names.map((t) => `  task "${t}" {\n    objective = "Say ${t}."\n    tools     = [builtins.utils.current_time]\n  }\n`).join('');
      const dir = writeProject({
        'main.hcl': `model "fake" {\n  provider = "anthropic"\n  base_url = "${models.anthropicBaseURL}"\n  api_key  = "k"\n}\nmission "many" {\n  max_parallel = ${names.length}\n  commander { model = ${ANTHROPIC_MODEL} }\n${tasks}}\n`,
      });
      const queued = await runCli(['run', dir, '--db', url, '--detach'], { cwd: dir });
      expect(queued.code, queued.stderr).toBe(0);
      worker = startWorker(dir, url, 1, { NODE_OPTIONS: LISTENER_LIMIT_OPTIONS });
      const runId = /^run (run_\w+)$/m.exec(queued.stdout)![1]!;
      await waitFor('the run to complete', async () => {
        const rows = await query<{ status: string }>(url, 'SELECT status FROM runs WHERE id = $1', [runId]);
        return rows[0]?.status === 'completed' || rows[0]?.status === 'failed' ? rows[0].status : undefined;
      });
      worker.child.kill('SIGINT');
      expect(await worker.exited, worker.out()).toBe(0);
      expect(worker.out()).not.toMatch(/MaxListenersExceededWarning|abort listeners/);
      // No runner died: the worker handing the run's unit to the run's own lease owner is no take-over.
      const inspected = await runCli(['inspect', runId, '--db', url], { cwd: dir });
      expect(inspected.code, inspected.stderr).toBe(0);
      expect(inspected.stdout).toMatch(/ran on wrk_/);
      expect(inspected.stdout).toMatch(/^coordinated by wrk_|^coordinated by own_/m);
      expect(inspected.stdout).not.toMatch(/taken over/);
    } finally {
      worker?.child.kill('SIGKILL');
      await models.close();
    }
  }, 480_000);

  it('resume --detach queues an interrupted run again and returns at once; a worker then finishes it, no side effect twice', async () => {
    const url = await server().createDatabase();
    const counter = await startCounter();
    const models = await startFakeModelServer({ respond: script(counter.url) });
    let worker: Worker | undefined;
    try {
      const dir = project(models, 2);
      // A run of its own (no worker up), interrupted once a first side effect is done.
      let child: ChildProcess | undefined;
      const poll = setInterval(() => {
        if (counter.marks.length > 0) {
          clearInterval(poll);
          child?.kill('SIGINT');
        }
      }, 20);
      const first = await runCli(['run', dir, '--db', url], { cwd: dir, onSpawn: (c) => (child = c), timeoutMs: 300_000 });
      clearInterval(poll);
      expect(first.code, first.stderr).toBe(130);
      const runId = /^run (run_\w+)$/m.exec(first.stdout)?.[1];
      expect((await query<{ status: string }>(url, 'SELECT status FROM runs WHERE id = $1', [runId]))[0]?.status).toBe('interrupted');
      const done = Number((await query<{ n: string }>(url, "SELECT count(*)::text AS n FROM tasks WHERE run_id = $1 AND status = 'completed'", [runId]))[0]?.n);
      expect(done).toBeLessThan(TASKS.length);

      const calls = models.requests.length;
      const queued = await runCli(['resume', runId!, '--db', url, '--detach', '--json'], { cwd: dir });
      expect(queued.code, queued.stderr).toBe(0);
      expect(JSON.parse(queued.stdout)).toEqual({ run_id: runId, status: 'queued' });
      // Nothing ran in the resuming process: it only queued the run.
      expect(models.requests.length).toBe(calls);
      const listed = await runCli(['runs', '--json', '--db', url], { cwd: dir });
      expect(JSON.parse(listed.stdout).runs[0]).toMatchObject({ id: runId, status: 'queued' });
      const text = await runCli(['resume', runId!, '--db', url, '--detach'], { cwd: dir });
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toMatch(new RegExp(`^run ${runId}\\nqueued again for the workers of `));

      worker = startWorker(dir, url, 4);
      await waitFor('the run to complete', async () => {
        const rows = await query<{ status: string }>(url, 'SELECT status FROM runs WHERE id = $1', [runId]);
        return rows[0]?.status === 'completed' || rows[0]?.status === 'failed' ? rows[0].status : undefined;
      });
      expect((await query<{ status: string }>(url, 'SELECT status FROM runs WHERE id = $1', [runId]))[0]?.status).toBe('completed');
      const tasks = await query<{ name: string; status: string }>(url, 'SELECT name, status FROM tasks WHERE run_id = $1 ORDER BY name', [runId]);
      expect(tasks.map((t) => `${t.name}:${t.status}`)).toEqual(TASKS.map((t) => `${t}:completed`));
      // No side effect twice. A POST the interrupt cut short (at most one per slot: max_parallel 2) is
      // reported to the model as interrupted on resume, never sent again.
      expect(new Set(counter.marks).size).toBe(counter.marks.length);
      expect(counter.marks.length).toBeGreaterThanOrEqual(TASKS.length - 2);
      expect(worker.out()).toMatch(new RegExp(`^took run ${runId}( \\(taken over: claim \\d+\\))?$`, 'm'));
      expect(worker.out()).toMatch(new RegExp(`^finished run ${runId}: completed$`, 'm'));
      // A completed run is left as it is.
      const again = await runCli(['resume', runId!, '--db', url, '--detach', '--json'], { cwd: dir });
      expect(JSON.parse(again.stdout)).toEqual({ run_id: runId, status: 'completed' });
      worker.child.kill('SIGTERM');
      expect(await worker.exited, worker.out()).toBe(0);
    } finally {
      worker?.child.kill('SIGKILL');
      await models.close();
      await counter.close();
    }
  }, 480_000);

  it('refuses to work on, or queue a run in, a SQLite database with one line', async () => {
    const dir = writeProject({ 'main.hcl': 'model "fake" {\n  provider = "anthropic"\n  api_key  = "k"\n}\nmission "m" {\n  commander { model = ' + ANTHROPIC_MODEL + ' }\n  task "a" {\n    objective = "A."\n    tools     = [builtins.utils.current_time]\n  }\n}\n' });
    const worker = await runCli(['worker', '--db', `${dir}/.squadron/squadron.db`], { cwd: dir, env: { SQUADRON_DATABASE_URL: undefined } });
    expect(worker.code).toBe(2);
    expect(worker.stderr.trim().split('\n')).toHaveLength(1);
    expect(worker.stderr).toContain('squadron worker needs a PostgreSQL database');
    const detached = await runCli(['run', dir, '--detach'], { cwd: dir, env: { SQUADRON_DATABASE_URL: undefined, SQUADRON_DB: undefined } });
    expect(detached.code).toBe(2);
    expect(detached.stderr.trim().split('\n')).toHaveLength(1);
    expect(detached.stderr).toContain('--detach needs a PostgreSQL database');
    const resumed = await runCli(['resume', 'run_any', '--detach'], { cwd: dir, env: { SQUADRON_DATABASE_URL: undefined, SQUADRON_DB: undefined } });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr.trim().split('\n')).toHaveLength(1);
    expect(resumed.stderr).toContain('--detach needs a PostgreSQL database');
    // Nothing was stored: no database was made for a run that could not be queued.
    expect(existsSync(`${dir}/.squadron/squadron.db`)).toBe(false);
  });
});
