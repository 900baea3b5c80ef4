-- 0021_run_lineage: a forked run names its parent and its fork point (the task, the turn, what
-- changed), and the model turns it copied from the parent are marked inherited so its budgets count
-- only its own spending. Append-only: never edit this file once released.

ALTER TABLE runs ADD COLUMN parent_run_id TEXT;
ALTER TABLE runs ADD COLUMN fork_json TEXT;
ALTER TABLE model_turns ADD COLUMN inherited INTEGER NOT NULL DEFAULT 0 CHECK (inherited IN (0, 1));
CREATE INDEX runs_by_parent ON runs (parent_run_id);
