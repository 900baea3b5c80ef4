-- 0002_run_config: what a run was started with besides its inputs, so `resume` reuses it and
-- refuses (or records) a change, and the attempts of a task retried by `resume --retry-failed`.
-- Append-only like 0001: never edit this file once released.

-- {"files": {"<path relative to the project root>": "<sha256 of its text>"}} of every file the
-- config loader read (.hcl, SKILL.md, load()ed text). NULL for runs stored before this migration.
ALTER TABLE runs ADD COLUMN config_json TEXT;
-- {"values": {"<name>": "<value>"}, "secrets": ["<name>"]}: non-secret variable values as the run
-- used them; secret variables by name only (their values are never stored). NULL for older runs.
ALTER TABLE runs ADD COLUMN variables_json TEXT;
-- Every resume that went ahead with a changed config (--allow-config-change):
-- [{"at": "<time>", "changes": ["<what changed>", …]}], oldest first.
ALTER TABLE runs ADD COLUMN config_changes_json TEXT NOT NULL DEFAULT '[]';

-- 1 for the first attempt; `resume --retry-failed` adds one and moves the failed attempt's sessions
-- to the task label "<task>#<attempt>" (sessions.task_name is a label, not a foreign key).
ALTER TABLE tasks ADD COLUMN attempt INTEGER NOT NULL DEFAULT 1 CHECK (attempt >= 1);
