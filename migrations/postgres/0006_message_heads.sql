-- 0006_message_heads: the twin of migrations/sqlite/0006_message_heads.sql: an index holding every
-- column of a message's head, so a session's heads are read by an index-only scan that never reads
-- the rows with their parts_json.
-- Append-only like 0001: never edit this file once released.

CREATE INDEX messages_heads ON messages (session_id, seq) INCLUDE (id, role, turn, kind, call_id);
