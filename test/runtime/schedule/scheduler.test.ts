// The scheduler (runtime/schedule/scheduler.ts) on its own, through its TaskExecutor seam: a real
// SQLite store and a loaded mission, with tasks that finish when the test says so. A task starts once
// its dependencies completed and receives their results; at most `max_parallel` run at once; a route
// not taken skips its target; the first failure cancels the tasks in flight and starts no more; a
// stored completed task is not run again.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TaskSpec } from '../../../config/graph.js';
import type { RunContext } from '../../../runtime/agents/runContext.js';
import type { TaskOutcome, UpstreamResult } from '../../../runtime/agents/taskResults.js';
import { EventBus, type RunEvent } from '../../../runtime/kernel/events.js';
import { runMission } from '../../../runtime/schedule/scheduler.js';
import { openDatabase, type Store } from '../../../store/index.js';
import { loadHcl, removeTempProjects } from '../../config/support.js';

const dirs: string[] = [];
afterAll(() => {
  removeTempProjects();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const MODEL = `model "m" {
  provider = "anthropic"
  api_key  = "k"
}
agent "helper" {
  model       = models.m.claude_sonnet_4_6
  personality = "Helps."
  tools       = [builtins.utils.current_time]
}
`;

function mission(body: string, maxParallel = 4) {
  const loaded = loadHcl(`${MODEL}mission "m" {\n  max_parallel = ${maxParallel}\n  agents       = [agents.helper]\n  commander { model = models.m.claude_sonnet_4_6 }\n${body}\n}\n`);
  expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const graph = loaded.graph!;
  return { graph, mission: graph.missions[0]! };
}

async function context(body: string, maxParallel = 4): Promise<{ ctx: RunContext; store: Store; events: RunEvent[] }> {
  const { graph, mission: m } = mission(body, maxParallel);
  const dir = mkdtempSync(join(tmpdir(), 'squadron-scheduler-'));
  dirs.push(dir);
  const store = await openDatabase(join(dir, 'squadron.db'));
  const runId = (await store.runs.create({ mission: m.name, configPath: dir, inputs: {} })).id;
  const bus = new EventBus();
  const events: RunEvent[] = [];
  bus.subscribe('test', (event) => events.push(event));
  // The scheduler reads only these of the context; the executor stands in for commanders and workers.
  const ctx = { graph, mission: m, runId, store, bus, signal: new AbortController().signal, inputs: {} } as unknown as RunContext;
  return { ctx, store, events };
}

/** An executor whose tasks wait until the test settles them, recording what each was given. */
function controlledExecutor(store: Store) {
  const started: { task: string; upstream: UpstreamResult[]; signal: AbortSignal }[] = [];
  const pending = new Map<string, (outcome: TaskOutcome | 'interrupted') => void>();
  let running = 0;
  let most = 0;
  const waiters: (() => void)[] = [];
  const execute = async (ctx: RunContext, task: TaskSpec, upstream: UpstreamResult[]): Promise<TaskOutcome | 'interrupted'> => {
    await store.tasks.ensure(ctx.runId, task.name);
    await store.tasks.markRunning(ctx.runId, task.name);
    started.push({ task: task.name, upstream, signal: ctx.signal });
    running += 1;
    most = Math.max(most, running);
    for (const wake of waiters.splice(0)) wake();
    const outcome = await new Promise<TaskOutcome | 'interrupted'>((resolve) => {
      pending.set(task.name, resolve);
      ctx.signal.addEventListener('abort', () => resolve('interrupted'), { once: true });
    });
    running -= 1;
    pending.delete(task.name);
    return outcome;
  };
  /** Resolves once `task` has started. */
  const whenStarted = async (task: string): Promise<void> => {
    while (!started.some((s) => s.task === task)) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  const finish = (task: string, outcome: TaskOutcome) => pending.get(task)!(outcome);
  return { execute, started, whenStarted, finish, most: () => most, running: () => [...pending.keys()] };
}

describe('runMission', () => {
  it('starts a task once its dependencies completed and hands it their results', async () => {
    const { ctx, store, events } = await context(`
  task "a" { objective = "A." }
  task "b" { objective = "B." }
  task "c" {
    objective  = "C."
    depends_on = [tasks.a, tasks.b]
  }`);
    const ex = controlledExecutor(store);
    const done = runMission(ctx, new AbortController().signal, ex.execute);
    await ex.whenStarted('a');
    await ex.whenStarted('b');
    expect(ex.running().sort()).toEqual(['a', 'b']);
    ex.finish('a', { status: 'completed', summary: 'a done', output: { n: 1 } });
    ex.finish('b', { status: 'completed', summary: 'b done' });
    await ex.whenStarted('c');
    expect(ex.started.find((s) => s.task === 'c')!.upstream).toEqual([
      { name: 'a', summary: 'a done', output: { n: 1 } },
      { name: 'b', summary: 'b done' },
    ]);
    ex.finish('c', { status: 'completed', summary: 'c done' });
    expect(await done).toEqual({ status: 'completed' });
    expect((await store.tasks.list(ctx.runId)).map((t) => [t.name, t.status])).toEqual([
      ['a', 'completed'],
      ['b', 'completed'],
      ['c', 'completed'],
    ]);
    expect(events.filter((e) => e.type === 'task.completed').map((e) => (e as { task: string }).task).sort()).toEqual(['a', 'b', 'c']);
    await store.close();
  });

  it('runs at most max_parallel tasks at once', async () => {
    const { ctx, store } = await context(['a', 'b', 'c', 'd', 'e'].map((n) => `  task "${n}" { objective = "${n}." }`).join('\n'), 2);
    const ex = controlledExecutor(store);
    const done = runMission(ctx, new AbortController().signal, ex.execute);
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      await ex.whenStarted(name);
      expect(ex.running().length).toBeLessThanOrEqual(2);
      ex.finish(name, { status: 'completed', summary: name });
    }
    expect(await done).toEqual({ status: 'completed' });
    expect(ex.most()).toBe(2);
    await store.close();
  });

  it('skips the target of a route not taken, and starts the one taken', async () => {
    const { ctx, store, events } = await context(`
  task "triage" {
    objective = "Triage."
    router {
      route {
        target    = tasks.fix
        condition = "a bug"
      }
      route {
        target    = tasks.answer
        condition = "a question"
      }
    }
  }
  task "fix" { objective = "Fix." }
  task "answer" { objective = "Answer." }`);
    const ex = controlledExecutor(store);
    const done = runMission(ctx, new AbortController().signal, ex.execute);
    await ex.whenStarted('triage');
    expect(ex.running()).toEqual(['triage']);
    ex.finish('triage', { status: 'completed', summary: 'a question', route: 'answer' });
    await ex.whenStarted('answer');
    ex.finish('answer', { status: 'completed', summary: 'answered' });
    expect(await done).toEqual({ status: 'completed' });
    expect(ex.started.map((s) => s.task)).toEqual(['triage', 'answer']);
    expect(events.filter((e) => e.type === 'task.skipped').map((e) => (e as { task: string }).task)).toEqual(['fix']);
    expect(events.filter((e) => e.type === 'route.chosen')).toEqual([{ type: 'route.chosen', from: 'triage', to: 'answer', kind: 'route' }]);
    expect((await store.routes.list(ctx.runId)).map((r) => [r.from, r.to])).toEqual([['triage', 'answer']]);
    await store.close();
  });

  it('on the first failure cancels the tasks in flight, starts no more, and fails the mission', async () => {
    const { ctx, store } = await context(`
  task "a" { objective = "A." }
  task "b" { objective = "B." }
  task "c" {
    objective  = "C."
    depends_on = [tasks.a]
  }`);
    const ex = controlledExecutor(store);
    const done = runMission(ctx, new AbortController().signal, ex.execute);
    await ex.whenStarted('a');
    await ex.whenStarted('b');
    const b = ex.started.find((s) => s.task === 'b')!;
    ex.finish('a', { status: 'failed', error: 'no luck' });
    expect(await done).toEqual({ status: 'failed', error: 'task "a" failed: no luck' });
    // b was told to stop (its executor returned 'interrupted'), c never started.
    expect(b.signal.aborted).toBe(true);
    expect(ex.started.map((s) => s.task).sort()).toEqual(['a', 'b']);
    await store.close();
  });

  it('does not run again a task the store holds as completed (a resumed run)', async () => {
    const { ctx, store } = await context(`
  task "a" { objective = "A." }
  task "b" {
    objective  = "B."
    depends_on = [tasks.a]
  }`);
    await store.tasks.ensure(ctx.runId, 'a');
    await store.tasks.complete(ctx.runId, 'a', { summary: 'done before', output: 'x' });
    const ex = controlledExecutor(store);
    const done = runMission(ctx, new AbortController().signal, ex.execute);
    await ex.whenStarted('b');
    expect(ex.started.find((s) => s.task === 'b')!.upstream).toEqual([{ name: 'a', summary: 'done before', output: 'x' }]);
    ex.finish('b', { status: 'completed', summary: 'b' });
    expect(await done).toEqual({ status: 'completed' });
    expect(ex.started.map((s) => s.task)).toEqual(['b']);
    await store.close();
  });

  it('returns interrupted when the run is interrupted, leaving unstarted tasks unstarted', async () => {
    const { ctx, store } = await context(`
  task "a" { objective = "A." }
  task "b" {
    objective  = "B."
    depends_on = [tasks.a]
  }`);
    const ex = controlledExecutor(store);
    const interrupt = new AbortController();
    const done = runMission(ctx, interrupt.signal, ex.execute);
    await ex.whenStarted('a');
    interrupt.abort();
    expect(await done).toEqual({ status: 'interrupted', error: 'interrupted' });
    expect(ex.started.map((s) => s.task)).toEqual(['a']);
    await store.close();
  });
});
