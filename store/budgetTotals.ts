// What both backends' budgets repositories share: which reservations are live (their holder still
// holds the run's lease, or their unit of work), the one statement that reads a run's spend and live
// reservations (one pass over its turns, grouped by task label; one snapshot on PostgreSQL), and how
// its rows add up per budget scope.

import { parseRow, RawBudgetTotals } from './rowSchemas.js';
import type { ScopeTotals } from './repos/budgets.js';
import { MISSION_BUDGET_SCOPE } from './repos/budgets.js';
import { taskOfLabel } from '../core/sessionLabels.js';
import { sqlType } from './sql/dialect.js';
import { sql } from './sql/statement.js';

/** SQL condition on `r` (a budget_reservations row): its holder still holds what it reserved under. */
export const LIVE_RESERVATION = `((r.unit_id IS NULL AND EXISTS (SELECT 1 FROM leases l WHERE l.run_id = r.run_id AND l.owner = r.owner))
  OR EXISTS (SELECT 1 FROM work_units u WHERE u.id = r.unit_id AND u.owner = r.owner AND u.state IN ('claimed', 'cancelling')))`;

/** The run's spend by task label (`spent` rows) and its live reservations by scope (`held` rows); `$1` is the run id. */
export const TOTALS = sql<[runId: string]>((d) => {
  const int = sqlType(d, 'bigint');
  const real = sqlType(d, 'double');
  const run = '$1';
  return `SELECT 'spent' AS kind, task_name AS name, CAST(SUM(input_tokens + output_tokens + cache_read_tokens + cache_write_tokens) AS ${int}) AS tokens,
      CAST(SUM(cost_usd) AS ${real}) AS dollars, 0 AS calls
    FROM model_turns WHERE run_id = ${run} AND NOT inherited GROUP BY task_name
    UNION ALL
    SELECT 'held', r.scope, CAST(SUM(r.tokens) AS ${int}), CAST(SUM(r.dollars) AS ${real}), COUNT(*)
    FROM budget_reservations r WHERE r.run_id = ${run} AND ${LIVE_RESERVATION} GROUP BY r.scope`;
});

/** The rows of TOTALS added up for each of `scopes` (`mission`: every turn of the run). */
export function scopeTotals(rows: readonly unknown[], scopes: readonly string[]): Map<string, ScopeTotals> {
  const out = new Map<string, ScopeTotals>(scopes.map((s) => [s, { settled: { tokens: 0, dollars: 0 }, reserved: { tokens: 0, dollars: 0 }, inFlight: 0 }]));
  for (const row of rows) {
    const r = parseRow(RawBudgetTotals, 'budget_reservations', row);
    if (r.kind === 'held') {
      const t = out.get(r.name);
      if (!t) continue;
      t.reserved = { tokens: r.tokens, dollars: r.dollars };
      t.inFlight = r.calls;
      continue;
    }
    for (const scope of [MISSION_BUDGET_SCOPE, taskOfLabel(r.name)]) {
      const t = out.get(scope);
      if (!t) continue;
      t.settled = { tokens: t.settled.tokens + r.tokens, dollars: t.settled.dollars + r.dollars };
    }
  }
  return out;
}
