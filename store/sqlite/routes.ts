// Route decisions: which task activated which target, by `route` or `send_to`. The first decision for
// a target wins, so a target activated twice (two routers, or a retry) runs once.

import { toRouteRow } from '../rowReaders.js';
import { parseRow, RawRoute } from '../rowSchemas.js';
import type { RouteKind, RouteRow } from '../rows.js';
import type { RepoContext } from './context.js';
import type { RoutesRepo } from '../repos/routes.js';

export function createRoutesRepo({ db, now }: RepoContext): RoutesRepo {
  const insert = db.prepare(
    `INSERT INTO route_decisions (run_id, from_task, to_task, kind, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (run_id, to_task) DO NOTHING`,
  );
  const list = db.prepare('SELECT * FROM route_decisions WHERE run_id = ? ORDER BY created_at, rowid');

  return {
    async record(runId, from, to, kind) {
      return insert.run(runId, from, to, kind, now()).changes === 1;
    },
    async list(runId) {
      return list.all(runId).map((row) => toRouteRow(parseRow(RawRoute, 'route_decisions', row)));
    },
  };
}

