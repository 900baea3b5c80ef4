// Where a ledger's totals live: the port it reserves through. `storedTotals` keeps them in the
// database (budget_reservations and the run's model turns), so every runner of a run — the
// coordinator and any `squadron worker` — reserves against the same figures; `memoryTotals` keeps
// them in this process (a ledger built without a store, as the ledger's own tests do).

import type { BudgetHolder, ScopeTotals, Store } from '../../store/index.js';
import type { BudgetScope } from './limits.js';
import type { Spend } from './estimate.js';

export type { BudgetHolder, ScopeTotals } from '../../store/index.js';

export interface BudgetTotals {
  /** Atomically: reads the scopes' totals, asks `decide`, and holds `bound` on them when it returns undefined. */
  reserve<R>(scopes: readonly BudgetScope[], bound: Spend, holder: BudgetHolder | undefined, decide: (totals: ReadonlyMap<BudgetScope, ScopeTotals>) => R | undefined): Promise<{ ok: true; id: string } | { ok: false; refusal: R }>;
  /** In the transaction that stores the call's turn: from then on the turn is the spend. */
  settleIn(id: string, tx: Store): Promise<void>;
  /** After that transaction committed, with the call's real figures. */
  settled(id: string, actual: Spend): void;
  /** The call was not made (or failed before it was billed). */
  release(id: string): Promise<void>;
  totals(scopes: readonly BudgetScope[]): Promise<Map<BudgetScope, ScopeTotals>>;
}

const ZERO: Spend = { tokens: 0, dollars: 0 };

/** The run's totals in its database, shared by every runner. */
export function storedTotals(store: Store, runId: string): BudgetTotals {
  return {
    async reserve(scopes, bound, holder, decide) {
      if (holder === undefined) throw new Error('a budget reservation needs a holder (the run lease or a unit of work)');
      return store.budgets.reserve({ runId, scopes, amount: bound, holder, decide });
    },
    settleIn: (id, tx) => tx.budgets.drop(id),
    settled: () => undefined,
    release: (id) => store.budgets.drop(id),
    totals: (scopes) => store.budgets.totals(runId, scopes),
  };
}

/** Totals in this process only: `settled` is updated in place. */
export function memoryTotals(settled: Map<BudgetScope, Spend>): BudgetTotals {
  const held = new Map<string, { scopes: readonly BudgetScope[]; bound: Spend }>();
  let next = 0;
  const totals = (scopes: readonly BudgetScope[]): Map<BudgetScope, ScopeTotals> => {
    const out = new Map<BudgetScope, ScopeTotals>();
    for (const scope of scopes) {
      const reserved = { ...ZERO };
      let inFlight = 0;
      for (const r of held.values()) {
        if (!r.scopes.includes(scope)) continue;
        reserved.tokens += r.bound.tokens;
        reserved.dollars += r.bound.dollars;
        inFlight += 1;
      }
      out.set(scope, { settled: { ...(settled.get(scope) ?? ZERO) }, reserved, inFlight });
    }
    return out;
  };
  return {
    async reserve(scopes, bound, _holder, decide) {
      const refusal = decide(totals(scopes));
      if (refusal !== undefined) return { ok: false, refusal };
      const id = `mem_${++next}`;
      held.set(id, { scopes, bound });
      return { ok: true, id };
    },
    settleIn: async () => undefined,
    settled(id, actual) {
      const r = held.get(id);
      if (!r) return;
      held.delete(id);
      for (const scope of r.scopes) {
        const cur = settled.get(scope) ?? ZERO;
        settled.set(scope, { tokens: cur.tokens + actual.tokens, dollars: cur.dollars + actual.dollars });
      }
    },
    async release(id) {
      held.delete(id);
    },
    totals: async (scopes) => totals(scopes),
  };
}
