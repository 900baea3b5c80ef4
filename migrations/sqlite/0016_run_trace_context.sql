-- 0016_run_trace_context: the run's trace context (telemetry/, docs/concepts/telemetry.md): the W3C
-- traceparent of the run's `invoke_workflow` span and when it started, written once by the first
-- process that traces the run, so every later process (resume, a worker, a run continued after an
-- approval) continues the same trace. NULL for runs never traced.
-- Append-only like 0001: never edit this file once released.

ALTER TABLE runs ADD COLUMN trace_context TEXT;
