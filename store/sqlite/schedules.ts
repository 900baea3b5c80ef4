// Schedule fires and pauses on SQLite (see repos/schedules.ts).

import type { RepoContext } from './context.js';
import type { SchedulesRepo } from '../repos/schedules.js';

export function createSchedulesRepo({ db, now }: RepoContext): SchedulesRepo {
  const claim = db.prepare('INSERT INTO schedule_fires (schedule_id, fire_at, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
  const setRun = db.prepare('UPDATE schedule_fires SET run_id = ? WHERE schedule_id = ? AND fire_at = ?');
  const recent = db.prepare('SELECT fire_at, run_id FROM schedule_fires WHERE schedule_id = ? ORDER BY fire_at DESC LIMIT ?');
  const pause = db.prepare('INSERT INTO schedule_pauses (schedule_id, reason, created_at) VALUES (?, ?, ?) ON CONFLICT (schedule_id) DO UPDATE SET reason = excluded.reason');
  const unpause = db.prepare('DELETE FROM schedule_pauses WHERE schedule_id = ?');
  const paused = db.prepare('SELECT schedule_id, reason FROM schedule_pauses');
  return {
    async claimFire(id, fireAt) {
      return claim.run(id, fireAt, now()).changes === 1;
    },
    async setFireRun(id, fireAt, runId) {
      setRun.run(runId, id, fireAt);
    },
    async recentFires(id, limit) {
      return (recent.all(id, limit) as { fire_at: string; run_id: string | null }[]).map((r) => ({ fireAt: r.fire_at, ...(r.run_id ? { runId: r.run_id } : {}) }));
    },
    async pause(id, reason) {
      pause.run(id, reason, now());
    },
    async unpause(id) {
      return unpause.run(id).changes > 0;
    },
    async paused() {
      return new Map((paused.all() as { schedule_id: string; reason: string }[]).map((r) => [r.schedule_id, r.reason]));
    },
  };
}
