-- 0016_run_trace_context: the twin of migrations/sqlite/0016_run_trace_context.sql: the run's trace
-- context (the traceparent of its `invoke_workflow` span and its start), written once by the first
-- process that traces the run and read by every later one. NULL for runs never traced.
-- Append-only like 0001: never edit this file once released.

ALTER TABLE runs ADD COLUMN trace_context text;
