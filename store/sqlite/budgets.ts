// Budget totals on SQLite: settled spend summed from the run's model turns, reservations in
// budget_reservations. A reservation is read, decided and stored in one IMMEDIATE transaction (the
// database has one writer), so it can never pass a limit that another reservation already holds.

import { LIVE_RESERVATION, scopeTotals, totalsSql } from '../budgetTotals.js';
import { newId } from '../ids.js';
import type { BudgetsRepo } from '../repos/budgets.js';
import type { RepoContext } from './context.js';

export function createBudgetsRepo({ db, now }: RepoContext): BudgetsRepo {
  const totals = db.prepare(totalsSql('?', 'INTEGER', 'REAL'));
  const dropDead = db.prepare(`DELETE FROM budget_reservations AS r WHERE r.run_id = ? AND NOT ${LIVE_RESERVATION}`);
  const insert = db.prepare('INSERT INTO budget_reservations (id, run_id, scope, tokens, dollars, unit_id, owner, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const drop = db.prepare('DELETE FROM budget_reservations WHERE id = ?');
  const read = (runId: string, scopes: readonly string[]) => scopeTotals(totals.all(runId, runId), scopes);

  return {
    async reserve(req) {
      const reserve = db.transaction(() => {
        dropDead.run(req.runId);
        const refusal = req.decide(read(req.runId, req.scopes));
        if (refusal !== undefined) return { ok: false as const, refusal };
        const id = newId('rsv');
        const at = now();
        for (const scope of req.scopes) insert.run(id, req.runId, scope, Math.ceil(req.amount.tokens), req.amount.dollars, req.holder.unitId ?? null, req.holder.owner, at);
        return { ok: true as const, id };
      });
      return reserve.immediate();
    },
    async drop(id) {
      drop.run(id);
    },
    async totals(runId, scopes) {
      return read(runId, scopes);
    },
  };
}
