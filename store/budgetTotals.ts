// What both backends' budgets repositories share: which reservations are live (their holder still
// holds the run's lease, or their unit of work), and how one row of scope totals reads back.

import { parseRow, RawScopeTotals } from './rowSchemas.js';
import type { ScopeTotals } from './repos/budgets.js';

/** SQL condition on `r` (a budget_reservations row): its holder still holds what it reserved under. */
export const LIVE_RESERVATION = `((r.unit_id IS NULL AND EXISTS (SELECT 1 FROM leases l WHERE l.run_id = r.run_id AND l.owner = r.owner))
  OR EXISTS (SELECT 1 FROM work_units u WHERE u.id = r.unit_id AND u.owner = r.owner AND u.state IN ('claimed', 'cancelling')))`;

/** Rows of (scope, tokens, dollars, reserved_tokens, reserved_dollars, in_flight) as a map by scope. */
export function scopeTotals(rows: readonly unknown[]): Map<string, ScopeTotals> {
  const out = new Map<string, ScopeTotals>();
  for (const row of rows) {
    const r = parseRow(RawScopeTotals, 'budget_reservations', row);
    out.set(r.scope, { settled: { tokens: r.tokens, dollars: r.dollars }, reserved: { tokens: r.reserved_tokens, dollars: r.reserved_dollars }, inFlight: r.in_flight });
  }
  return out;
}
