-- 0010_work_units: the twin of migrations/sqlite/0010_work_units.sql: the queue many runners take
-- work from (squadron docs scale-out). One row per unit of work: coordinating a run (kind 'run', task
-- '') or executing one attempt of one task (kind 'task'). A runner claims a queued unit with
-- SELECT … FOR UPDATE SKIP LOCKED, holds it by a heartbeat, and a unit whose holder is gone is
-- claimed again. Append-only like 0001: never edit this file once released.

CREATE TABLE work_units (
  id           text PRIMARY KEY,
  run_id       text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  kind         text NOT NULL CHECK (kind IN ('run', 'task')),
  task         text NOT NULL,
  attempt      bigint NOT NULL,
  state        text NOT NULL CHECK (state IN ('queued', 'claimed', 'cancelling', 'done', 'cancelled')),
  outcome_json json,
  owner        text,
  pid          bigint,
  host         text,
  claims       bigint NOT NULL DEFAULT 0,
  enqueued_at  timestamptz NOT NULL,
  claimed_at   timestamptz,
  heartbeat_at timestamptz,
  finished_at  timestamptz,
  UNIQUE (run_id, kind, task, attempt)
);

CREATE INDEX work_units_by_state ON work_units (state, enqueued_at);
