-- 0023_webhook_deliveries: the twin of migrations/sqlite/0023_webhook_deliveries.sql: webhook
-- Idempotency-Keys (with the run each started) and accepted signatures, shared by every server.
-- Append-only like 0001: never edit this file once released.

CREATE TABLE webhook_deliveries (
  trigger_path text NOT NULL,
  kind         text NOT NULL CHECK (kind IN ('key', 'signature')),
  value        text NOT NULL,
  run_id       text,
  created_at   text NOT NULL,
  PRIMARY KEY (trigger_path, kind, value)
);
