// A stored run's budgets for `runs` and `inspect`: the limits its latest process ran with (the
// `budget.limits` event), what each budget spent (the stored turns; time from the event log), and
// the budget and loop-guard events, which say why a run stopped or an agent was cut short.

import type { EventRow, Store, UsageTotals } from '../../store/index.js';
import { totalTokens } from '../kernel/usage.js';
import { BUDGET_KINDS, describeAmount, MISSION_SCOPE, type BudgetKind, type BudgetScope, type Limits } from './limits.js';
import { elapsedFromEvents } from './restore.js';

export interface StoredBudget {
  scope: BudgetScope;
  limits: Limits;
  spent: Partial<Record<BudgetKind, number>>;
}

export interface ControlEvent {
  type: string;
  task?: string;
  message: string;
  at: string;
}

const CONTROL_EVENTS = new Set(['budget.warning', 'budget.exceeded', 'budget.raised', 'loop.detected']);

export interface StoredControl {
  budgets: StoredBudget[];
  events: ControlEvent[];
}

/** `usageOf(scope)`: the settled totals of the mission (`mission`) or of one task, as the caller summed them. */
export async function storedControl(store: Store, runId: string, usageOf: (scope: BudgetScope) => UsageTotals | undefined): Promise<StoredControl> {
  const events = await store.events.list(runId);
  const latest = [...events].reverse().find((e) => e.type === 'budget.limits');
  const limits = (latest?.data as { limits?: Record<BudgetScope, Limits> } | null)?.limits ?? {};
  const elapsed = Object.keys(limits).length > 0 ? elapsedFromEvents(events.map((e) => ({ type: e.type, task: e.task, at: Date.parse(e.createdAt) }))) : new Map<string, number>();
  const budgets = Object.entries(limits).map(([scope, l]) => {
    const usage = usageOf(scope);
    return { scope, limits: l, spent: { tokens: usage ? totalTokens(usage) : 0, dollars: usage?.costUsd ?? 0, duration: elapsed.get(scope) ?? 0 } };
  });
  return { budgets, events: events.filter((e) => CONTROL_EVENTS.has(e.type)).map(controlEvent) };
}

function controlEvent(e: EventRow): ControlEvent {
  const data = e.data as { message?: unknown; limits?: Record<string, Limits> } | null;
  let message = typeof data?.message === 'string' ? data.message : e.type;
  if (e.type === 'budget.raised' && data?.limits) {
    message = `resumed with raised limits: ${Object.entries(data.limits).map(([scope, l]) => `${scope} ${describeLimitsShort(l)}`).join('; ')}`;
  }
  return { type: e.type, ...(e.task !== undefined ? { task: e.task } : {}), message, at: e.createdAt };
}

function describeLimitsShort(l: Limits): string {
  return BUDGET_KINDS.flatMap((k) => (l[k] === undefined ? [] : [`${k} ${k === 'dollars' ? `$${l[k]}` : describeAmount(k, l[k]!)}`])).join(', ');
}

/** `$0.8100 of $1 · 1,200 tokens of 5,000 tokens` */
export function spendText(b: StoredBudget): string {
  return BUDGET_KINDS.flatMap((kind) => {
    const limit = b.limits[kind];
    return limit === undefined ? [] : [`${describeAmount(kind, b.spent[kind] ?? 0)} of ${kind === 'dollars' ? `$${limit}` : describeAmount(kind, limit)}`];
  }).join(' · ');
}

export { MISSION_SCOPE };
