// SQL text both backends run, written once: the run list with its totals. Each backend passes what
// differs (its placeholders, its tie-breaking column for rows started in the same millisecond).

/**
 * Runs with their usage totals (their own: a fork's turns copied from its parent are not counted) and task counts. The runs are chosen (and limited) first, so only their
 * own model turns are summed — not every turn in the database. `limit` is the backend's placeholder
 * for the limit, `tiebreak` the column that orders runs started in the same millisecond.
 */
export function runSummarySelect(where: string, limit: string, tiebreak: string): string {
  return `
  WITH r AS (SELECT *, ${tiebreak} AS seq FROM runs ${where} ORDER BY started_at DESC, ${tiebreak} DESC LIMIT ${limit})
  SELECT r.*,
    COALESCE(t.input_tokens, 0) AS input_tokens, COALESCE(t.output_tokens, 0) AS output_tokens,
    COALESCE(t.cache_read_tokens, 0) AS cache_read_tokens, COALESCE(t.cache_write_tokens, 0) AS cache_write_tokens,
    COALESCE(t.cost_usd, 0) AS cost_usd, COALESCE(t.turns, 0) AS turns,
    (SELECT COUNT(*) FROM tasks k WHERE k.run_id = r.id) AS tasks_total,
    (SELECT COUNT(*) FROM tasks k WHERE k.run_id = r.id AND k.status = 'completed') AS tasks_completed,
    (SELECT COUNT(*) FROM tasks k WHERE k.run_id = r.id AND k.status = 'failed') AS tasks_failed
  FROM r
  LEFT JOIN (
    SELECT run_id, SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens,
      SUM(cache_read_tokens) AS cache_read_tokens, SUM(cache_write_tokens) AS cache_write_tokens,
      SUM(cost_usd) AS cost_usd, COUNT(*) AS turns
    FROM model_turns WHERE run_id IN (SELECT id FROM r) AND NOT inherited GROUP BY run_id
  ) t ON t.run_id = r.id
  ORDER BY r.started_at DESC, r.seq DESC`;
}
