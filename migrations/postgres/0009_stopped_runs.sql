-- 0009_stopped_runs: two more run statuses, the twin of migrations/sqlite/0009_stopped_runs.sql.
-- `stopped`: a budget stopped the run before a model call it could not afford; `resume --budget`
-- continues the same sessions. `waiting`: reserved for a run parked on an approval or a question.
-- Append-only like 0001.

ALTER TABLE runs DROP CONSTRAINT runs_status_check;
ALTER TABLE runs ADD CONSTRAINT runs_status_check
  CHECK (status IN ('running', 'completed', 'failed', 'interrupted', 'stopped', 'waiting'));
