-- 0022_webhook_runs: the twin of migrations/sqlite/0022_webhook_runs.sql: webhook deliveries accepted
-- (202 answered with run_id) whose run may not be stored yet; a crash leaves the row for the next server.
-- Append-only like 0001: never edit this file once released.

CREATE TABLE webhook_runs (
  run_id       text PRIMARY KEY,
  trigger_path text NOT NULL,
  mission      text NOT NULL,
  inputs_json  json NOT NULL,
  created_at   timestamptz NOT NULL
);

-- Cancel requests: `POST /v1/runs/{id}/cancel` (or any process) asks the run to stop; whichever
-- process drives it reads this at its next lease heartbeat and stops the run as Ctrl-C does.
CREATE TABLE run_cancels (
  run_id       text PRIMARY KEY,
  requested_by text NOT NULL,
  requested_at timestamptz NOT NULL
);
