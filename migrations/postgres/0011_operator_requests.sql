-- 0011_operator_requests: the twin of migrations/sqlite/0011_operator_requests.sql. A tool call that
-- needs approval is stored in the ledger as `pending_approval`; what the run asks its operator
-- (approvals, questions) waits in operator_requests until a decision is recorded: who, when, why.
-- Append-only like 0001.

ALTER TABLE tool_calls DROP CONSTRAINT tool_calls_status_check;
ALTER TABLE tool_calls ADD CONSTRAINT tool_calls_status_check
  CHECK (status IN ('pending_approval', 'started', 'completed'));

CREATE TABLE operator_requests (
  id          text PRIMARY KEY,
  run_id      text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  task        text NOT NULL,
  item        bigint,
  agent       text NOT NULL,
  session_id  text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  call_id     text NOT NULL,
  seq         bigint NOT NULL DEFAULT 0,
  kind        text NOT NULL CHECK (kind IN ('approval', 'question')),
  tool_ref    text NOT NULL,
  payload_json json NOT NULL,
  status      text NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'answered', 'declined')),
  answer_json json,
  reason      text,
  decided_by  text,
  decided_at  timestamptz,
  created_at  timestamptz NOT NULL,
  UNIQUE (session_id, call_id, kind, seq),
  CHECK ((status = 'pending') = (decided_at IS NULL))
);
CREATE INDEX operator_requests_by_run ON operator_requests (run_id, status);
