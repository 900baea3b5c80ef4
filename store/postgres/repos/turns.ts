// Model turns on PostgreSQL: one row per model call; totals are summed from these rows, so budgets
// survive a resume. Sums of integer columns are bigint, read back as numbers (connect.ts).

import { toTotals } from '../../rowReaders.js';
import { parseRow, RawSessionTotals, RawTotals } from '../../rowSchemas.js';
import type { UsageTotals } from '../../rows.js';
import type { TurnsRepo } from '../../repos/turns.js';
import { TURN_COLUMNS, TURN_SUMS, turnValues } from '../../sharedSql.js';
import type { PgRepoContext } from '../context.js';

export function createTurnsRepo({ sql, now }: PgRepoContext): TurnsRepo {
  return {
    async record(t) {
      await sql.query(
        `INSERT INTO model_turns (${TURN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        turnValues(t, now()),
      );
    },
    async totalsForRun(runId) {
      const { rows } = await sql.query(`SELECT ${TURN_SUMS} FROM model_turns WHERE run_id = $1`, [runId]);
      return toTotals(parseRow(RawTotals, 'model_turns', rows[0]));
    },
    async totalsBySession(runId) {
      const { rows } = await sql.query(`SELECT session_id, ${TURN_SUMS} FROM model_turns WHERE run_id = $1 GROUP BY session_id`, [runId]);
      const out = new Map<string, UsageTotals>();
      for (const row of rows) {
        const r = parseRow(RawSessionTotals, 'model_turns', row);
        out.set(r.session_id, toTotals(r));
      }
      return out;
    },
    async lastInputTokens(sessionId, turn) {
      const { rows } = await sql.query(
        'SELECT input_tokens + cache_read_tokens + cache_write_tokens AS n FROM model_turns WHERE session_id = $1 AND turn = $2 ORDER BY id DESC LIMIT 1',
        [sessionId, turn],
      );
      const n = (rows[0] as { n?: unknown } | undefined)?.n;
      return n === undefined || n === null ? undefined : Number(n);
    },
  };
}
