-- 0022_api_tokens: the twin of migrations/sqlite/0022_api_tokens.sql: bearer tokens of `squadron
-- serve`'s HTTP API, only their SHA-256 stored; a revoked token keeps its row (revoked_at set).
-- Append-only like 0001: never edit this file once released.

CREATE TABLE api_tokens (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  token_hash  text NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
