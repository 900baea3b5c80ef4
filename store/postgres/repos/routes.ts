// Route decisions on PostgreSQL: the first decision for a target wins (the primary key), so a target
// activated twice runs once.

import { toRouteRow } from '../../rowReaders.js';
import { parseRow, RawRoute } from '../../rowSchemas.js';
import type { RoutesRepo } from '../../repos/routes.js';
import type { PgRepoContext } from '../context.js';

export function createRoutesRepo({ sql, stamp }: PgRepoContext): RoutesRepo {
  return {
    async record(runId, from, to, kind) {
      const { rowCount } = await sql.query(
        `INSERT INTO route_decisions (run_id, from_task, to_task, kind, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (run_id, to_task) DO NOTHING`,
        [runId, from, to, kind, stamp()],
      );
      return rowCount === 1;
    },
    async list(runId) {
      const { rows } = await sql.query('SELECT * FROM route_decisions WHERE run_id = $1 ORDER BY created_at, to_task', [runId]);
      return rows.map((row) => toRouteRow(parseRow(RawRoute, 'route_decisions', row)));
    },
  };
}
