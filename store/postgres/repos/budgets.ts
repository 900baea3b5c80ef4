// Budget totals on PostgreSQL, shared by every runner of a run: a reservation locks the run's row
// (SELECT … FOR NO KEY UPDATE), so reservations of one run are made one at a time across processes.
// Not FOR UPDATE: that conflicts with the key-share lock every insert of a row referencing the run
// takes (a turn, an event), and a transaction that inserted such a row and then updates the run's row
// deadlocks with a reservation queued for FOR UPDATE (seen with a run and two workers). It then
// reads the run's spend (its model turns, by task) and live reservations in one statement (one
// snapshot: a turn stored with its reservation's deletion is seen either whole or not at all),
// and stores the reservation if `decide` agrees. Reservations whose holder is gone are deleted first.

import { LIVE_RESERVATION, scopeTotals, totalsSql } from '../../budgetTotals.js';
import { newId } from '../../ids.js';
import type { BudgetsRepo } from '../../repos/budgets.js';
import type { PgRepoContext, Sql } from '../context.js';

const TOTALS = totalsSql('$1', 'bigint', 'double precision');

export function createBudgetsRepo({ sql, atomic, now }: PgRepoContext): BudgetsRepo {
  const read = async (on: Sql, runId: string, scopes: readonly string[]) => scopeTotals((await on.query(TOTALS, [runId])).rows, scopes);
  return {
    reserve(req) {
      return atomic(async (tx) => {
        await tx.query('SELECT id FROM runs WHERE id = $1 FOR NO KEY UPDATE', [req.runId]);
        await tx.query(`DELETE FROM budget_reservations r WHERE r.run_id = $1 AND NOT ${LIVE_RESERVATION}`, [req.runId]);
        const refusal = req.decide(await read(tx, req.runId, req.scopes));
        if (refusal !== undefined) return { ok: false as const, refusal };
        const id = newId('rsv');
        const at = now();
        for (const scope of req.scopes) {
          await tx.query('INSERT INTO budget_reservations (id, run_id, scope, tokens, dollars, unit_id, owner, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
            id,
            req.runId,
            scope,
            Math.ceil(req.amount.tokens),
            req.amount.dollars,
            req.holder.unitId ?? null,
            req.holder.owner,
            at,
          ]);
        }
        return { ok: true as const, id };
      });
    },
    async drop(id) {
      await sql.query('DELETE FROM budget_reservations WHERE id = $1', [id]);
    },
    totals(runId, scopes) {
      return read(sql, runId, scopes);
    },
  };
}
