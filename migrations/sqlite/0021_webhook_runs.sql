-- 0022_webhook_runs: a webhook delivery accepted but whose run may not be stored yet. `squadron serve`
-- writes this row (with the run id it answered 202 with) before it answers, then starts the run with
-- that id and deletes the row. A row left by a crash is started by the next server; the run id being
-- the runs table's primary key makes a second start impossible.
-- Append-only like 0001: never edit this file once released.

CREATE TABLE webhook_runs (
  run_id       TEXT PRIMARY KEY,
  trigger_path TEXT NOT NULL,
  mission      TEXT NOT NULL,
  inputs_json  TEXT NOT NULL,
  created_at   TEXT NOT NULL
);

-- Cancel requests: `POST /v1/runs/{id}/cancel` (or any process) asks the run to stop; whichever
-- process drives it reads this at its next lease heartbeat and stops the run as Ctrl-C does.
CREATE TABLE run_cancels (
  run_id       TEXT PRIMARY KEY,
  requested_by TEXT NOT NULL,
  requested_at TEXT NOT NULL
);
