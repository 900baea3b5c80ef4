// Model turns: one row per model call with its token usage, cost and duration. Totals are summed
// from these rows, so budgets survive a resume instead of restarting at zero. (On PostgreSQL the sums
// of integer columns are bigint, read back as numbers: postgres/connect.ts.)

import { toTotals } from '../rowReaders.js';
import { parseRow, RawSessionTotals, RawTotals, RawTurn } from '../rowSchemas.js';
import type { UsageTotals } from '../rows.js';
import type { TurnsRepo } from '../repos/turns.js';
import type { QueryContext } from '../sql/driver.js';
import { insertFrom } from '../sql/insert.js';
import { sql } from '../sql/statement.js';

/** Usage sums over model_turns rows. */
export const TURN_SUMS = `COALESCE(SUM(input_tokens), 0) AS input_tokens, COALESCE(SUM(output_tokens), 0) AS output_tokens,
  COALESCE(SUM(cache_read_tokens), 0) AS cache_read_tokens, COALESCE(SUM(cache_write_tokens), 0) AS cache_write_tokens,
  COALESCE(SUM(cost_usd), 0) AS cost_usd, COUNT(*) AS turns`;

export const INSERT_TURN = insertFrom('model_turns', RawTurn, { omit: ['id', 'inherited'] });
const FOR_RUN = sql<[string]>(`SELECT ${TURN_SUMS} FROM model_turns WHERE run_id = $1`);
const BY_SESSION = sql<[string]>(`SELECT session_id, ${TURN_SUMS} FROM model_turns WHERE run_id = $1 GROUP BY session_id`);
const LAST_INPUT = sql<[string, number], { n: number | string | bigint | null }>(
  'SELECT input_tokens + cache_read_tokens + cache_write_tokens AS n FROM model_turns WHERE session_id = $1 AND turn = $2 ORDER BY id DESC LIMIT 1',
);

export function createTurnsRepo({ db, now }: QueryContext): TurnsRepo {
  db.prepare(INSERT_TURN.statement, FOR_RUN, BY_SESSION, LAST_INPUT);
  return {
    async record(t) {
      await db.run(
        INSERT_TURN.statement,
        INSERT_TURN.values({
          run_id: t.runId,
          task_name: t.task,
          session_id: t.sessionId,
          turn: t.turn,
          model: t.model,
          input_tokens: t.usage.inputTokens,
          output_tokens: t.usage.outputTokens,
          cache_read_tokens: t.usage.cacheReadTokens,
          cache_write_tokens: t.usage.cacheWriteTokens,
          cost_usd: t.costUsd,
          // performance.now() differences are fractional; the column is an integer.
          duration_ms: Math.round(t.durationMs),
          stop_reason: t.stopReason,
          created_at: now(),
        }),
      );
    },
    async totalsForRun(runId) {
      return toTotals(parseRow(RawTotals, 'model_turns', await db.get(FOR_RUN, [runId])));
    },
    async totalsBySession(runId) {
      const out = new Map<string, UsageTotals>();
      for (const row of await db.all(BY_SESSION, [runId])) {
        const r = parseRow(RawSessionTotals, 'model_turns', row);
        out.set(r.session_id, toTotals(r));
      }
      return out;
    },
    async lastInputTokens(sessionId, turn) {
      const n = (await db.get(LAST_INPUT, [sessionId, turn]))?.n;
      return n === undefined || n === null ? undefined : Number(n);
    },
  };
}
