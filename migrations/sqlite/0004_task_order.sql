-- 0004_task_order: the order a run's tasks were created in, as a column both backends share.
-- SQLite lists tasks by rowid, which is that order already; PostgreSQL has no rowid, so its twin
-- migration fills created_seq from a sequence. Here a trigger copies the rowid, so the column means
-- the same on both. Append-only like 0001: never edit this file once released.

ALTER TABLE tasks ADD COLUMN created_seq INTEGER;
UPDATE tasks SET created_seq = rowid;
CREATE TRIGGER tasks_created_seq AFTER INSERT ON tasks
BEGIN
  UPDATE tasks SET created_seq = NEW.rowid WHERE rowid = NEW.rowid;
END;
