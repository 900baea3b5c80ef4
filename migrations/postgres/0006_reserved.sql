-- 0006_reserved: a placeholder so that 0007 has no gap on this branch. Another branch owns number 0006;
-- when the two meet, its file replaces this one (delete this placeholder then).
SELECT 1;
