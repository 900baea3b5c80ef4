-- 0021_run_lineage: the twin of migrations/sqlite/0021_run_lineage.sql. A forked run names its parent
-- and its fork point (the task, the turn, what changed); the model turns it copied from the parent are
-- marked inherited so its budgets count only its own spending. Append-only: never edit once released.

ALTER TABLE runs ADD COLUMN parent_run_id text;
ALTER TABLE runs ADD COLUMN fork_json json;
ALTER TABLE model_turns ADD COLUMN inherited boolean NOT NULL DEFAULT false;
CREATE INDEX runs_by_parent ON runs (parent_run_id);
