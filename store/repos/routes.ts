// Route decisions: which task activated which target, by `route` or `send_to`. The first decision for
// a target wins, so a target activated twice (two routers, or a retry) runs once.

import type { RouteKind, RouteRow } from '../rows.js';

export interface RoutesRepo {
  /** false if the target was already activated (the earlier decision stays). */
  record(runId: string, from: string, to: string, kind: RouteKind): Promise<boolean>;
  /** In decision order. */
  list(runId: string): Promise<RouteRow[]>;
}
