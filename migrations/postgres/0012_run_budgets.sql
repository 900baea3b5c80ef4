-- 0012_run_budgets: the twin of migrations/sqlite/0012_run_budgets.sql. The run's budget limits (by
-- scope) and the time each scope has run, recorded by the runner that executes it, so `squadron runs`
-- reads a run's budget from its row instead of scanning its events. NULL for runs stored before.
-- Append-only like 0001: never edit this file once released.

ALTER TABLE runs ADD COLUMN budget_json json;
