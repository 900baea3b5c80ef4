-- 0013_budget_reservations: the twin of migrations/sqlite/0013_budget_reservations.sql. What each
-- model call in flight holds against a run's budgets, one row per call and budget scope, so every
-- runner of a run reserves against the same totals: a reservation is made under a lock on the run's
-- row (SELECT … FOR UPDATE), counts while its holder holds the run's lease (unit_id NULL) or its
-- unit of work, and is deleted in the transaction that stores the call's turn.
-- Append-only like 0001: never edit this file once released.

CREATE TABLE budget_reservations (
  id         text NOT NULL,
  run_id     text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  scope      text NOT NULL,
  tokens     bigint NOT NULL,
  dollars    double precision NOT NULL,
  unit_id    text,
  owner      text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (id, scope)
);

CREATE INDEX budget_reservations_by_run ON budget_reservations (run_id, scope);
