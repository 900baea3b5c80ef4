// The budget ledger, the call bound, the time spent before a resume and the --budget flag, each on
// its own (the end-to-end tests in test/e2e/budget.test.ts drive them through the CLI).

import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../runtime/kernel/events.js';
import { BudgetLedger, type BudgetState } from '../../../runtime/budget/ledger.js';
import { taskOfLabel } from '../../../core/sessionLabels.js';
import { callUpperBound } from '../../../runtime/budget/estimate.js';
import type { BudgetHolder, BudgetTotals } from '../../../runtime/budget/totals.js';
import { elapsedFromEvents } from '../../../runtime/budget/restore.js';
import { parseBudgetFlag } from '../../../runtime/budget/limits.js';
import type { ModelRequest } from '../../../runtime/providers/types.js';

function state(limits: Record<string, Record<string, number>>, settled: Record<string, { tokens: number; dollars: number }> = {}): BudgetState {
  return { limits: new Map(Object.entries(limits)), settled: new Map(Object.entries(settled)), elapsedBefore: new Map(), warned: new Set() };
}

const bound = (dollars: number, tokens = 0) => ({ dollars, tokens });

describe('BudgetLedger', () => {
  it('reserves against the mission and the task budget, and refuses a call that would pass either', async () => {
    const events: RunEvent[] = [];
    const ledger = new BudgetLedger(state({ mission: { dollars: 10 }, a: { tokens: 100 } }), (e) => events.push(e));
    const first = await ledger.reserve('a[2]', 'worker', bound(4, 60));
    expect(first.ok).toBe(true);
    if (first.ok) first.reservation.settle(bound(1, 50));
    const second = await ledger.reserve('a', 'worker', bound(4, 60));
    expect(second).toMatchObject({ ok: false, stop: { scope: 'a', kind: 'tokens', spent: 50, needed: 60, limit: 100 } });
    expect(ledger.stop?.message).toBe('the budget of task "a" cannot afford the next model call: 50 tokens spent of 100 tokens, and the call may cost up to 60 tokens');
    expect(ledger.missionStopped).toBe(false);
    expect(events.map((e) => e.type)).toEqual(['budget.exceeded']);
    // Another task is covered by the mission budget only.
    expect((await ledger.reserve('b', 'worker', bound(4, 60))).ok).toBe(true);
  });

  it('makes a call that does not fit wait for the calls in flight, and lets it through when they settle below their bound', async () => {
    const ledger = new BudgetLedger(state({ mission: { dollars: 3 } }), () => {});
    const a = await ledger.reserve('t1', 'worker', bound(1));
    const b = await ledger.reserve('t2', 'worker', bound(1));
    let settledC = false;
    const c = ledger.reserve('t3', 'worker', bound(1.5)).then((r) => ((settledC = true), r));
    await new Promise((r) => setImmediate(r));
    expect(settledC).toBe(false);
    if (a.ok) a.reservation.settle(bound(0.2));
    expect((await c).ok).toBe(true);
    if (b.ok) await b.reservation.release();
    expect(ledger.spent('mission').dollars).toBeCloseTo(0.2);
  });

  it('refuses once nothing is in flight and the call still does not fit', async () => {
    const ledger = new BudgetLedger(state({ mission: { dollars: 3 } }, { mission: { tokens: 0, dollars: 2.5 } }), () => {});
    expect(await ledger.reserve('t', 'worker', bound(1))).toMatchObject({ ok: false, stop: { kind: 'dollars', spent: 2.5, limit: 3 } });
    expect(ledger.missionStopped).toBe(true);
  });

  it('warns once at 80% of a limit, not again after a resume that already warned', async () => {
    const events: RunEvent[] = [];
    const ledger = new BudgetLedger(state({ mission: { dollars: 10 } }), (e) => events.push(e));
    for (let i = 0; i < 3; i++) {
      const r = await ledger.reserve('t', 'worker', bound(1));
      if (r.ok) r.reservation.settle(bound(3));
    }
    expect(events.filter((e) => e.type === 'budget.warning').map((e) => (e as { message: string }).message)).toEqual(['the mission budget is 90% spent: $9.0000 of $10.00']);
    const resumed = state({ mission: { dollars: 10 } }, { mission: { tokens: 0, dollars: 9 } });
    resumed.warned.add('mission:dollars');
    const again: RunEvent[] = [];
    const ledger2 = new BudgetLedger(resumed, (e) => again.push(e));
    const r = await ledger2.reserve('t', 'worker', bound(0.5));
    if (r.ok) r.reservation.settle(bound(0.5));
    expect(again).toEqual([]);
  });

  it('refuses any call once the time budget has run out, counting time from before the resume', async () => {
    let now = 1_000;
    const s = state({ mission: { duration: 60_000 } });
    s.elapsedBefore.set('mission', 59_000);
    const ledger = new BudgetLedger(s, () => {}, { clock: () => now });
    expect((await ledger.reserve('t', 'worker', bound(0))).ok).toBe(true);
    now += 1_000;
    expect(await ledger.reserve('t', 'worker', bound(0))).toMatchObject({ ok: false, stop: { kind: 'duration' } });
  });

  it('takes a stop noted from another runner as its own: the mission budget stops new tasks, a task budget its task', () => {
    const ledger = new BudgetLedger(state({ mission: { dollars: 3 }, a: { dollars: 1 } }), () => {});
    const stop = { scope: 'a', kind: 'dollars' as const, spent: 0.5, needed: 1, limit: 1, message: 'the budget of task "a" cannot afford the next model call' };
    ledger.noteStop(stop);
    expect([ledger.taskStopped('a'), ledger.taskStopped('b'), ledger.missionStopped]).toEqual([true, false, false]);
    expect(ledger.stop).toBe(stop);
    ledger.noteStop({ ...stop, scope: 'mission', message: 'the mission budget cannot afford the next model call' });
    expect(ledger.missionStopped).toBe(true);
    // The first stop stays the run's reason.
    expect(ledger.stop).toBe(stop);
  });

  it('names the stop that ended a task here, until the task starts again under a new unit of work', async () => {
    const ledger = new BudgetLedger(state({ mission: { dollars: 1 } }), () => {});
    ledger.hold('a', { owner: 'wrk_1', unitId: 'unit_1' });
    expect(await ledger.reserve('a[1]', 'worker', bound(2))).toMatchObject({ ok: false, stop: { scope: 'mission' } });
    expect(ledger.stopOf('a')).toMatchObject({ scope: 'mission', kind: 'dollars' });
    expect(ledger.stopOf('b')).toBeUndefined();
    ledger.hold('a', { owner: 'wrk_1', unitId: 'unit_2' });
    expect(ledger.stopOf('a')).toBeUndefined();
  });

  it("reserves under the unit of work a session runs in: its label's, else its task's, else the run's lease", async () => {
    const seen: (BudgetHolder | undefined)[] = [];
    const totals: BudgetTotals = {
      async reserve(_scopes, _bound, holder) {
        seen.push(holder);
        return { ok: true, id: String(seen.length) };
      },
      settleIn: async () => undefined,
      settled: () => undefined,
      release: async () => undefined,
      totals: async () => new Map(),
    };
    const ledger = new BudgetLedger(state({ mission: { dollars: 10 } }), () => {}, { totals, defaultHolder: () => ({ owner: 'own_lease' }) });
    ledger.hold('a', { owner: 'wrk_1', unitId: 'unit_a' });
    ledger.hold('b[2]', { owner: 'wrk_2', unitId: 'unit_b2' });
    for (const label of ['a', 'a[1]', 'b[2]', 'b[3]']) await ledger.reserve(label, 'worker', bound(1));
    ledger.unhold('a');
    await ledger.reserve('a', 'worker', bound(1));
    expect(seen).toEqual([
      { owner: 'wrk_1', unitId: 'unit_a' },
      { owner: 'wrk_1', unitId: 'unit_a' },
      { owner: 'wrk_2', unitId: 'unit_b2' },
      { owner: 'own_lease' },
      { owner: 'own_lease' },
    ]);
  });

  it('maps iteration and attempt labels to their task', () => {
    expect([taskOfLabel('t'), taskOfLabel('t[3]'), taskOfLabel('t#2')]).toEqual(['t', 't', 't']);
  });
});

describe('callUpperBound', () => {
  it('bounds input by the request bytes plus overheads, output by max_tokens plus the thinking budget', () => {
    const request: ModelRequest = {
      model: 'm',
      system: 'é'.repeat(100),
      messages: [{ role: 'user', parts: [{ type: 'text', text: 'hello' }] }],
      tools: [],
      maxOutputTokens: 1000,
      trace: { task: 't', agent: 'worker', turn: 1 },
    };
    const plain = callUpperBound(request, { pricing: { input: 1, output: 10 } });
    const inputTokens = 200 + JSON.stringify(request.messages[0]!.parts).length + 16 + 512;
    expect(plain.tokens).toBe(inputTokens + 1000);
    // Input at the dearest input rate (cache writes: 1.25 × input by default).
    expect(plain.dollars).toBeCloseTo((inputTokens * 1.25 + 1000 * 10) / 1e6, 12);
    const thinking = callUpperBound({ ...request, reasoning: 'high' }, { pricing: undefined });
    expect(thinking.tokens).toBeGreaterThan(plain.tokens);
    expect(thinking.dollars).toBe(0);
  });
});

describe('elapsedFromEvents', () => {
  it('adds each process span (run.started to its last event) and each task span', () => {
    const e = (type: string, at: number, task?: string) => ({ type, at, task });
    const spans = elapsedFromEvents([e('run.started', 0), e('task.started', 10, 'a'), e('model.turn', 50, 'a'), e('run.started', 1_000), e('task.started', 1_010, 'a[1]'), e('task.completed', 1_030, 'a[1]'), e('run.finished', 1_100)]);
    expect(spans.get('mission')).toBe(50 + 100);
    expect(spans.get('a')).toBe(40 + 20);
  });
});

describe('parseBudgetFlag', () => {
  it('reads the mission or a task, a kind and a value', () => {
    expect(parseBudgetFlag('dollars=5')).toEqual({ scope: 'mission', kind: 'dollars', value: 5 });
    expect(parseBudgetFlag('gather.tokens=2000')).toEqual({ scope: 'gather', kind: 'tokens', value: 2000 });
    expect(parseBudgetFlag('duration=45m')).toEqual({ scope: 'mission', kind: 'duration', value: 2_700_000 });
    expect(parseBudgetFlag('tokens=1.5')).toEqual({ error: '--budget tokens=1.5: tokens must be a whole number above 0' });
    expect(parseBudgetFlag('dollars=0')).toHaveProperty('error');
  });
});
