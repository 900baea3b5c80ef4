-- 0015_workspace_and_quoted_answers: two records that keep a run from losing or repeating data.
-- runs.workspace_json: the identity of the run's workspace folder when the run was created (its
-- inode and birth time, JSON), so a resume that finds the folder gone or replaced refuses instead of
-- completing on missing files (NULL for runs stored before, checked from their next resume on).
-- stored_results.quote_message and quote_at: a stored result that quotes an agent's whole answer (a
-- commander's call_agent result too large for its context) keeps the answer's text by reference to
-- the agent's message instead of a second copy; the text goes back in at character quote_at.
-- Append-only like 0001: never edit this file once released.

ALTER TABLE runs ADD COLUMN workspace_json TEXT;
ALTER TABLE stored_results ADD COLUMN quote_message INTEGER REFERENCES messages (id) ON DELETE CASCADE;
ALTER TABLE stored_results ADD COLUMN quote_at INTEGER;
