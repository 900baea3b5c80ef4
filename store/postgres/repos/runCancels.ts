// Cancel requests on PostgreSQL (see repos/runCancels.ts).

import type { RunCancelsRepo } from '../../repos/runCancels.js';
import type { PgRepoContext } from '../context.js';

export function createRunCancelsRepo({ sql, now }: PgRepoContext): RunCancelsRepo {
  return {
    async request(runId, by) {
      await sql.query('INSERT INTO run_cancels (run_id, requested_by, requested_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [runId, by, now()]);
    },
    async requested(runId) {
      return (await sql.query('SELECT 1 AS yes FROM run_cancels WHERE run_id = $1', [runId])).rows.length > 0;
    },
    async clear(runId) {
      await sql.query('DELETE FROM run_cancels WHERE run_id = $1', [runId]);
    },
  };
}
