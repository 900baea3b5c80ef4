-- 0023_webhook_deliveries: what `squadron serve` remembers of webhook deliveries, so that a
-- redelivery with the same Idempotency-Key answers the run it already started and a signature seen
-- before is refused as a replay, on every server of the database. kind is 'key' (an
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
