-- 0023_serve_state: the twin of migrations/sqlite/0023_serve_state.sql: webhook
-- Idempotency-Keys (with the run each started) and accepted signatures, shared by every server; schedule fires and pauses.
-- Append-only like 0001: never edit this file once released.

CREATE TABLE webhook_deliveries (
  trigger_path text NOT NULL,
  kind         text NOT NULL CHECK (kind IN ('key', 'signature')),
  value        text NOT NULL,
  run_id       text,
  created_at   timestamptz NOT NULL,
  PRIMARY KEY (trigger_path, kind, value)
);

-- Schedule fires: one row per schedule (<mission>.<index>) and fire time, claimed by the first
-- server to fire it, so several servers on one database start one run per fire.
CREATE TABLE schedule_fires (
  schedule_id  text NOT NULL,
  fire_at      timestamptz NOT NULL,
  run_id       text,
  created_at   timestamptz NOT NULL,
  PRIMARY KEY (schedule_id, fire_at)
);

-- Paused schedules (by the API, or by pause_on_failure), with why.
CREATE TABLE schedule_pauses (
  schedule_id  text PRIMARY KEY,
  reason       text NOT NULL,
  created_at   timestamptz NOT NULL
);
