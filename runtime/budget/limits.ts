// Budget limits as the runtime uses them: the config's `budget` blocks, raised by `resume --budget`
// (stored as `budget.raised` events, so a later resume keeps the raise), and how they read in
// messages, `plan` and `runs`.

import type { Budget, Mission } from '../../config/graph.js';
import { groupDigits } from '../../core/digits.js';

export { BUDGET_KINDS, MISSION_SCOPE, type BudgetKind, type BudgetScope, type Limits } from '../kernel/budgetTerms.js';
import { BUDGET_KINDS, MISSION_SCOPE, type BudgetKind, type BudgetScope, type Limits } from '../kernel/budgetTerms.js';

export function limitsOf(budget: Budget | undefined): Limits | undefined {
  if (budget === undefined) return undefined;
  const out: Limits = {};
  if (budget.tokens !== undefined) out.tokens = budget.tokens;
  if (budget.dollars !== undefined) out.dollars = budget.dollars;
  if (budget.durationMs !== undefined) out.duration = budget.durationMs;
  return out;
}

/** Every budget of the mission, by scope, the raises applied in order (later wins). */
export function missionLimits(mission: Mission, raises: readonly Record<BudgetScope, Limits>[]): Map<BudgetScope, Limits> {
  const out = new Map<BudgetScope, Limits>();
  const own = limitsOf(mission.budget);
  if (own) out.set(MISSION_SCOPE, own);
  for (const task of mission.tasks) {
    const limits = limitsOf(task.budget);
    if (limits) out.set(task.name, limits);
  }
  for (const raise of raises) {
    for (const [scope, limits] of Object.entries(raise)) out.set(scope, { ...out.get(scope), ...limits });
  }
  return out;
}

/** `$0.42 of $1.00`, `12,345 of 50,000 tokens`, `3m 20s of 45m`. */
export function describeAmount(kind: BudgetKind, value: number): string {
  if (kind === 'dollars') return `$${value < 10 ? value.toFixed(4) : value.toFixed(2)}`;
  if (kind === 'tokens') return `${groupDigits(Math.round(value))} tokens`;
  return describeDuration(value);
}

export function describeDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 === 0 ? `${m}m` : `${m}m ${s % 60}s`;
  const h = Math.floor(m / 60);
  return m % 60 === 0 ? `${h}h` : `${h}h ${m % 60}m`;
}

/** `$5 · 200,000 tokens · 45m` */
export function describeLimits(limits: Limits): string {
  return BUDGET_KINDS.flatMap((k) => (limits[k] === undefined ? [] : [k === 'dollars' ? `$${limits[k]}` : describeAmount(k, limits[k]!)])).join(' · ');
}

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * One `--budget` value: `dollars=5`, `tokens=200000`, `duration=45m` for the mission's budget, or
 * `<task>.dollars=5` for a task's. An error message when it is not one of these.
 */
export function parseBudgetFlag(text: string): { scope: BudgetScope; kind: BudgetKind; value: number } | { error: string } {
  const match = /^(?:([a-z_][a-z0-9_]*)\.)?(tokens|dollars|duration)=(.+)$/.exec(text.trim());
  if (!match) return { error: `--budget ${JSON.stringify(text)}: expected dollars=N, tokens=N or duration=45m (optionally <task>.dollars=N)` };
  const scope = match[1] ?? MISSION_SCOPE;
  const kind = match[2] as BudgetKind;
  const raw = match[3]!;
  let value: number;
  if (kind === 'duration') {
    const d = DURATION.exec(raw);
    value = d ? Number(d[1]) * UNIT_MS[d[2]!]! : NaN;
  } else {
    value = Number(raw);
  }
  if (!Number.isFinite(value) || value <= 0 || (kind === 'tokens' && !Number.isInteger(value))) {
    return { error: `--budget ${text}: ${kind} must be ${kind === 'tokens' ? 'a whole number' : kind === 'duration' ? 'a duration like "45m"' : 'a number'} above 0` };
  }
  return { scope, kind, value };
}
