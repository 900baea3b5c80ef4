// Model turns on PostgreSQL: one row per model call; totals are summed from these rows, so budgets
// survive a resume. Sums of integer columns are bigint, read back as numbers (connect.ts).

import { toTotals } from '../../rowReaders.js';
import { parseRow, RawSessionTotals, RawTotals } from '../../rowSchemas.js';
import type { UsageTotals } from '../../rows.js';
import type { TurnsRepo } from '../../repos/turns.js';
import type { PgRepoContext } from '../context.js';

const SUMS = `COALESCE(SUM(input_tokens), 0) AS input_tokens, COALESCE(SUM(output_tokens), 0) AS output_tokens,
  COALESCE(SUM(cache_read_tokens), 0) AS cache_read_tokens, COALESCE(SUM(cache_write_tokens), 0) AS cache_write_tokens,
  COALESCE(SUM(cost_usd), 0) AS cost_usd, COUNT(*) AS turns`;

export function createTurnsRepo({ sql, now }: PgRepoContext): TurnsRepo {
  return {
    async record(t) {
      await sql.query(
        `INSERT INTO model_turns (run_id, task_name, session_id, turn, model, input_tokens, output_tokens,
           cache_read_tokens, cache_write_tokens, cost_usd, duration_ms, stop_reason, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        [
          t.runId,
          t.task,
          t.sessionId,
          t.turn,
          t.model,
          t.usage.inputTokens,
          t.usage.outputTokens,
          t.usage.cacheReadTokens,
          t.usage.cacheWriteTokens,
          t.costUsd,
          // performance.now() differences are fractional; the column is an integer.
          Math.round(t.durationMs),
          t.stopReason,
          now(),
        ],
      );
    },
    async totalsForRun(runId) {
      const { rows } = await sql.query(`SELECT ${SUMS} FROM model_turns WHERE run_id = $1`, [runId]);
      return toTotals(parseRow(RawTotals, 'model_turns', rows[0]));
    },
    async totalsBySession(runId) {
      const { rows } = await sql.query(`SELECT session_id, ${SUMS} FROM model_turns WHERE run_id = $1 GROUP BY session_id`, [runId]);
      const out = new Map<string, UsageTotals>();
      for (const row of rows) {
        const r = parseRow(RawSessionTotals, 'model_turns', row);
        out.set(r.session_id, toTotals(r));
      }
      return out;
    },
  };
}
