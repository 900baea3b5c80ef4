-- 0014_message_parts_bytes: the UTF-8 size of a message's parts as their own JSON, written with the
-- row when its stored text is exactly that (no redacted secret to restore; NULL otherwise, and for
-- rows stored before), and held in the heads index beside the other head columns, so a resume sizes
-- a long conversation's context from the index alone, without reading the rows and their parts.
-- Append-only like 0001: never edit this file once released.

ALTER TABLE messages ADD COLUMN parts_bytes INTEGER;
DROP INDEX messages_heads;
CREATE INDEX messages_heads ON messages (session_id, seq, role, turn, kind, call_id, parts_bytes);
