-- 0007_context_views: the compacted or pruned view of a long session (docs/concepts/context.md). A
-- model request is the user message `head_json` followed by the session's messages from seq
-- `keep_from` on, so a resume rebuilds the very request the model saw; the full history stays in
-- `messages`. One row per compaction or pruning, numbered per session; the newest one applies.
-- Append-only like 0001: never edit this file once released.

CREATE TABLE context_views (
  session_id   TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  seq          INTEGER NOT NULL,
  kind         TEXT NOT NULL CHECK (kind IN ('compaction', 'pruning')),
  after_seq    INTEGER NOT NULL,
  keep_from    INTEGER NOT NULL,
  head_json    TEXT NOT NULL,
  input_tokens INTEGER NOT NULL,
  dropped      INTEGER NOT NULL,
  created_at   TEXT NOT NULL,
  PRIMARY KEY (session_id, seq)
) STRICT;
