-- 0007_reserved: a placeholder on the budget branch only, for the migration another branch adds at
-- this number (numbers must run without gaps, and 0009 is this branch's). Delete it at merge.
SELECT 1;
