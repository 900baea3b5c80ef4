-- 0005_stored_results: the twin of migrations/sqlite/0005_stored_results.sql: tool results too large
-- for a model's context, stored whole and read by a content-addressed handle. One row per session
-- that may read a handle; the run's first row for a handle holds the payload, later rows hold NULL.
-- Append-only like 0001: never edit this file once released.

CREATE TABLE stored_results (
  session_id text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  handle     text NOT NULL,
  run_id     text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  bytes      bigint NOT NULL,
  payload    text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (session_id, handle)
);

CREATE INDEX stored_results_by_run ON stored_results (run_id, handle);
