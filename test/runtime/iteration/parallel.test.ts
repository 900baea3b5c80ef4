// Parallel iteration (runtime/iteration/parallel.ts) on its own: a real store, the run's services as
// openRunServices builds them, and a scripted model playing each item's direct worker (session
// `t[i]`). Never more than concurrency_limit items at once, each item's result stored; the lanes'
// start_delay waits go through the injected sleep; a failed item is run again from a fresh session
// up to max_retries; a failing smoke test starts no other item; items completed before are not run.

import { describe, expect, it } from 'vitest';
import { taskItems, UnitSlots } from '../../../runtime/iteration/index.js';
import { runParallelItems } from '../../../runtime/iteration/parallel.js';
import type { ModelRequest, ModelResponse } from '../../../runtime/providers/types.js';
import { harness, MODEL_BLOCK, use, type Harness, type Script } from '../orchestration.js';

function hcl(iterator: string, items = '["a", "b", "c", "d", "e"]'): string {
  return `${MODEL_BLOCK}
mission "m" {
  commander { model = models.m.claude_sonnet_4_6 }
  dataset "letters" { items = ${items} }
  task "t" {
    direct    = true
    objective = "Handle \${item}."
    tools     = [builtins.utils.current_time]
    iterator {
      dataset  = datasets.letters
      parallel = true
${iterator}
    }
  }
}
`;
}

/** The item index a worker's request is for (its session is labelled `t[i]`). */
const itemOf = (request: ModelRequest): number => Number(/\[(\d+)\]/.exec(request.trace.task)![1]);

const complete = (request: ModelRequest): ModelResponse => use('task_complete', { summary: `handled item ${itemOf(request)}` });

async function run(h: Harness, sleep?: (ms: number, signal: AbortSignal) => Promise<void>) {
  const task = h.ctx.mission.tasks[0]!;
  return runParallelItems(h.ctx, task, await taskItems(h.ctx, task), [], { slots: new UnitSlots(10), ...(sleep ? { sleep } : {}) });
}

describe('runParallelItems', () => {
  it('runs at most concurrency_limit items at once, staggers the first launches with the injected sleep, and stores each result', async () => {
    const held: { request: ModelRequest; answer: (r: ModelResponse) => void }[] = [];
    const waiters: (() => void)[] = [];
    const script: Script = (request) =>
      new Promise<ModelResponse>((resolve) => {
        held.push({ request, answer: resolve });
        for (const wake of waiters.splice(0)) wake();
      });
    const h = await harness(hcl('      concurrency_limit = 2\n      start_delay       = 250'), script);
    const slept: number[] = [];
    const done = run(h, async (ms) => {
      slept.push(ms);
    });
    let most = 0;
    for (let answered = 0; answered < 5; answered++) {
      // Wait until every item that may run is in flight, then check none beyond the limit is.
      const expected = Math.min(2, 5 - answered);
      while (held.length - answered < expected) await new Promise<void>((resolve) => waiters.push(resolve));
      // Give a lane that should not start a chance to (its writes are awaited before its model call).
      await new Promise((resolve) => setImmediate(resolve));
      const inFlight = held.length - answered;
      expect(inFlight).toBeLessThanOrEqual(2);
      most = Math.max(most, inFlight);
      held[answered]!.answer(complete(held[answered]!.request));
    }
    const outcome = await done;
    expect(outcome).toEqual({ status: 'completed', summary: expect.stringContaining('Iterated task "t": 5 of 5 items succeeded, 0 failed.') });
    expect(most).toBe(2);
    // Lane 1 waited one start_delay before its first item; lane 0 did not wait.
    expect(slept).toEqual([250]);
    expect(held.map((x) => itemOf(x.request)).sort()).toEqual([0, 1, 2, 3, 4]);
    const rows = await h.store.items.list(h.ctx.runId, 't');
    expect(rows.map((r) => [r.index, r.status, r.attempt])).toEqual([0, 1, 2, 3, 4].map((i) => [i, 'completed', 1]));
    for (const i of [0, 1, 2, 3, 4]) {
      expect((await h.store.items.get(h.ctx.runId, 't', i))).toMatchObject({ summary: `handled item ${i}` });
    }
    expect(h.events.filter((e) => e.type === 'item.finished')).toHaveLength(5);
    await h.close();
  });

  it('runs a failed item again from a fresh session, up to max_retries, then counts it failed', async () => {
    const attempts = new Map<number, number>();
    const script: Script = (request) => {
      const i = itemOf(request);
      const n = (attempts.get(i) ?? 0) + 1;
      attempts.set(i, n);
      // Item 1 fails once, item 2 always; item 0 succeeds.
      if ((i === 1 && n === 1) || i === 2) return use('task_complete', { summary: 'no', succeed: false, reason: `item ${i} broke on attempt ${n}` });
      // A retried item's session is fresh: its first request holds its instruction alone.
      expect(request.messages).toHaveLength(1);
      return complete(request);
    };
    const h = await harness(hcl('      concurrency_limit = 1\n      max_retries       = 1', '["a", "b", "c"]'), script);
    const outcome = await run(h);
    expect(outcome).toEqual({ status: 'completed', summary: expect.stringContaining('2 of 3 items succeeded, 1 failed. Failed items: 2.') });
    expect([...attempts.entries()].sort()).toEqual([
      [0, 1],
      [1, 2],
      [2, 2],
    ]);
    expect((await h.store.items.list(h.ctx.runId, 't')).map((r) => [r.index, r.status, r.attempt])).toEqual([
      [0, 'completed', 1],
      [1, 'completed', 2],
      [2, 'failed', 2],
    ]);
    // The failed attempt's session was kept aside under its attempt label; the retry opened a new one.
    const first = await h.store.sessions.get(h.ctx.runId, 't[1]#1', 'worker');
    const second = await h.store.sessions.get(h.ctx.runId, 't[1]', 'worker');
    expect(first).toBeDefined();
    expect(second?.status).toBe('completed');
    expect(second!.id).not.toBe(first!.id);
    expect(h.events.filter((e) => e.type === 'item.finished' && e.status === 'failed')).toEqual([
      expect.objectContaining({ index: 2, error: 'item 2 broke on attempt 2' }),
    ]);
    await h.close();
  });

  it('with a failing smoke test starts no other item and fails the task', async () => {
    const h = await harness(hcl('      concurrency_limit = 3\n      smoketest         = true'), (request) =>
      use('task_complete', { summary: 'no', succeed: false, reason: `item ${itemOf(request)} is malformed` }),
    );
    expect(await run(h)).toEqual({ status: 'failed', error: 'the smoke test failed: item 0 failed (item 0 is malformed); no other item was started' });
    expect(h.requests.map(itemOf)).toEqual([0]);
    expect((await h.store.items.list(h.ctx.runId, 't')).map((r) => r.status)).toEqual(['failed', 'pending', 'pending', 'pending', 'pending']);
    await h.close();
  });

  it('does not run again the items the store holds as completed (a resumed task)', async () => {
    const h = await harness(hcl('      concurrency_limit = 2'), complete);
    await h.store.items.ensure(h.ctx.runId, 't', 5);
    await h.store.items.complete(h.ctx.runId, 't', 0, { summary: 'done before' });
    await h.store.items.complete(h.ctx.runId, 't', 3, { summary: 'done before' });
    expect(await run(h)).toEqual({ status: 'completed', summary: expect.stringContaining('5 of 5 items succeeded') });
    expect([...new Set(h.requests.map(itemOf))].sort()).toEqual([1, 2, 4]);
    expect((await h.store.items.get(h.ctx.runId, 't', 0))!.summary).toBe('done before');
    expect((await h.store.items.get(h.ctx.runId, 't', 4))!.summary).toBe('handled item 4');
    await h.close();
  });
});
