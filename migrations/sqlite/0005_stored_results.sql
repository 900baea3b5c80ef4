-- 0005_stored_results: tool results too large for a model's context, stored whole and read by handle
-- (docs/concepts/context.md). A handle is content-addressed: `res_` and the first 16 hex digits of the
-- SHA-256 of the redacted payload, so the same payload gets the same handle, on resume too.
-- One row per session that may read a handle; the run's first row for a handle holds the payload,
-- later rows (the same payload again, a handle passed up to a commander) hold NULL and read it there.
-- Append-only like 0001: never edit this file once released.

CREATE TABLE stored_results (
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  handle     TEXT NOT NULL,
  run_id     TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  bytes      INTEGER NOT NULL,
  payload    TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (session_id, handle)
) STRICT;

CREATE INDEX stored_results_by_run ON stored_results (run_id, handle);
