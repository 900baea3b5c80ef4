// The queue of units of work on PostgreSQL (store/postgres/repos/units.ts): concurrent claimers never
// get the same unit; a unit whose holder's heartbeat is too old (an injected clock, no sleeping) or
// whose holder's process is gone is claimed again; a holder taken over can no longer renew or finish
// it; cancelling reaches a holder at its next heartbeat; resume's enqueue queues a cancelled unit again.

import { describe, expect, it } from 'vitest';
import type { Store, UnitsRepo } from '../../../store/index.js';
import { openPostgresStore } from '../../../store/postgres/index.js';
import { usePostgres } from '../../support/postgres.js';

const server = usePostgres();

const STALE_MS = 15_000;
const here = (id: string) => ({ id, pid: process.pid, host: 'host-a' });
const elsewhere = (id: string) => ({ id, pid: process.pid, host: 'host-b' });

async function withStores(n: number, clock: () => number, body: (stores: Store[], units: UnitsRepo[], runId: string) => Promise<void>): Promise<void> {
  const url = await server().createDatabase();
  const stores: Store[] = [];
  for (let i = 0; i < n; i++) stores.push(await openPostgresStore(url, { env: {}, clock }));
  try {
    const runId = (await stores[0]!.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} })).id;
    await body(stores, stores.map((s) => s.units!), runId);
  } finally {
    for (const s of stores) await s.close();
  }
}

describe('units of work on PostgreSQL', () => {
  it('gives each queued unit to exactly one of many concurrent claimers, oldest first', async () => {
    await withStores(4, Date.now, async (_stores, units, runId) => {
      const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
      for (const task of names) await units[0]!.enqueue({ runId, kind: 'task', task, attempt: 1 });
      const claimed = await Promise.all(names.map((_, i) => units[i % 4]!.claim(here(`own_${i}`), STALE_MS)));
      expect(claimed.map((u) => u?.task).sort()).toEqual(names);
      expect(await units[0]!.claim(here('own_late'), STALE_MS)).toBeUndefined();
    });
  });

  it('requeues a finished unit for resume --detach: queued again without its holder or outcome, then claimed by a new runner', async () => {
    await withStores(1, Date.now, async (_stores, [units], runId) => {
      const key = { runId, kind: 'run' as const, task: '', attempt: 0 };
      const own = await units!.claimOwn(key, here('own_first'));
      expect(await units!.finish(own.id, 'own_first', { status: 'interrupted' })).toBe(true);
      expect(await units!.enqueue(key)).toMatchObject({ state: 'done' });
      const again = await units!.requeue(key);
      expect(again).toMatchObject({ id: own.id, state: 'queued', claims: 1 });
      expect(again.owner).toBeUndefined();
      expect(again.outcome).toBeUndefined();
      expect(await units!.finish(own.id, 'own_first', { status: 'completed' })).toBe(false);
      expect(await units!.claim(here('wrk_next'), STALE_MS, { kinds: ['run'] })).toMatchObject({ id: own.id, owner: 'wrk_next', claims: 2 });
    });
  });

  it('announces each unit queued (enqueue, requeue, a release back to the queue) to the listening stores, after commit', async () => {
    await withStores(2, Date.now, async (_stores, [mine, other], runId) => {
      const queued = other!.queued!;
      expect(await queued.ready()).toBe(true);
      const stop = new AbortController();
      // Each wait ends at the notice, long before its 60 s fallback; `seen` counts the notices.
      const announced = async (action: () => Promise<unknown>): Promise<number> => {
        const seen = queued.seen;
        const waiting = queued.wait(seen, 60_000, stop.signal);
        await action();
        await waiting;
        return queued.seen - seen;
      };
      expect(await announced(() => mine!.enqueue({ runId, kind: 'task', task: 'a', attempt: 1 }))).toBeGreaterThan(0);
      const claimed = await mine!.claim(here('wrk_a'), STALE_MS);
      expect(await announced(() => mine!.release(claimed!.id, 'wrk_a'))).toBeGreaterThan(0);
      expect(await announced(() => mine!.requeue({ runId, kind: 'run', task: '', attempt: 0 }))).toBeGreaterThan(0);
      // A notice that arrived before the wait: it returns at once.
      const before = queued.seen;
      await announced(() => mine!.enqueue({ runId, kind: 'task', task: 'b', attempt: 1 }));
      await queued.wait(before, 60_000, stop.signal);
    });
  });

  it('claims a unit again once its holder on another host stops beating, and fences the old holder out', async () => {
    let now = Date.parse('2026-12-01T10:00:00Z');
    await withStores(1, () => now, async (_stores, [units], runId) => {
      const unit = await units!.enqueue({ runId, kind: 'task', task: 'a', attempt: 1 });
      expect((await units!.claim(elsewhere('own_old'), STALE_MS))?.id).toBe(unit.id);
      now += STALE_MS - 1;
      expect(await units!.claim(here('own_new'), STALE_MS)).toBeUndefined();
      now += 2;
      const taken = await units!.claim(here('own_new'), STALE_MS);
      expect(taken).toMatchObject({ id: unit.id, owner: 'own_new', claims: 2 });
      expect(await units!.heartbeat(unit.id, 'own_old')).toBe(false);
      expect(await units!.finish(unit.id, 'own_old', { status: 'completed', summary: 'old' })).toBe(false);
      expect(await units!.finish(unit.id, 'own_new', { status: 'completed', summary: 'new' })).toBe(true);
      expect((await units!.get(unit.id))?.outcome).toEqual({ status: 'completed', summary: 'new' });
    });
  });

  it('claims at once a unit held on this host by a process that is gone', async () => {
    await withStores(1, Date.now, async (_stores, [units], runId) => {
      const unit = await units!.enqueue({ runId, kind: 'task', task: 'a', attempt: 1 });
      await units!.claim({ id: 'own_dead', pid: 2 ** 22 + 12345, host: 'host-a' }, STALE_MS);
      expect((await units!.claim(here('own_new'), STALE_MS))?.id).toBe(unit.id);
    });
  });

  it('cancels a queued unit at once and a claimed one at its holder’s next heartbeat; enqueue queues a cancelled unit again', async () => {
    await withStores(1, Date.now, async (_stores, [units], runId) => {
      const queued = await units!.enqueue({ runId, kind: 'task', task: 'a', attempt: 1 });
      const held = await units!.enqueue({ runId, kind: 'task', task: 'b', attempt: 1 });
      await units!.claim(here('own_1'), STALE_MS, { runId, kinds: ['task'] });
      expect((await units!.get(queued.id))?.state).toBe('claimed');
      // 'a' is claimed now (oldest first); 'b' still queued.
      await units!.cancel(held.id);
      expect((await units!.get(held.id))?.state).toBe('cancelled');
      await units!.cancel(queued.id);
      expect((await units!.get(queued.id))?.state).toBe('cancelling');
      expect(await units!.heartbeat(queued.id, 'own_1')).toBe(false);
      await units!.release(queued.id, 'own_1');
      expect((await units!.get(queued.id))?.state).toBe('cancelled');
      expect((await units!.enqueue({ runId, kind: 'task', task: 'a', attempt: 1 })).state).toBe('queued');
      // A done unit is left as it is.
      const again = await units!.claim(here('own_2'), STALE_MS);
      await units!.finish(again!.id, 'own_2', { status: 'completed', summary: 's' });
      expect((await units!.enqueue({ runId, kind: 'task', task: again!.task, attempt: 1 })).state).toBe('done');
    });
  });

  it('gives a unit released by a stopping runner to the next claimer, with only its own kind and run', async () => {
    await withStores(1, Date.now, async (stores, [units], runId) => {
      const other = (await stores[0]!.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} })).id;
      await units!.enqueue({ runId: other, kind: 'task', task: 'x', attempt: 1 });
      const run = await units!.enqueue({ runId, kind: 'run', task: '', attempt: 0 });
      expect(await units!.claim(here('own_1'), STALE_MS, { runId, kinds: ['task'] })).toBeUndefined();
      expect((await units!.claim(here('own_1'), STALE_MS, { kinds: ['run'] }))?.id).toBe(run.id);
      await units!.release(run.id, 'own_1');
      expect((await units!.get(run.id))?.state).toBe('queued');
      expect((await units!.claim(here('own_2'), STALE_MS, { kinds: ['run'] }))?.owner).toBe('own_2');
    });
  });
  it('keeps one unit per attempt of each item (named by its label): queueing it again while it is held returns the held unit, a retry is a unit of its own', async () => {
    await withStores(2, Date.now, async (_stores, [coordinator, taker], runId) => {
      const first = await coordinator!.enqueue({ runId, kind: 'task', task: 'mark[3]', attempt: 1 });
      const held = await taker!.claim(here('wrk_1'), STALE_MS, { kinds: ['task'] });
      expect(held).toMatchObject({ id: first.id, task: 'mark[3]', state: 'claimed' });
      // A coordinator that took the run over queues the same item again: it gets the held unit back.
      expect(await coordinator!.enqueue({ runId, kind: 'task', task: 'mark[3]', attempt: 1 })).toMatchObject({ id: first.id, state: 'claimed', owner: 'wrk_1' });
      expect(await coordinator!.claim(here('wrk_2'), STALE_MS, { kinds: ['task'] })).toBeUndefined();
      expect(await taker!.finish(first.id, 'wrk_1', { kind: 'failed', error: 'no' })).toBe(true);
      // The item's next attempt, the task's own unit and another item are other units.
      const retry = await coordinator!.enqueue({ runId, kind: 'task', task: 'mark[3]', attempt: 2 });
      const task = await coordinator!.enqueue({ runId, kind: 'task', task: 'mark', attempt: 1 });
      const other = await coordinator!.enqueue({ runId, kind: 'task', task: 'mark[4]', attempt: 1 });
      expect(new Set([first.id, retry.id, task.id, other.id]).size).toBe(4);
      expect((await coordinator!.get(first.id))?.outcome).toEqual({ kind: 'failed', error: 'no' });
      expect((await coordinator!.list(runId)).map((u) => `${u.task}#${u.attempt}:${u.state}`).sort()).toEqual(['mark#1:queued', 'mark[3]#1:done', 'mark[3]#2:queued', 'mark[4]#1:queued']);
      // A coordinator reads back only the units it waits for.
      expect((await coordinator!.getMany([retry.id, first.id, 'unit_gone'])).map((u) => `${u.task}#${u.attempt}:${u.state}`).sort()).toEqual(['mark[3]#1:done', 'mark[3]#2:queued']);
      expect(await coordinator!.getMany([])).toEqual([]);
      // Queued or held task and item units of the run count toward max_parallel, but not the one
      // being queued again, nor done ones, nor the run's coordination.
      await coordinator!.claimOwn({ runId, kind: 'run', task: '', attempt: 0 }, here('own_c'));
      expect(await coordinator!.activeCount(runId, { runId, kind: 'task', task: 'mark[9]', attempt: 1 })).toBe(3);
      expect(await coordinator!.activeCount(runId, { runId, kind: 'task', task: 'mark[4]', attempt: 1 })).toBe(2);
      await coordinator!.claim(here('wrk_3'), STALE_MS, { kinds: ['task'] });
      expect(await coordinator!.activeCount(runId, { runId, kind: 'task', task: 'mark[9]', attempt: 1 })).toBe(3);
    });
  });
});
