-- 0009_stopped_runs: two more run statuses. `stopped`: a budget stopped the run before a model call
-- it could not afford; `resume --budget` continues the same sessions. `waiting`: reserved for a run
-- parked on an approval or a question to a person. SQLite cannot change a CHECK in place, so the
-- runs table is rebuilt (SQLite's documented 12-step procedure): the runner applies this file with
-- foreign keys off (the directive below) and checks them before it commits, so the rows of other
-- tables that reference runs are kept, not cascaded away. Append-only like 0001.
-- squadron: foreign_keys off

CREATE TABLE runs_0009 (
  id          TEXT PRIMARY KEY,
  mission     TEXT NOT NULL,
  config_path TEXT NOT NULL,
  status      TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'interrupted', 'stopped', 'waiting')),
  inputs_json TEXT NOT NULL,
  options_json TEXT NOT NULL DEFAULT '{}',
  started_at  TEXT NOT NULL,
  finished_at TEXT,
  error       TEXT,
  config_json TEXT,
  variables_json TEXT,
  config_changes_json TEXT NOT NULL DEFAULT '[]'
) STRICT;
-- Every column by position: a column added to runs by an earlier migration and missing above makes
-- this statement fail (never a silent loss).
INSERT INTO runs_0009 SELECT * FROM runs;
DROP TABLE runs;
ALTER TABLE runs_0009 RENAME TO runs;
CREATE INDEX runs_by_mission ON runs (mission, config_path, started_at);
CREATE INDEX runs_by_start ON runs (started_at);
