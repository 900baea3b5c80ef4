// The hook a model call goes through: reserve the call's upper bound against every budget covering
// it, or stop. A refused call is never sent; the run stops with status `stopped` (resumable with a
// raised limit), so the refusal travels as a RunInterrupted that names the budget.

import { RunInterrupted } from '../kernel/session.js';
import type { SessionModel } from '../kernel/session.js';
import type { ModelRequest } from '../providers/types.js';
import { callUpperBound } from './estimate.js';
import type { BudgetGate, BudgetStop, Reservation } from './ledger.js';

export class BudgetStopped extends RunInterrupted {
  constructor(readonly stop: BudgetStop) {
    super(stop.message);
    this.name = 'BudgetStopped';
  }
}

/**
 * Undefined when no budget covers the call; throws BudgetStopped when one cannot afford it (after
 * waiting for calls in flight on it to settle), RunInterrupted when the run stops meanwhile.
 */
export async function reserveCall(
  gate: BudgetGate | undefined,
  task: string,
  agent: string,
  request: ModelRequest,
  model: Pick<SessionModel, 'pricing'>,
  signal?: AbortSignal,
): Promise<Reservation | undefined> {
  if (gate === undefined) return undefined;
  const result = await gate.reserve(task, agent, callUpperBound(request, model), signal);
  if (result.ok) return result.reservation;
  if ('aborted' in result) throw new RunInterrupted();
  throw new BudgetStopped(result.stop);
}
