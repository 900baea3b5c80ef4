-- 0003_message_checksums: the twin of migrations/sqlite/0003_message_checksums.sql: a checksum of
-- what each message row carries, so rows Squadron wrote are read back without re-validating them.
-- Append-only like 0001: never edit this file once released.

-- CRC-32 (unsigned, so bigint) of the row's role, kind, call_id and parts_json as stored
-- (see store/rowChecksum.ts). NULL for messages stored before this migration: always validated.
ALTER TABLE messages ADD COLUMN checksum bigint;
