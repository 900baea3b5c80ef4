-- 0011_operator_requests: what a run asks its operator. A tool call that needs approval is stored in
-- the ledger as `pending_approval` (never run before a decision) and a question (builtins.human.ask,
-- an MCP server's elicitation) waits in operator_requests until `approve`, `deny` or `answer`
-- records the decision: who (the OS user), when and why. SQLite cannot change a CHECK in place, so
-- tool_calls is rebuilt as in 0009 (foreign keys off while it is, checked before the commit).
-- Append-only like 0001.
-- squadron: foreign_keys off

CREATE TABLE tool_calls_0011 (
  id          INTEGER PRIMARY KEY,
  session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  call_id     TEXT NOT NULL,
  tool_ref    TEXT NOT NULL,
  api_name    TEXT NOT NULL,
  input_json  TEXT NOT NULL,
  idempotent  INTEGER NOT NULL CHECK (idempotent IN (0, 1)),
  status      TEXT NOT NULL CHECK (status IN ('pending_approval', 'started', 'completed')),
  result_json TEXT,
  is_error    INTEGER CHECK (is_error IN (0, 1)),
  started_at  TEXT NOT NULL,
  finished_at TEXT,
  UNIQUE (session_id, call_id),
  CHECK ((status = 'completed') = (result_json IS NOT NULL AND is_error IS NOT NULL AND finished_at IS NOT NULL))
) STRICT;
-- Every column by position: a column added to tool_calls earlier and missing above fails here.
INSERT INTO tool_calls_0011 SELECT * FROM tool_calls;
DROP TABLE tool_calls;
ALTER TABLE tool_calls_0011 RENAME TO tool_calls;

-- One row per request: `id` is what a person types (`--call ap_…`, `--question q_…`). An approval
-- is tied to its ledger call (session_id, call_id); a question to the call that asked it, and `seq`
-- tells apart the questions one MCP call asks in turn.
CREATE TABLE operator_requests (
  id          TEXT PRIMARY KEY,
  run_id      TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  task        TEXT NOT NULL,
  item        INTEGER,
  agent       TEXT NOT NULL,
  session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  call_id     TEXT NOT NULL,
  seq         INTEGER NOT NULL DEFAULT 0,
  kind        TEXT NOT NULL CHECK (kind IN ('approval', 'question')),
  tool_ref    TEXT NOT NULL,
  payload_json TEXT NOT NULL,
  status      TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'answered', 'declined')),
  answer_json TEXT,
  reason      TEXT,
  decided_by  TEXT,
  decided_at  TEXT,
  created_at  TEXT NOT NULL,
  UNIQUE (session_id, call_id, kind, seq),
  CHECK ((status = 'pending') = (decided_at IS NULL))
) STRICT;
CREATE INDEX operator_requests_by_run ON operator_requests (run_id, status);
