-- 0022_api_tokens: bearer tokens of `squadron serve`'s HTTP API (`squadron token create|list|revoke`).
-- Only the SHA-256 of a token is stored (the token is shown once, when created), so every `serve` on
-- this database accepts it and a copy of the database does not give access. A revoked token keeps its
-- row (revoked_at set) so `token list` can show it.
-- Append-only like 0001: never edit this file once released.

CREATE TABLE api_tokens (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL,
  token_hash  TEXT NOT NULL UNIQUE,
  created_at  TEXT NOT NULL,
  revoked_at  TEXT
);
