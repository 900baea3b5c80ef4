// Budget totals, shared by every runner of a run: settled spend summed from the run's model turns,
// reservations in budget_reservations. A reservation is read, decided and stored in one transaction
// that reservations of the same run cannot interleave with: on SQLite its BEGIN IMMEDIATE (the
// database has one writer); on PostgreSQL a lock on the run's row (SELECT … FOR NO KEY UPDATE, so
// reservations of one run are made one at a time across processes). Not FOR UPDATE: that conflicts
// with the key-share lock every insert of a row referencing the run takes (a turn, an event), and a
// transaction that inserted such a row and then updates the run's row deadlocks with a reservation
// queued for FOR UPDATE (seen with a run and two workers). It then reads the run's spend (its model
// turns, by task) and live reservations in one statement (one snapshot: a turn stored with its
// reservation's deletion is seen either whole or not at all), and stores the reservation if
// `decide` agrees. Reservations whose holder is gone are deleted first.

import { LIVE_RESERVATION, scopeTotals, TOTALS } from '../budgetTotals.js';
import { newId } from '../ids.js';
import type { BudgetsRepo } from '../repos/budgets.js';
import type { Driver, QueryContext } from '../sql/driver.js';
import { sql } from '../sql/statement.js';

const LOCK_RUN = sql<[runId: string]>('SELECT id FROM runs WHERE id = $1 FOR NO KEY UPDATE');
const DROP_DEAD = sql<[runId: string]>(`DELETE FROM budget_reservations AS r WHERE r.run_id = $1 AND NOT ${LIVE_RESERVATION}`);
const INSERT = sql<[id: string, runId: string, scope: string, tokens: number, dollars: number, unitId: string | null, owner: string, at: string]>(
  'INSERT INTO budget_reservations (id, run_id, scope, tokens, dollars, unit_id, owner, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
);
const DROP = sql<[id: string]>('DELETE FROM budget_reservations WHERE id = $1');

export function createBudgetsRepo({ db, now }: QueryContext): BudgetsRepo {
  db.prepare(TOTALS, DROP_DEAD, INSERT, DROP);
  const read = async (on: Driver, runId: string, scopes: readonly string[]) => scopeTotals(await on.all(TOTALS, [runId]), scopes);

  return {
    reserve(req) {
      return db.atomic((outer) =>
        outer.withLock(LOCK_RUN, [req.runId], async (tx) => {
          await tx.run(DROP_DEAD, [req.runId]);
          const refusal = req.decide(await read(tx, req.runId, req.scopes));
          if (refusal !== undefined) return { ok: false as const, refusal };
          const id = newId('rsv');
          const at = now();
          for (const scope of req.scopes) {
            await tx.run(INSERT, [id, req.runId, scope, Math.ceil(req.amount.tokens), req.amount.dollars, req.holder.unitId ?? null, req.holder.owner, at]);
          }
          return { ok: true as const, id };
        }),
      );
    },
    async drop(id) {
      await db.run(DROP, [id]);
    },
    totals(runId, scopes) {
      return read(db, runId, scopes);
    },
  };
}
