-- 0021_token_missions: a bearer token may be limited to some missions (`squadron token create --mission`):
-- the MCP server and A2A show and run only those, and only their runs. NULL: every exposed mission.
-- The list is a JSON array of mission names.
-- Append-only like 0001: never edit this file once released.

ALTER TABLE api_tokens ADD COLUMN missions TEXT;
