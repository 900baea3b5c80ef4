-- 0022_webhook_log: what became of each authenticated webhook delivery, for the console's triggers
-- page: accepted (with the run id it answered), duplicate (an Idempotency-Key seen before: the run it
-- started), replayed (a signature used before), refused (inputs or body refused, or the run's start
-- refused after the 202). Unauthenticated requests are not written (anyone may send those). Never a
-- signature, a key or a secret: the path, the mission, the outcome, the run id and the reason.
-- Append-only like 0001: never edit this file once released.

CREATE TABLE webhook_log (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  trigger_path TEXT NOT NULL,
  mission      TEXT NOT NULL,
  outcome      TEXT NOT NULL CHECK (outcome IN ('accepted', 'duplicate', 'replayed', 'refused')),
  run_id       TEXT,
  reason       TEXT,
  created_at   TEXT NOT NULL
);

CREATE INDEX webhook_log_by_path ON webhook_log (trigger_path, id);
