-- 0023_serve_state: what `squadron serve` shares through the database: webhook deliveries seen
-- (so that a redelivery with the same Idempotency-Key answers the run it already started and a signature seen
-- before is refused as a replay, on every server of the database), schedule fires and pauses. kind is 'key' (an
-- Idempotency-Key) or 'signature' (the hex HMAC of an accepted request); run_id is set once the
-- delivery's run is stored.
-- Append-only like 0001: never edit this file once released.

CREATE TABLE webhook_deliveries (
  trigger_path TEXT NOT NULL,
  kind         TEXT NOT NULL CHECK (kind IN ('key', 'signature')),
  value        TEXT NOT NULL,
  run_id       TEXT,
  created_at   TEXT NOT NULL,
  PRIMARY KEY (trigger_path, kind, value)
);

-- Schedule fires: one row per schedule (<mission>.<index>) and fire time, claimed by the first
-- server to fire it, so several servers on one database start one run per fire.
CREATE TABLE schedule_fires (
  schedule_id  TEXT NOT NULL,
  fire_at      TEXT NOT NULL,
  run_id       TEXT,
  created_at   TEXT NOT NULL,
  PRIMARY KEY (schedule_id, fire_at)
);

-- Paused schedules (by the API, or by pause_on_failure), with why.
CREATE TABLE schedule_pauses (
  schedule_id  TEXT PRIMARY KEY,
  reason       TEXT NOT NULL,
  created_at   TEXT NOT NULL
);
