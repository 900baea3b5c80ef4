-- 0013_budget_reservations: what each model call in flight holds against a run's budgets, one row
-- per call and budget scope ('mission' or a task's name), so that every runner of a run reserves
-- against the same totals (squadron docs budgets). A reservation is held by the run's lease owner
-- (unit_id NULL) or by the runner holding a unit of work; it stops counting once its holder no
-- longer holds the lease or the unit (a runner that died), and is deleted when the call's turn is
-- stored (in the turn's transaction) or the call is not made.
-- Append-only like 0001: never edit this file once released.

CREATE TABLE budget_reservations (
  id         TEXT NOT NULL,
  run_id     TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  scope      TEXT NOT NULL,
  tokens     INTEGER NOT NULL,
  dollars    REAL NOT NULL,
  unit_id    TEXT,
  owner      TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (id, scope)
) STRICT;

CREATE INDEX budget_reservations_by_run ON budget_reservations (run_id, scope);
