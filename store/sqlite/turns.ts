// Model turns: one row per model call with its token usage, cost and duration. Totals are summed
// from these rows, so budgets survive a resume instead of restarting at zero.

import type { Usage } from '../../core/messages.js';
import { toTotals } from '../rowReaders.js';
import { parseRow, RawSessionTotals, RawTotals } from '../rowSchemas.js';
import type { UsageTotals } from '../rows.js';
import type { RepoContext } from './context.js';
import type { TurnsRepo } from '../repos/turns.js';

const SUMS = `COALESCE(SUM(input_tokens), 0) AS input_tokens, COALESCE(SUM(output_tokens), 0) AS output_tokens,
  COALESCE(SUM(cache_read_tokens), 0) AS cache_read_tokens, COALESCE(SUM(cache_write_tokens), 0) AS cache_write_tokens,
  COALESCE(SUM(cost_usd), 0.0) AS cost_usd, COUNT(*) AS turns`;

export function createTurnsRepo({ db, now }: RepoContext): TurnsRepo {
  const insert = db.prepare(
    `INSERT INTO model_turns (run_id, task_name, session_id, turn, model, input_tokens, output_tokens,
       cache_read_tokens, cache_write_tokens, cost_usd, duration_ms, stop_reason, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const forRun = db.prepare(`SELECT ${SUMS} FROM model_turns WHERE run_id = ?`);
  const bySession = db.prepare(`SELECT session_id, ${SUMS} FROM model_turns WHERE run_id = ? GROUP BY session_id`);

  return {
    async record(t) {
      insert.run(
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
      );
    },
    async totalsForRun(runId) {
      return toTotals(parseRow(RawTotals, 'model_turns', forRun.get(runId)));
    },
    async totalsBySession(runId) {
      const out = new Map<string, UsageTotals>();
      for (const row of bySession.all(runId)) {
        const r = parseRow(RawSessionTotals, 'model_turns', row);
        out.set(r.session_id, toTotals(r));
      }
      return out;
    },
  };
}

