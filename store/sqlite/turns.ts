// Model turns: one row per model call with its token usage, cost and duration. Totals are summed
// from these rows, so budgets survive a resume instead of restarting at zero.

import { toTotals } from '../rowReaders.js';
import { parseRow, RawSessionTotals, RawTotals } from '../rowSchemas.js';
import type { UsageTotals } from '../rows.js';
import { TURN_COLUMNS, TURN_SUMS, turnValues } from '../sharedSql.js';
import type { RepoContext } from './context.js';
import type { TurnsRepo } from '../repos/turns.js';

export function createTurnsRepo({ db, now }: RepoContext): TurnsRepo {
  const insert = db.prepare(
    `INSERT INTO model_turns (${TURN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const forRun = db.prepare(`SELECT ${TURN_SUMS} FROM model_turns WHERE run_id = ?`);
  const lastInput = db
    .prepare('SELECT input_tokens + cache_read_tokens + cache_write_tokens FROM model_turns WHERE session_id = ? AND turn = ? ORDER BY id DESC LIMIT 1')
    .pluck();
  const bySession = db.prepare(`SELECT session_id, ${TURN_SUMS} FROM model_turns WHERE run_id = ? GROUP BY session_id`);

  return {
    async record(t) {
      insert.run(...turnValues(t, now()));
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
    async lastInputTokens(sessionId, turn) {
      const n = lastInput.get(sessionId, turn) as number | bigint | undefined;
      return n === undefined ? undefined : Number(n);
    },
  };
}

