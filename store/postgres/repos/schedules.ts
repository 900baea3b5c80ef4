// Schedule fires and pauses on PostgreSQL (see repos/schedules.ts): the primary key makes a fire's
// claim atomic across servers.

import type { SchedulesRepo } from '../../repos/schedules.js';
import type { PgRepoContext } from '../context.js';

export function createSchedulesRepo({ sql, now }: PgRepoContext): SchedulesRepo {
  return {
    async claimFire(id, fireAt) {
      const { rowCount } = await sql.query('INSERT INTO schedule_fires (schedule_id, fire_at, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [id, fireAt, now()]);
      return rowCount === 1;
    },
    async setFireRun(id, fireAt, runId) {
      await sql.query('UPDATE schedule_fires SET run_id = $1 WHERE schedule_id = $2 AND fire_at = $3', [runId, id, fireAt]);
    },
    async recentFires(id, limit) {
      const { rows } = await sql.query('SELECT fire_at, run_id FROM schedule_fires WHERE schedule_id = $1 ORDER BY fire_at DESC LIMIT $2', [id, limit]);
      return rows.map((r) => ({ fireAt: String(r['fire_at']), ...(typeof r['run_id'] === 'string' ? { runId: r['run_id'] } : {}) }));
    },
    async pause(id, reason) {
      await sql.query('INSERT INTO schedule_pauses (schedule_id, reason, created_at) VALUES ($1, $2, $3) ON CONFLICT (schedule_id) DO UPDATE SET reason = excluded.reason', [id, reason, now()]);
    },
    async unpause(id) {
      const { rowCount } = await sql.query('DELETE FROM schedule_pauses WHERE schedule_id = $1', [id]);
      return rowCount > 0;
    },
    async paused() {
      const { rows } = await sql.query('SELECT schedule_id, reason FROM schedule_pauses');
      return new Map(rows.map((r) => [String(r['schedule_id']), String(r['reason'])]));
    },
  };
}
