-- 0010_work_units: the queue many runners take work from on PostgreSQL (squadron docs scale-out).
-- SQLite runs keep one runner per run and never use it; the table exists so that version N is the
-- same schema on both backends. One row per unit of work: coordinating a run (kind 'run', task '')
-- or executing one attempt of one task (kind 'task').
-- Append-only like 0001: never edit this file once released.

CREATE TABLE work_units (
  id           TEXT PRIMARY KEY,
  run_id       TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  kind         TEXT NOT NULL CHECK (kind IN ('run', 'task')),
  task         TEXT NOT NULL,
  attempt      INTEGER NOT NULL,
  state        TEXT NOT NULL CHECK (state IN ('queued', 'claimed', 'cancelling', 'done', 'cancelled')),
  outcome_json TEXT,
  owner        TEXT,
  pid          INTEGER,
  host         TEXT,
  claims       INTEGER NOT NULL DEFAULT 0,
  enqueued_at  TEXT NOT NULL,
  claimed_at   TEXT,
  heartbeat_at TEXT,
  finished_at  TEXT,
  UNIQUE (run_id, kind, task, attempt)
) STRICT;

CREATE INDEX work_units_by_state ON work_units (state, enqueued_at);
