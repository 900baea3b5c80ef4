// The budgets port's contract on every backend: a scope's settled spend is its stored model turns
// (the mission: all of them; a task: its own, its iterations and attempts), a reservation is stored
// only when `decide` agrees with the totals read in the same step, it counts while its holder holds
// the run's lease or its unit of work, and it is dropped in the transaction that stores the turn.

import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { ScopeTotals, Store } from '../../../store/index.js';
import { useBackends, type Backend } from './backends.js';

const HOST = hostname();
const OWNER = { id: 'own_a', pid: process.pid, host: HOST };

async function setup(backend: Backend) {
  const store = await backend.fresh();
  const runId = (await store.runs.create({ mission: 'm', configPath: '/c.hcl', inputs: {} })).id;
  expect(await store.leases.acquire(runId, OWNER, 30_000)).toEqual({ ok: true });
  return { store, runId };
}

async function turn(store: Store, runId: string, task: string, tokens: number, costUsd: number): Promise<void> {
  const sessionId = (await store.sessions.open({ runId, task, agent: 'worker', role: 'agent', model: 'x', systemPrompt: '', tools: [], skills: [] })).id;
  await store.turns.record({ runId, task, sessionId, turn: 1, model: 'x', usage: { inputTokens: tokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd, durationMs: 1, stopReason: 'end_turn' });
}

/** Refuses when settled + reserved + amount would pass `limit` dollars on any scope. */
function under(limit: number, amount: number) {
  return (totals: ReadonlyMap<string, ScopeTotals>) => {
    for (const [scope, t] of totals) if (t.settled.dollars + t.reserved.dollars + amount > limit + 1e-9) return { scope, inFlight: t.inFlight };
    return undefined;
  };
}

describe.each(useBackends())('$name budgets', (backend) => {
  it('sums a scope from the stored turns: the mission all of them, a task its own with its iterations and attempts', async () => {
    const { store, runId } = await setup(backend);
    await turn(store, runId, 't', 10, 0.1);
    await turn(store, runId, 't[2]', 20, 0.2);
    await turn(store, runId, 't#2', 40, 0.4);
    await turn(store, runId, 'tt', 80, 0.8);
    await turn(store, runId, 't_x', 160, 1.6);
    const totals = await store.budgets.totals(runId, ['mission', 't', 'tt']);
    expect(totals.get('mission')).toMatchObject({ settled: { tokens: 310 }, inFlight: 0 });
    expect(totals.get('mission')?.settled.dollars).toBeCloseTo(3.1);
    expect(totals.get('t')).toMatchObject({ settled: { tokens: 70 }, reserved: { tokens: 0, dollars: 0 } });
    expect(totals.get('tt')?.settled.tokens).toBe(80);
  });

  it('stores a reservation only when decide agrees, and counts it on every scope it covers', async () => {
    const { store, runId } = await setup(backend);
    await turn(store, runId, 't', 0, 0.5);
    const holder = { owner: OWNER.id };
    const first = await store.budgets.reserve({ runId, scopes: ['mission', 't'], amount: { tokens: 100, dollars: 0.3 }, holder, decide: under(1, 0.3) });
    expect(first.ok).toBe(true);
    const refused = await store.budgets.reserve({ runId, scopes: ['mission', 't'], amount: { tokens: 100, dollars: 0.3 }, holder, decide: under(1, 0.3) });
    expect(refused).toEqual({ ok: false, refusal: { scope: 'mission', inFlight: 1 } });
    const totals = await store.budgets.totals(runId, ['mission', 't', 'u']);
    expect(totals.get('t')).toMatchObject({ reserved: { tokens: 100 }, inFlight: 1 });
    expect(totals.get('t')?.reserved.dollars).toBeCloseTo(0.3);
    expect(totals.get('u')).toMatchObject({ reserved: { tokens: 0 }, inFlight: 0 });
    if (first.ok) await store.budgets.drop(first.id);
    expect((await store.budgets.totals(runId, ['mission'])).get('mission')?.inFlight).toBe(0);
  });

  it('drops a reservation in the transaction that stores its turn: a rollback keeps it, a commit settles it', async () => {
    const { store, runId } = await setup(backend);
    const sessionId = (await store.sessions.open({ runId, task: 't', agent: 'worker', role: 'agent', model: 'x', systemPrompt: '', tools: [], skills: [] })).id;
    const r = await store.budgets.reserve({ runId, scopes: ['mission'], amount: { tokens: 10, dollars: 0.5 }, holder: { owner: OWNER.id }, decide: () => undefined });
    if (!r.ok) throw new Error('refused');
    const record = (tx: Store) => tx.turns.record({ runId, task: 't', sessionId, turn: 1, model: 'x', usage: { inputTokens: 3, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0.2, durationMs: 1, stopReason: 'end_turn' });
    await expect(
      store.transaction(async (tx) => {
        await record(tx);
        await tx.budgets.drop(r.id);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await store.budgets.totals(runId, ['mission'])).get('mission')).toMatchObject({ settled: { tokens: 0 }, reserved: { tokens: 10 }, inFlight: 1 });
    await store.transaction(async (tx) => {
      await record(tx);
      await tx.budgets.drop(r.id);
    });
    const after = (await store.budgets.totals(runId, ['mission'])).get('mission');
    expect(after).toMatchObject({ settled: { tokens: 3 }, reserved: { tokens: 0 }, inFlight: 0 });
    expect(after?.settled.dollars).toBeCloseTo(0.2);
  });

  it("counts a reservation only while its holder holds the run's lease or its unit of work, and forgets it after", async () => {
    const { store, runId } = await setup(backend);
    const at = '2025-06-01T12:00:00.000Z';
    await backend.exec(store, `INSERT INTO work_units (id, run_id, kind, task, attempt, state, owner, pid, host, claims, enqueued_at, claimed_at, heartbeat_at) VALUES ('unit_1', ?, 'task', 't', 1, 'claimed', 'wrk_b', ?, ?, 1, ?, ?, ?)`, runId, process.pid, HOST, at, at, at);
    const reserve = (holder: { owner: string; unitId?: string }) => store.budgets.reserve({ runId, scopes: ['mission'], amount: { tokens: 1, dollars: 0.25 }, holder, decide: () => undefined });
    expect((await reserve({ owner: OWNER.id })).ok).toBe(true);
    expect((await reserve({ owner: 'wrk_b', unitId: 'unit_1' })).ok).toBe(true);
    // A unit held by another owner than the reservation's (taken over): that reservation is not counted.
    expect((await reserve({ owner: 'wrk_dead', unitId: 'unit_1' })).ok).toBe(true);
    const inFlight = async () => (await store.budgets.totals(runId, ['mission'])).get('mission')?.inFlight;
    expect(await inFlight()).toBe(2);
    // The unit is taken over by another runner: its old holder's reservation stops counting.
    await backend.exec(store, `UPDATE work_units SET owner = 'wrk_c' WHERE id = 'unit_1'`);
    expect(await inFlight()).toBe(1);
    // The run's lease is released (or taken over): the coordinator's reservation stops counting too.
    await store.leases.release(runId, OWNER.id);
    expect(await inFlight()).toBe(0);
    // The next runner's reservation deletes the dead ones.
    await store.leases.acquire(runId, { ...OWNER, id: 'own_next' }, 30_000);
    expect((await reserve({ owner: 'own_next' })).ok).toBe(true);
    const left = await backend.exec(store, 'SELECT owner FROM budget_reservations WHERE run_id = ?', runId);
    expect(left.map((r) => r['owner'])).toEqual(['own_next']);
  });

  it('never lets concurrent reservations together pass a limit', async () => {
    const { store, runId } = await setup(backend);
    // PostgreSQL: four pools, as four runners would. SQLite: one store's calls interleaved.
    const others = backend.name === 'postgres' ? await Promise.all(Array.from({ length: 3 }, () => backend.second(store))) : [];
    const stores = [store, ...others];
    const results = await Promise.all(
      stores.flatMap((s) =>
        Array.from({ length: 5 }, () => s.budgets.reserve({ runId, scopes: ['mission'], amount: { tokens: 1, dollars: 0.3 }, holder: { owner: OWNER.id }, decide: under(1, 0.3) })),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect((await store.budgets.totals(runId, ['mission'])).get('mission')?.inFlight).toBe(3);
  });
});
