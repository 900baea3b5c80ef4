-- 0003_message_checksums: a checksum of what each message row carries, written with the row, so a
-- long session is read back without re-validating every part that Squadron wrote itself; a row whose
-- checksum does not match (edited by hand, or by another program) is validated in full as before.
-- Append-only like 0001: never edit this file once released.

-- CRC-32 of the row's role, kind, call_id and parts_json as stored (see store/rowChecksum.ts).
-- NULL for messages stored before this migration: they are always validated.
ALTER TABLE messages ADD COLUMN checksum INTEGER;
