// Cancel requests on SQLite (see repos/runCancels.ts).

import type { RepoContext } from './context.js';
import type { RunCancelsRepo } from '../repos/runCancels.js';

export function createRunCancelsRepo({ db, now }: RepoContext): RunCancelsRepo {
  const request = db.prepare('INSERT INTO run_cancels (run_id, requested_by, requested_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
  const requested = db.prepare('SELECT 1 AS yes FROM run_cancels WHERE run_id = ?');
  const clear = db.prepare('DELETE FROM run_cancels WHERE run_id = ?');
  return {
    async request(runId, by) {
      request.run(runId, by, now());
    },
    async requested(runId) {
      return requested.get(runId) !== undefined;
    },
    async clear(runId) {
      clear.run(runId);
    },
  };
}
