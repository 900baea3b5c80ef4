// The coordinator's wait for a queued task (runtime/schedule/queuedTasks.ts) on a real PostgreSQL queue: a
// resumed coordinator that finds its task's unit left cancelled, or left cancelling by a runner that
// died before giving it back, queues it again and gets the task done — it neither waits forever nor
// reports the task interrupted.

import { describe, expect, it } from 'vitest';
import type { TaskSpec } from '../../../config/graph.js';
import type { RunContext } from '../../../runtime/agents/runContext.js';
import { queuedTaskExecutor } from '../../../runtime/schedule/queuedTasks.js';
import type { Store, UnitRow, UnitsRepo } from '../../../store/index.js';
import { openPostgresStore } from '../../../store/postgres/index.js';
import { usePostgres } from '../../support/postgres.js';

const server = usePostgres();

const STALE_MS = 15_000;
const TIMING = { pollMs: 20, staleAfterMs: STALE_MS };
const HOUR = 3_600_000;

/** A live runner elsewhere: claims units of the run as they are queued and finishes each as completed. */
async function liveRunner(units: UnitsRepo, runId: string, stop: AbortSignal): Promise<UnitRow[]> {
  const taken: UnitRow[] = [];
  while (!stop.aborted) {
    const unit = await units.claim({ id: 'wrk_live', pid: process.pid, host: 'host-live' }, STALE_MS, { runId, kinds: ['task'] });
    if (unit === undefined) {
      await new Promise((r) => setTimeout(r, 20));
      continue;
    }
    taken.push(unit);
    await units.finish(unit.id, 'wrk_live', { status: 'completed', summary: `done by the live runner (claim ${unit.claims})` });
  }
  return taken;
}

async function scenario(leave: (units: UnitsRepo, unit: UnitRow) => Promise<void>): Promise<{ outcome: unknown; taken: UnitRow[]; left: UnitRow }> {
  const url = await server().createDatabase();
  const store: Store = await openPostgresStore(url, { env: {} });
  // The runner that died: its clock is an hour behind, so its last heartbeat is an hour old.
  const past: Store = await openPostgresStore(url, { env: {}, clock: () => Date.now() - HOUR });
  try {
    const runId = (await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} })).id;
    const key = { runId, kind: 'task' as const, task: 'a', attempt: 1 };
    await store.units!.enqueue(key);
    const claimed = await past.units!.claim({ id: 'wrk_dead', pid: 1, host: 'host-gone' }, STALE_MS, { runId });
    expect(claimed).toMatchObject({ task: 'a', owner: 'wrk_dead' });
    await store.units!.cancel(claimed!.id); // the earlier coordinator's interrupt
    await leave(past.units!, claimed!);
    const left = (await store.units!.get(claimed!.id))!;

    const stop = new AbortController();
    const runner = liveRunner(store.units!, runId, stop.signal);
    const ctx = { runId, store, mission: { maxParallel: 4 }, signal: new AbortController().signal } as unknown as RunContext;
    const execute = queuedTaskExecutor(store.units!, TIMING, new AbortController().signal);
    const guard = new Promise((r) => setTimeout(() => r('still waiting after 60 s'), 60_000).unref());
    const outcome = await Promise.race([execute(ctx, { name: 'a' } as TaskSpec, []), guard]);
    stop.abort();
    return { outcome, taken: await runner, left };
  } finally {
    await past.close();
    await store.close();
  }
}

describe('a resumed coordinator and a unit an earlier coordinator cancelled', () => {
  it('queues a unit left cancelling by a runner that died again, and returns its outcome', async () => {
    const { outcome, taken, left } = await scenario(async () => undefined);
    expect(left.state).toBe('cancelling');
    expect(outcome).toEqual({ status: 'completed', summary: 'done by the live runner (claim 2)' });
    expect(taken.map((u) => [u.task, u.owner])).toEqual([['a', 'wrk_live']]);
  }, 120_000);

  it('queues a unit its runner gave back as cancelled again, and returns its outcome', async () => {
    const { outcome, taken, left } = await scenario(async (units, unit) => {
      await units.release(unit.id, 'wrk_dead');
    });
    expect(left.state).toBe('cancelled');
    expect(outcome).toMatchObject({ status: 'completed' });
    expect(taken).toHaveLength(1);
  }, 120_000);
});
