// Schedule fires and pauses (see repos/schedules.ts): the primary key makes a fire's claim atomic,
// across servers on PostgreSQL.

import type { SchedulesRepo } from '../repos/schedules.js';
import type { QueryContext } from '../sql/driver.js';
import { sql } from '../sql/statement.js';

const CLAIM = sql<[id: string, fireAt: string, at: string]>('INSERT INTO schedule_fires (schedule_id, fire_at, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING');
const SET_RUN = sql<[runId: string, id: string, fireAt: string]>('UPDATE schedule_fires SET run_id = $1 WHERE schedule_id = $2 AND fire_at = $3');
const RELEASE = sql<[id: string, fireAt: string]>('DELETE FROM schedule_fires WHERE schedule_id = $1 AND fire_at = $2 AND run_id IS NULL');
const RECENT = sql<[id: string, limit: number], { fire_at: unknown; run_id: unknown }>('SELECT fire_at, run_id FROM schedule_fires WHERE schedule_id = $1 ORDER BY fire_at DESC LIMIT $2');
const PAUSE = sql<[id: string, reason: string, at: string]>(
  'INSERT INTO schedule_pauses (schedule_id, reason, created_at) VALUES ($1, $2, $3) ON CONFLICT (schedule_id) DO UPDATE SET reason = excluded.reason',
);
const UNPAUSE = sql<[id: string]>('DELETE FROM schedule_pauses WHERE schedule_id = $1');
const PAUSED = sql<[], { schedule_id: unknown; reason: unknown }>('SELECT schedule_id, reason FROM schedule_pauses');

export function createSchedulesRepo({ db, now }: QueryContext): SchedulesRepo {
  db.prepare(CLAIM, SET_RUN, RELEASE, RECENT, PAUSE, UNPAUSE, PAUSED);
  return {
    async claimFire(id, fireAt) {
      return (await db.run(CLAIM, [id, fireAt, now()])) === 1;
    },
    async setFireRun(id, fireAt, runId) {
      await db.run(SET_RUN, [runId, id, fireAt]);
    },
    async releaseFire(id, fireAt) {
      await db.run(RELEASE, [id, fireAt]);
    },
    async recentFires(id, limit) {
      return (await db.all(RECENT, [id, limit])).map((r) => ({ fireAt: String(r.fire_at), ...(typeof r.run_id === 'string' ? { runId: r.run_id } : {}) }));
    },
    async pause(id, reason) {
      await db.run(PAUSE, [id, reason, now()]);
    },
    async unpause(id) {
      return (await db.run(UNPAUSE, [id])) > 0;
    },
    async paused() {
      return new Map((await db.all(PAUSED, [])).map((r) => [String(r.schedule_id), String(r.reason)]));
    },
  };
}
