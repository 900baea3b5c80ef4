-- 0014_message_parts_bytes: the twin of migrations/sqlite/0014_message_parts_bytes.sql: the UTF-8
-- size of a message's parts as their own JSON (NULL when the stored text holds a redacted secret, and
-- for rows stored before), included in the heads index so a session's heads and sizes are read by an
-- index-only scan.
-- Append-only like 0001: never edit this file once released.

ALTER TABLE messages ADD COLUMN parts_bytes integer;
DROP INDEX messages_heads;
CREATE INDEX messages_heads ON messages (session_id, seq) INCLUDE (id, role, turn, kind, call_id, parts_bytes);
