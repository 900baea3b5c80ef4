-- 0012_run_budgets: the run's budget limits (by scope) and the time each scope has run, recorded by
-- the runner that executes it, so `squadron runs` reads a run's budget from its row instead of
-- scanning its events. NULL for runs stored before: their budget is still found in their events.
-- Append-only like 0001: never edit this file once released.

ALTER TABLE runs ADD COLUMN budget_json TEXT;
