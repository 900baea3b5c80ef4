// Items of a parallel iterated task as units of work on PostgreSQL: a detached run of a 24-item task
// across three `squadron worker` processes executes its items on more than one runner, never more
// than the run's max_parallel at once across them; a worker killed with SIGKILL mid-item (the run's
// coordinator in one case, another worker in the other) loses nothing: every item completes, each
// item's side effect (a POST to a counting server) happens once, no completed item's model call is
// asked again, and inspect names the runner of each item.

import type { ChildProcess } from 'node:child_process';
import { hostname } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { LOCAL_HTTP, ANTHROPIC_MODEL, removeProjects, writeProject } from '../support/e2eProject.js';
import { type FakeModelServer, type FakeReply, type FakeRequest, startFakeModelServer } from '../support/fakeModelServer.js';
import { startCounter } from '../support/localServer.js';
import { usePostgres } from '../support/postgres.js';
import { query, startWorker, waitFor, type Worker } from '../support/workerProcess.js';
import { callAgent, lastToolResult, taskComplete, toolCall } from '../support/turnScript.js';

const server = usePostgres();
afterAll(removeProjects);

const ITEMS = 24;
const MAX_PARALLEL = 4;
const MODEL_DELAY_MS = 200;

function project(models: FakeModelServer, iteratorExtra = ''): string {
  const items = Array.from({ length: ITEMS }, (_, i) => `{ n = ${i} }`).join(', ');
  return writeProject({
    'main.hcl': `
model "fake" {
  provider = "anthropic"
  base_url = "${models.anthropicBaseURL}"
  api_key  = "k"
}
${LOCAL_HTTP}mission "fan" {
  max_parallel = ${MAX_PARALLEL}
  commander { model = ${ANTHROPIC_MODEL} }
  dataset "things" {
    items  = [${items}]
    schema = {
      n = integer("which thing", true)
    }
  }
  task "mark" {
    objective = "Mark thing \${item.n}."
    tools     = [builtins.http.post]
    iterator {
      dataset           = datasets.things
      parallel          = true
      concurrency_limit = 10${iteratorExtra}
    }
  }
}
`,
  });
}

/** The item a request belongs to, and whether it is its commander's or its worker's. */
function itemOf(request: FakeRequest): { index: number; role: 'commander' | 'worker' } | undefined {
  const m = /(commander|agent) of task "mark\[(\d+)\]"/.exec(request.canonical.system);
  return m ? { index: Number(m[2]), role: m[1] === 'commander' ? 'commander' : 'worker' } : undefined;
}

/** Each item: its commander calls the worker, which POSTs `item-<i>` once; every reply takes a while. */
function script(counterUrl: string, fails: (index: number) => boolean = () => false): (request: FakeRequest) => FakeReply {
  return (request) => {
    const item = itemOf(request);
    const turn = request.canonical.messages.filter((m) => m.role === 'assistant').length;
    let reply: FakeReply;
    if (item === undefined) reply = { status: 400, errorMessage: 'not an item' };
    else if (item.role === 'commander' && turn === 0 && fails(item.index)) reply = taskComplete('could not', { succeed: false, reason: `thing ${item.index} refused` });
    else if (item.role === 'commander') reply = turn === 0 ? callAgent('worker', `Mark item-${item.index}`) : taskComplete(`item ${item.index}: ${lastToolResult(request).slice(0, 30)}`);
    else reply = turn === 0 ? toolCall('builtins_http_post', { url: `${counterUrl}/mark`, body: `item-${item.index}`, content_type: 'text' }) : { text: 'marked' };
    return { ...reply, delayMs: MODEL_DELAY_MS };
  };
}

/** The most items whose stored [started_at, finished_at] spans overlap at one moment. */
function maxOverlap(spans: readonly { s: Date; f: Date }[]): number {
  const points = spans.flatMap((x) => [{ t: x.s.getTime(), d: 1 }, { t: x.f.getTime(), d: -1 }]).sort((a, b) => a.t - b.t || a.d - b.d);
  let now = 0;
  let max = 0;
  for (const p of points) max = Math.max(max, (now += p.d));
  return max;
}

type Victim = 'coordinator' | 'another worker';

async function killMidItems(victimKind: Victim): Promise<void> {
  const url = await server().createDatabase();
  const counter = await startCounter();
  const models = await startFakeModelServer({ respond: script(counter.url) });
  // Which item each request was for, and whether that item had completed when it arrived.
  const completedAtRequest: number[] = [];
  const workers: Worker[] = [];
  try {
    const dir = project(models);
    const queued = await runCli(['run', dir, '--db', url, '--detach'], { cwd: dir });
    expect(queued.code, queued.stderr).toBe(0);
    const runId = /^run (run_\w+)$/m.exec(queued.stdout)?.[1];
    expect(runId, queued.stdout).toBeDefined();
    const done = new Set<number>();
    models.onRequest = (_n, request) => {
      const item = itemOf(request);
      if (item && done.has(item.index)) completedAtRequest.push(item.index);
    };
    const poll = setInterval(() => {
      void query<{ idx: number }>(url, "SELECT idx FROM task_items WHERE run_id = $1 AND status = 'completed'", [runId])
        .then((rows) => rows.forEach((r) => done.add(Number(r.idx))))
        .catch(() => undefined);
    }, 100);

    // Slots for more items than the run allows: max_parallel, not the workers, is what bounds them.
    for (let i = 0; i < 3; i++) workers.push(startWorker(dir, url, 3));
    const coordinator = await waitFor('a worker to take the run', () => workers.find((w) => /^took run /m.test(w.out())));
    // Once a quarter of the items are done, the victim is killed while it holds an item.
    const victim = await waitFor('the victim to hold an item', () => {
      if (counter.marks.length < ITEMS / 4) return undefined;
      const candidates = victimKind === 'coordinator' ? [coordinator] : workers.filter((w) => w !== coordinator);
      return candidates.find((w) => (w.out().match(/^took item /gm)?.length ?? 0) > (w.out().match(/^finished item /gm)?.length ?? 0));
    });
    victim.child.kill('SIGKILL');
    await victim.exited;
    const survivors = workers.filter((w) => w !== victim);

    const status = await waitFor('the run to finish', async () => {
      const rows = await query<{ status: string }>(url, 'SELECT status FROM runs WHERE id = $1', [runId]);
      return rows[0]?.status === 'completed' || rows[0]?.status === 'failed' ? rows[0].status : undefined;
    });
    clearInterval(poll);
    for (const w of survivors) w.child.kill('SIGTERM');
    for (const w of survivors) expect(await w.exited, w.out()).toBe(0);
    expect(status, survivors.map((w) => w.out()).join('\n')).toBe('completed');

    const items = await query<{ idx: number; status: string; attempt: string; s: Date; f: Date }>(
      url,
      "SELECT idx, status, attempt::text, started_at AS s, finished_at AS f FROM task_items WHERE run_id = $1 AND task = 'mark' ORDER BY idx",
      [runId],
    );
    expect(items.map((r) => `${r.idx}:${r.status}:${r.attempt}`)).toEqual(Array.from({ length: ITEMS }, (_, i) => `${i}:completed:1`));
    // Each item's side effect at most once, whichever runner did it. A POST is missing only when the
    // kill landed between the ledger's 'started' row and the request leaving the process: that call
    // is reported to the model as interrupted (its effect unknown) and never sent again.
    expect(new Set(counter.marks).size).toBe(counter.marks.length);
    const missing = Array.from({ length: ITEMS }, (_, i) => i).filter((i) => !counter.marks.includes(`item-${i}`));
    expect(missing.length).toBeLessThanOrEqual(3);
    const interrupted = await query<{ task_name: string }>(
      url,
      "SELECT DISTINCT s.task_name FROM messages m JOIN sessions s ON s.id = m.session_id WHERE s.run_id = $1 AND m.parts_json::text LIKE '%was interrupted before it finished%'",
      [runId],
    );
    for (const i of missing) expect(interrupted.map((r) => r.task_name), `item-${i}`).toContain(`mark[${i}]`);
    // No model call for an item that had completed; each session's two replies stored once (the
    // killed runner's items were continued in their sessions, not started again).
    expect(completedAtRequest).toEqual([]);
    const sessions = await query<{ task_name: string; replies: string }>(
      url,
      `SELECT s.task_name, (SELECT count(*) FROM messages m WHERE m.session_id = s.id AND m.role = 'assistant')::text AS replies FROM sessions s WHERE s.run_id = $1`,
      [runId],
    );
    expect(sessions).toHaveLength(ITEMS * 2);
    expect(sessions.filter((s) => s.replies !== '2')).toEqual([]);
    // Model calls: the stored replies, plus at most the ones the killed worker had in flight.
    expect(models.requests.length).toBeLessThanOrEqual(ITEMS * 4 + 3);

    // max_parallel across runners: never more items running at once, by the stored spans and by the
    // model requests in flight (an item has at most one at a time).
    expect(maxOverlap(items)).toBeLessThanOrEqual(MAX_PARALLEL);
    expect(models.maxInFlight).toBeLessThanOrEqual(MAX_PARALLEL);

    // One unit per item (the coordinator that took over found the queued ones: no duplicate), and
    // the victim's held work was taken over.
    const units = await query<{ kind: string; task: string; claims: string }>(url, 'SELECT kind, task, claims::text FROM work_units WHERE run_id = $1', [runId]);
    const itemUnits = units.filter((u) => u.task.startsWith('mark['));
    expect(itemUnits.map((u) => u.task).sort()).toEqual(Array.from({ length: ITEMS }, (_, i) => `mark[${i}]`).sort());
    expect(itemUnits.some((u) => Number(u.claims) > 1)).toBe(true);
    if (victimKind === 'coordinator') {
      // Claimed by a worker (its hand-off to its own coordination in the same process is no claim of
      // another runner), then again by a survivor.
      expect(Number(units.find((u) => u.kind === 'run')?.claims)).toBeGreaterThan(1);
      expect(survivors.some((w) => new RegExp(`^took run ${runId} \\(taken over: claim \\d+\\)$`, 'm').test(w.out()))).toBe(true);
    }

    // inspect names the runner of each item: more than one worker ran them.
    const pids = new Set(workers.map((w) => w.child.pid));
    const shown = await runCli(['inspect', runId!, '--db', url, '--json'], { cwd: dir });
    expect(shown.code, shown.stderr).toBe(0);
    const doc = JSON.parse(shown.stdout) as { tasks: { name: string; items: { list: { index: number; runner?: { id: string; pid: number; host: string; claims: number } }[] } }[] };
    const listed = doc.tasks[0]!.items.list;
    expect(listed).toHaveLength(ITEMS);
    for (const item of listed) {
      expect(item.runner?.id, String(item.index)).toMatch(/^wrk_/);
      expect(pids.has(item.runner?.pid), String(item.index)).toBe(true);
      expect(item.runner?.host).toBe(hostname());
      if (item.runner!.claims > 1) expect(item.runner?.pid).not.toBe(victim.child.pid);
    }
    expect(new Set(listed.map((i) => i.runner?.id)).size).toBeGreaterThan(1);
    const one = await runCli(['inspect', runId!, '--db', url, '--task', 'mark', '--item', '17'], { cwd: dir });
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toMatch(/^ {6}ran on wrk_\S+ \(pid \d+ on /m);
  } finally {
    for (const w of workers) w.child.kill('SIGKILL');
    await models.close();
    await counter.close();
  }
}

describe('items of an iterated task on many runners', () => {
  it('keeps the iterator rules across runners: smoke test first, a failed item retried from fresh sessions, the summary counts', async () => {
    const url = await server().createDatabase();
    const counter = await startCounter();
    const failedOnce = new Set<number>();
    // Item 5 fails its first attempt, item 7 every attempt.
    const fails = (index: number): boolean => index === 7 || (index === 5 && !failedOnce.has(5) && Boolean(failedOnce.add(5)));
    const models = await startFakeModelServer({ respond: script(counter.url, fails) });
    const workers: Worker[] = [];
    try {
      const dir = project(models, '\n      smoketest         = true\n      max_retries       = 1');
      const queued = await runCli(['run', dir, '--db', url, '--detach'], { cwd: dir });
      expect(queued.code, queued.stderr).toBe(0);
      const runId = /^run (run_\w+)$/m.exec(queued.stdout)?.[1];
      for (let i = 0; i < 2; i++) workers.push(startWorker(dir, url, 3));
      await waitFor('the run to finish', async () => {
        const rows = await query<{ status: string }>(url, 'SELECT status FROM runs WHERE id = $1', [runId]);
        return rows[0]?.status === 'completed' || rows[0]?.status === 'failed' ? rows[0].status : undefined;
      });
      for (const w of workers) w.child.kill('SIGTERM');
      for (const w of workers) expect(await w.exited, w.out()).toBe(0);
      const shown = await runCli(['inspect', runId!, '--db', url, '--json'], { cwd: dir });
      const doc = JSON.parse(shown.stdout) as { run: { status: string }; tasks: { summary?: string; items: { list: { index: number; status: string; attempt: number; runner?: { id: string } }[] } }[] };
      expect(doc.run.status).toBe('completed');
      expect(doc.tasks[0]!.summary).toContain(`${ITEMS - 1} of ${ITEMS} items succeeded, 1 failed. Failed items: 7.`);
      const list = doc.tasks[0]!.items.list;
      expect(list.filter((i) => i.status !== 'completed').map((i) => `${i.index}:${i.status}:${i.attempt}`)).toEqual(['7:failed:2']);
      expect(list[5]).toMatchObject({ status: 'completed', attempt: 2 });
      expect(new Set(list.map((i) => i.runner?.id)).size).toBeGreaterThan(1);
      // Smoke test: item 0's four requests came before any other item's.
      const order = models.requests.map((r) => itemOf(r)?.index);
      expect(order.slice(0, 4)).toEqual([0, 0, 0, 0]);
      expect(order.slice(4)).not.toContain(0);
      // Each attempt of an item is a unit of its own; the retries' sessions are fresh, the failed ones kept.
      const units = await query<{ task: string; attempt: string }>(url, "SELECT task, attempt::text FROM work_units WHERE run_id = $1 AND task IN ('mark[5]', 'mark[7]') ORDER BY task, attempt", [runId]);
      expect(units.map((u) => `${u.task}#${u.attempt}`)).toEqual(['mark[5]#1', 'mark[5]#2', 'mark[7]#1', 'mark[7]#2']);
      const labels = await query<{ task_name: string }>(url, "SELECT task_name FROM sessions WHERE run_id = $1 AND agent = 'commander' AND task_name LIKE 'mark[5]%' ORDER BY task_name", [runId]);
      expect(labels.map((l) => l.task_name)).toEqual(['mark[5]', 'mark[5]#1']);
    } finally {
      for (const w of workers) w.child.kill('SIGKILL');
      await models.close();
      await counter.close();
    }
  }, 600_000);

  it('run on PostgreSQL executes its items itself; interrupted, its unfinished item units are cancelled, and resume queues them again and completes them', async () => {
    const url = await server().createDatabase();
    const counter = await startCounter();
    const models = await startFakeModelServer({ respond: script(counter.url) });
    try {
      const dir = project(models);
      let child: ChildProcess | undefined;
      const poll = setInterval(() => {
        if (counter.marks.length >= ITEMS / 4) {
          clearInterval(poll);
          child?.kill('SIGINT');
        }
      }, 20);
      const first = await runCli(['run', dir, '--db', url], { cwd: dir, onSpawn: (c) => (child = c), timeoutMs: 400_000 });
      clearInterval(poll);
      expect(first.code, first.stderr).toBe(130);
      const runId = /^run (run_\w+)$/m.exec(first.stdout)?.[1];
      const doneBefore = (await query<{ idx: number }>(url, "SELECT idx FROM task_items WHERE run_id = $1 AND status = 'completed'", [runId])).map((r) => Number(r.idx));
      expect(doneBefore.length).toBeGreaterThan(0);
      expect(doneBefore.length).toBeLessThan(ITEMS);
      const before = await query<{ task: string; state: string }>(url, "SELECT task, state FROM work_units WHERE run_id = $1 AND kind = 'task'", [runId]);
      // Only units of items the run had started (no more than max_parallel beyond the completed ones), none left queued or held.
      expect(before.length).toBeLessThanOrEqual(doneBefore.length + MAX_PARALLEL);
      expect(before.filter((u) => u.state !== 'done' && u.state !== 'cancelled')).toEqual([]);

      const done = new Set(doneBefore);
      const asked: number[] = [];
      models.onRequest = (_n, request) => {
        const item = itemOf(request);
        if (item && done.has(item.index)) asked.push(item.index);
      };
      const resumed = await runCli(['resume', runId!, '--db', url], { cwd: dir, timeoutMs: 400_000 });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(asked).toEqual([]);
      const items = await query<{ status: string }>(url, "SELECT status FROM task_items WHERE run_id = $1 AND task = 'mark'", [runId]);
      expect(items.filter((r) => r.status === 'completed')).toHaveLength(ITEMS);
      const after = await query<{ task: string; state: string; owner: string }>(url, "SELECT task, state, owner FROM work_units WHERE run_id = $1 AND kind = 'task'", [runId]);
      expect(after.map((u) => u.task).sort()).toEqual(Array.from({ length: ITEMS }, (_, i) => `mark[${i}]`).sort());
      expect(after.every((u) => u.state === 'done' && u.owner.startsWith('own_'))).toBe(true);
      // No side effect twice; a POST the interrupt cut short is reported to the model, never sent again.
      expect(new Set(counter.marks).size).toBe(counter.marks.length);
      expect(counter.marks.length).toBeGreaterThanOrEqual(ITEMS - MAX_PARALLEL);
      expect(models.maxInFlight).toBeLessThanOrEqual(MAX_PARALLEL);
    } finally {
      await models.close();
      await counter.close();
    }
  }, 600_000);

  it('spreads the items over three workers within max_parallel; the coordinator killed mid-items is taken over and re-attaches: nothing lost, nothing done twice', async () => {
    await killMidItems('coordinator');
  }, 600_000);

  it('a worker killed with SIGKILL mid-item: its item is taken over and continued from its sessions', async () => {
    await killMidItems('another worker');
  }, 600_000);
});
