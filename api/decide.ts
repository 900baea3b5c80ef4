// Approve, deny and answer what a run waits on (`squadron approve|deny|answer`, the server's
// POST /v1/runs/{id}/approve|deny|answer): records the decision after checking it; the run
// continues with `resume`.

import type { DecideAction } from '../runtime/operator/decide.js';
import type { OperatorRequestRow, Store } from '../store/index.js';
import { SquadronError } from './errors.js';

export type { DecideAction };
export type { OperatorAnswer } from '../runtime/operator/types.js';
export { operatorName } from '../runtime/operator/desk.js';

/** The requests decided; a SquadronError (`not_found`, `refused`, `usage`) when the decision does not fit. */
export async function decide(store: Store, runId: string, action: DecideAction, who: string): Promise<OperatorRequestRow[]> {
  const { decideRequests } = await import('../runtime/operator/decide.js');
  const outcome = await decideRequests(store, runId, action, who);
  if (!outcome.ok) throw new SquadronError(outcome.code, outcome.error);
  return outcome.decided;
}

/** The requests of `runId` still waiting for a decision, oldest first. */
export function waitingRequests(store: Store, runId: string): Promise<OperatorRequestRow[]> {
  return store.operatorRequests.list(runId, { pendingOnly: true });
}
