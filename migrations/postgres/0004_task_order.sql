-- 0004_task_order: the twin of migrations/sqlite/0004_task_order.sql: the order a run's tasks were
-- created in. SQLite lists tasks by rowid; PostgreSQL has none, so a sequence numbers them (existing
-- rows in their physical order, which is their insertion order unless the table was rewritten).
-- Append-only like 0001: never edit this file once released.

CREATE SEQUENCE tasks_created_seq AS bigint;
ALTER TABLE tasks ADD COLUMN created_seq bigint DEFAULT nextval('tasks_created_seq');
ALTER SEQUENCE tasks_created_seq OWNED BY tasks.created_seq;
