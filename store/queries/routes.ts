// Route decisions: which task activated which target, by `route` or `send_to`. The first decision for
// a target wins (the primary key), so a target activated twice (two routers, or a retry) runs once.

import { toRouteRow } from '../rowReaders.js';
import { parseRow, RawRoute } from '../rowSchemas.js';
import type { RoutesRepo } from '../repos/routes.js';
import { creationTiebreak } from '../sql/dialect.js';
import type { QueryContext } from '../sql/driver.js';
import { insertFrom } from '../sql/insert.js';
import { sql } from '../sql/statement.js';

export const INSERT_ROUTE = insertFrom('route_decisions', RawRoute, { tail: 'ON CONFLICT (run_id, to_task) DO NOTHING' });
const LIST = sql<[string]>((d) => `SELECT * FROM route_decisions WHERE run_id = $1 ORDER BY created_at, ${creationTiebreak(d, 'to_task')}`);

export function createRoutesRepo({ db, stamp }: QueryContext): RoutesRepo {
  db.prepare(INSERT_ROUTE.statement, LIST);
  return {
    async record(runId, from, to, kind) {
      const changed = await db.run(INSERT_ROUTE.statement, INSERT_ROUTE.values({ run_id: runId, from_task: from, to_task: to, kind, created_at: stamp() }));
      return changed === 1;
    },
    async list(runId) {
      return (await db.all(LIST, [runId])).map((row) => toRouteRow(parseRow(RawRoute, 'route_decisions', row)));
    },
  };
}
