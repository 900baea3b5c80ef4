-- 0008_task_items: the items of an iterated task as units of work, one row per (run, task, index):
-- its status, attempt (1, plus one per retry from a fresh session), the commander's summary and
-- output, or its error. A resumed run reads them to re-run no completed item.
-- Append-only like 0001: never edit this file once released.

CREATE TABLE task_items (
  run_id      TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  task        TEXT NOT NULL,
  idx         INTEGER NOT NULL CHECK (idx >= 0),
  status      TEXT NOT NULL DEFAULT 'pending'
              CHECK (status IN ('pending', 'running', 'completed', 'failed', 'cancelled')),
  attempt     INTEGER NOT NULL DEFAULT 1,
  started_at  TEXT,
  finished_at TEXT,
  summary     TEXT,
  output_json TEXT,
  error       TEXT,
  PRIMARY KEY (run_id, task, idx)
) STRICT;
