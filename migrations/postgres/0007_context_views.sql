-- 0007_context_views: the twin of migrations/sqlite/0007_context_views.sql: the compacted or pruned
-- view of a long session. A model request is the user message `head_json` followed by the session's
-- messages from seq `keep_from` on; the newest row of a session applies.
-- Append-only like 0001: never edit this file once released.

CREATE TABLE context_views (
  session_id   text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  seq          bigint NOT NULL,
  kind         text NOT NULL CHECK (kind IN ('compaction', 'pruning')),
  after_seq    integer NOT NULL,
  keep_from    integer NOT NULL,
  head_json    json NOT NULL,
  input_tokens bigint NOT NULL,
  dropped      integer NOT NULL,
  created_at   timestamptz NOT NULL,
  PRIMARY KEY (session_id, seq)
);
