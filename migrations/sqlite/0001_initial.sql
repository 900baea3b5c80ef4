-- 0001_initial: the first Squadron schema. Append-only: once released, never edit this file (the
-- runner refuses a changed checksum); add 0002_<name>.sql instead. Tables are STRICT so a wrongly
-- typed value is an error at write time instead of a surprise at resume time. Times are ISO-8601 UTC
-- strings with milliseconds; JSON columns hold redacted JSON text.

CREATE TABLE runs (
  id          TEXT PRIMARY KEY,
  mission     TEXT NOT NULL,
  config_path TEXT NOT NULL,
  status      TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'interrupted')),
  inputs_json TEXT NOT NULL,
  -- How the run was started (workspace, caller's selection flags, replay/record, task graph), so
  -- resume and inspect work without the original command line.
  options_json TEXT NOT NULL DEFAULT '{}',
  started_at  TEXT NOT NULL,
  finished_at TEXT,
  error       TEXT
) STRICT;
CREATE INDEX runs_by_mission ON runs (mission, config_path, started_at);
CREATE INDEX runs_by_start ON runs (started_at);

CREATE TABLE tasks (
  id          TEXT PRIMARY KEY,
  run_id      TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  status      TEXT NOT NULL DEFAULT 'pending'
              CHECK (status IN ('pending', 'running', 'completed', 'failed', 'cancelled', 'skipped')),
  started_at  TEXT,
  finished_at TEXT,
  summary     TEXT,
  output_json TEXT,
  route       TEXT,
  error       TEXT,
  UNIQUE (run_id, name)
) STRICT;

-- task_name is not a foreign key to tasks: parallel iterations key their sessions by an iteration
-- label of the task, which has no tasks row of its own.
CREATE TABLE sessions (
  id               TEXT PRIMARY KEY,
  run_id           TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  task_name        TEXT NOT NULL,
  agent            TEXT NOT NULL,
  role             TEXT NOT NULL CHECK (role IN ('commander', 'agent')),
  model            TEXT NOT NULL,
  status           TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'completed', 'failed')),
  system_prompt    TEXT NOT NULL,
  tools_json       TEXT NOT NULL,
  skills_json      TEXT NOT NULL,
  answer           TEXT,
  answer_delivered INTEGER NOT NULL DEFAULT 0 CHECK (answer_delivered IN (0, 1)),
  started_at       TEXT NOT NULL,
  finished_at      TEXT,
  UNIQUE (run_id, task_name, agent)
) STRICT;

-- kind says why a user message exists (instruction, tool_results, correction, …) and call_id ties an
-- instruction to the commander call that sent it; both are the runtime's vocabulary, stored as given.
CREATE TABLE messages (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  seq        INTEGER NOT NULL CHECK (seq >= 1),
  role       TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
  parts_json TEXT NOT NULL,
  turn       INTEGER NOT NULL,
  kind       TEXT,
  call_id    TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (session_id, seq)
) STRICT;

-- The write-ahead tool-call ledger: 'started' is written before a tool runs, the result after.
CREATE TABLE tool_calls (
  id          INTEGER PRIMARY KEY,
  session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  call_id     TEXT NOT NULL,
  tool_ref    TEXT NOT NULL,
  api_name    TEXT NOT NULL,
  input_json  TEXT NOT NULL,
  idempotent  INTEGER NOT NULL CHECK (idempotent IN (0, 1)),
  status      TEXT NOT NULL CHECK (status IN ('started', 'completed')),
  result_json TEXT,
  is_error    INTEGER CHECK (is_error IN (0, 1)),
  started_at  TEXT NOT NULL,
  finished_at TEXT,
  UNIQUE (session_id, call_id),
  CHECK ((status = 'completed') = (result_json IS NOT NULL AND is_error IS NOT NULL AND finished_at IS NOT NULL))
) STRICT;

CREATE TABLE loaded_tools (
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  ref        TEXT NOT NULL,
  loaded_at  TEXT NOT NULL,
  PRIMARY KEY (session_id, ref)
) STRICT;

CREATE TABLE model_turns (
  id                 INTEGER PRIMARY KEY,
  run_id             TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  task_name          TEXT NOT NULL,
  session_id         TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  turn               INTEGER NOT NULL,
  model              TEXT NOT NULL,
  input_tokens       INTEGER NOT NULL,
  output_tokens      INTEGER NOT NULL,
  cache_read_tokens  INTEGER NOT NULL,
  cache_write_tokens INTEGER NOT NULL,
  cost_usd           REAL NOT NULL,
  duration_ms        INTEGER NOT NULL,
  stop_reason        TEXT NOT NULL,
  created_at         TEXT NOT NULL
) STRICT;
CREATE INDEX model_turns_by_run ON model_turns (run_id, session_id);
CREATE INDEX model_turns_by_session ON model_turns (session_id);

-- session_id is deliberately not a foreign key: the event stream is a log and must never fail a run.
CREATE TABLE events (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id     TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  type       TEXT NOT NULL,
  task_name  TEXT,
  session_id TEXT,
  data_json  TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX events_by_run ON events (run_id, id);

-- One row per activated target: the primary key makes the first route or send_to win.
CREATE TABLE route_decisions (
  run_id     TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  from_task  TEXT NOT NULL,
  to_task    TEXT NOT NULL,
  kind       TEXT NOT NULL CHECK (kind IN ('route', 'send_to')),
  created_at TEXT NOT NULL,
  PRIMARY KEY (run_id, to_task)
) STRICT;

-- Fencing: the process that holds a run's lease is the only one allowed to drive it.
CREATE TABLE leases (
  run_id       TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
  owner        TEXT NOT NULL,
  pid          INTEGER NOT NULL,
  host         TEXT NOT NULL,
  acquired_at  TEXT NOT NULL,
  heartbeat_at TEXT NOT NULL
) STRICT;
