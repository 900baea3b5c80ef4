// Cancel requests (see repos/runCancels.ts).

import type { RunCancelsRepo } from '../repos/runCancels.js';
import type { QueryContext } from '../sql/driver.js';
import { sql } from '../sql/statement.js';

const REQUEST = sql<[runId: string, by: string, at: string]>('INSERT INTO run_cancels (run_id, requested_by, requested_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING');
const REQUESTED = sql<[runId: string]>('SELECT 1 AS yes FROM run_cancels WHERE run_id = $1');
const CLEAR = sql<[runId: string]>('DELETE FROM run_cancels WHERE run_id = $1');

export function createRunCancelsRepo({ db, now }: QueryContext): RunCancelsRepo {
  db.prepare(REQUEST, REQUESTED, CLEAR);
  return {
    async request(runId, by) {
      await db.run(REQUEST, [runId, by, now()]);
    },
    async requested(runId) {
      return (await db.get(REQUESTED, [runId])) !== undefined;
    },
    async clear(runId) {
      await db.run(CLEAR, [runId]);
    },
  };
}
