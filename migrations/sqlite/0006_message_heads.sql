-- 0006_message_heads: an index holding every column of a message's head (session, seq, role, turn,
-- kind, call_id; the row id comes with it), so listing a long session's heads — what a resume reads to
-- find its place — is read from the index alone and never visits the rows with their parts_json.
-- Append-only like 0001: never edit this file once released.

CREATE INDEX messages_heads ON messages (session_id, seq, role, turn, kind, call_id);
