-- 0021_reserved: a placeholder on the serve branch only. Number 0021 belongs to another branch merged
-- beside this one; the runner needs numbers without gaps, so this stands in for it until the merge,
-- where this file is deleted (or 0022 renumbered). It changes nothing.
SELECT 1;
