-- 0008_task_items: the twin of migrations/sqlite/0008_task_items.sql: the items of an iterated task
-- as units of work, one row per (run, task, index) with its status, attempt, summary, output or error.
-- Append-only like 0001: never edit this file once released.

CREATE TABLE task_items (
  run_id      text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  task        text NOT NULL,
  idx         bigint NOT NULL CHECK (idx >= 0),
  status      text NOT NULL DEFAULT 'pending'
              CHECK (status IN ('pending', 'running', 'completed', 'failed', 'cancelled')),
  attempt     integer NOT NULL DEFAULT 1,
  started_at  timestamptz,
  finished_at timestamptz,
  summary     text,
  output_json json,
  error       text,
  PRIMARY KEY (run_id, task, idx)
);
