// A run's budget state read back from the store, so a resumed run (after `kill -9` too) continues
// the same totals: settled spend from the stored model turns (each stored in its turn's transaction),
// raised limits and given warnings from the stored `budget.*` events, and time from the event log:
// each process's span runs from its `run.started` to its last stored event, a task's from its
// `task.started` to its end (or that process's last event).

import type { Mission } from '../../config/graph.js';
import type { Store } from '../../store/index.js';
import { totalTokens } from '../kernel/usage.js';
import type { Spend } from './estimate.js';
import type { BudgetState } from './ledger.js';
import { taskOfLabel } from '../../core/sessionLabels.js';
import { missionLimits, MISSION_SCOPE, type BudgetScope, type Limits } from './limits.js';

/** `resumed`: false for a new run, which has nothing stored yet (nothing is read). */
export async function restoreBudget(store: Store, runId: string, mission: Mission, raise: Record<BudgetScope, Limits> | undefined, resumed = true): Promise<BudgetState> {
  const events = resumed ? await store.events.list(runId) : [];
  const raises: Record<BudgetScope, Limits>[] = [];
  const warned = new Set<string>();
  for (const e of events) {
    const data = e.data as { limits?: Record<BudgetScope, Limits>; scope?: string; kind?: string } | null;
    if (e.type === 'budget.raised' && data?.limits) raises.push(data.limits);
    if (e.type === 'budget.warning' && data?.scope && data.kind) warned.add(`${data.scope}:${data.kind}`);
  }
  if (raise) raises.push(raise);
  const limits = missionLimits(mission, raises);
  const state: BudgetState = { limits, settled: new Map(), elapsedBefore: new Map(), warned };
  if (limits.size === 0 || !resumed) return state;

  const run = await store.turns.totalsForRun(runId);
  state.settled.set(MISSION_SCOPE, { tokens: totalTokens(run), dollars: run.costUsd });
  const bySession = await store.turns.totalsBySession(runId);
  if (bySession.size > 0) {
    for (const session of await store.sessions.listForRun(runId)) {
      const t = bySession.get(session.id);
      if (!t) continue;
      const task = taskOfLabel(session.task);
      const cur = state.settled.get(task) ?? { tokens: 0, dollars: 0 };
      state.settled.set(task, { tokens: cur.tokens + totalTokens(t), dollars: cur.dollars + t.costUsd } satisfies Spend);
    }
  }
  state.elapsedBefore = elapsedFromEvents(events.map((e) => ({ type: e.type, task: e.task, at: Date.parse(e.createdAt) })));
  return state;
}

const TASK_ENDS = new Set(['task.completed', 'task.failed', 'task.cancelled', 'task.skipped']);

/** Milliseconds the mission and each task ran in earlier processes, from the event log's times. */
export function elapsedFromEvents(events: readonly { type: string; task?: string | undefined; at: number }[]): Map<BudgetScope, number> {
  const out = new Map<BudgetScope, number>();
  const addTo = (scope: BudgetScope, ms: number) => out.set(scope, (out.get(scope) ?? 0) + Math.max(0, ms));
  let spanStart: number | undefined;
  let last = 0;
  const open = new Map<string, number>();
  const closeSpan = () => {
    if (spanStart === undefined) return;
    addTo(MISSION_SCOPE, last - spanStart);
    for (const [task, from] of open) addTo(task, last - from);
    open.clear();
  };
  for (const e of events) {
    if (e.type === 'run.started') {
      closeSpan();
      spanStart = e.at;
    }
    last = e.at;
    if (e.task === undefined) continue;
    const task = taskOfLabel(e.task);
    if (e.type === 'task.started' && !open.has(task)) open.set(task, e.at);
    else if (TASK_ENDS.has(e.type) && open.has(task)) {
      addTo(task, e.at - open.get(task)!);
      open.delete(task);
    }
  }
  closeSpan();
  return out;
}
