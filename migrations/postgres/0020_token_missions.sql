-- 0021_token_missions: the twin of migrations/sqlite/0021_token_missions.sql: the missions a bearer
-- token is limited to (a JSON array of names; NULL: every exposed mission).
-- Append-only like 0001: never edit this file once released.

ALTER TABLE api_tokens ADD COLUMN missions text;
