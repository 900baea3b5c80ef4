-- 0015_reserved: a placeholder on the telemetry branch only. Number 0015 belongs to another branch
-- merged beside this one; the runner needs numbers without gaps, so this stands in for it until the
-- merge, where this file is deleted (or 0016 renumbered). It changes nothing.
SELECT 1;
