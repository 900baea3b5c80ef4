-- 0015_workspace_and_quoted_answers: the twin of migrations/sqlite/0015_workspace_and_quoted_answers.sql:
-- the identity of a run's workspace folder (JSON, NULL for runs stored before), and a stored result
-- that quotes an agent's whole answer keeping the text by reference to the agent's message (inserted
-- back at character quote_at) instead of a second copy.
-- Append-only like 0001: never edit this file once released.

ALTER TABLE runs ADD COLUMN workspace_json json;
ALTER TABLE stored_results ADD COLUMN quote_message bigint REFERENCES messages (id) ON DELETE CASCADE;
ALTER TABLE stored_results ADD COLUMN quote_at integer;
