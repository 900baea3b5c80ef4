// Budget totals many runners share: what a run's model calls have spent (its stored model turns) and
// what the calls in flight hold reserved, per budget scope (`mission`, or a task's name covering its
// iterations `t[3]` and attempts `t#2`). A reservation is checked and stored atomically (under a lock
// on the run on PostgreSQL; SQLite has one writer), so two runners never both reserve past a limit.

export interface BudgetAmount {
  tokens: number;
  dollars: number;
}

/**
 * Who holds a reservation: the run's lease owner (no unit), or the runner holding a unit of work. A
 * reservation stops counting once its holder no longer holds the lease or the unit (it died and was
 * taken over, or the unit ended), so a crash between reserving and settling leaks nothing.
 */
export interface BudgetHolder {
  owner: string;
  unitId?: string;
}

export interface ScopeTotals {
  /** The stored model turns' spend. */
  settled: BudgetAmount;
  /** What live reservations hold. */
  reserved: BudgetAmount;
  /** How many live reservations (calls in flight) there are. */
  inFlight: number;
}

export interface BudgetReserveRequest<R> {
  runId: string;
  scopes: readonly string[];
  amount: BudgetAmount;
  holder: BudgetHolder;
  /** Given each scope's totals as read under the lock: undefined to reserve, or a refusal (returned as is). */
  decide: (totals: ReadonlyMap<string, ScopeTotals>) => R | undefined;
}

export interface BudgetsRepo {
  /** Reads the scopes' totals, asks `decide`, and stores the reservation when it agrees: all in one transaction. */
  reserve<R>(req: BudgetReserveRequest<R>): Promise<{ ok: true; id: string } | { ok: false; refusal: R }>;
  /**
   * Deletes a reservation. Called on the transaction that stores the call's turn (the turn's row is
   * then the spend: settled and reserved change together), or on its own when the call is not made.
   */
  drop(id: string): Promise<void>;
  /** Each scope's totals now. */
  totals(runId: string, scopes: readonly string[]): Promise<Map<string, ScopeTotals>>;
}

/** The scope covering every model call of a run. */
export const MISSION_BUDGET_SCOPE = 'mission';
