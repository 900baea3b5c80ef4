-- 0002_run_config: the twin of migrations/sqlite/0002_run_config.sql: what a run was started with
-- besides its inputs, and the attempts of a task retried by `resume --retry-failed`.
-- Append-only like 0001: never edit this file once released.

ALTER TABLE runs ADD COLUMN config_json json;
ALTER TABLE runs ADD COLUMN variables_json json;
ALTER TABLE runs ADD COLUMN config_changes_json json NOT NULL DEFAULT '[]';

ALTER TABLE tasks ADD COLUMN attempt integer NOT NULL DEFAULT 1 CHECK (attempt >= 1);
