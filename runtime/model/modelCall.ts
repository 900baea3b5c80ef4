// The one way a run calls a model. The run's ModelResolver hands out only GatedClients: each call
// first reserves its upper bound against every budget covering it (a call no budget can afford is
// never sent: BudgetStopped), then waits for the events queued so far to be stored (EventBus.barrier),
// and only then sends. The agent turn, MCP sampling and the compaction summary all call through it,
// so none of them can forget either step. The reply carries its reservation: the caller settles it
// in the transaction that stores the call's turn, then after that commit.

import type { Store } from '../../store/index.js';
import { reserveCall } from '../budget/gate.js';
import type { BudgetGate, Reservation } from '../budget/ledger.js';
import type { CallOptions, ModelClient, ModelRequest, ModelResponse } from '../providers/types.js';
import type { SessionModel } from '../kernel/session.js';
import { costOf, totalTokens } from '../kernel/usage.js';

/** What a gated call goes through before it is sent. */
export interface CallGate {
  /** The run's budgets when any is set (read at each call); undefined: nothing to reserve. */
  budget(): BudgetGate | undefined;
  /** Resolves once the events emitted so far are stored. */
  barrier(): Promise<void>;
}

/** A reply whose spend is reserved until the caller stores its turn. */
export interface GatedReply {
  response: ModelResponse;
  durationMs: number;
  /** Its price (0 when replayed from a cassette). */
  costUsd: number;
  /** In the transaction that stores the call's turn: the turn is now the spend. */
  settleIn(tx: Store): Promise<void>;
  /** After that transaction committed. */
  settled(): void;
}

export interface GatedClient {
  /**
   * Reserves, waits for the barrier, sends. `request.trace` names who is asking (the reservation's
   * task and agent). Throws BudgetStopped before sending when a budget cannot afford the call, and
   * releases the reservation when the call fails.
   */
  call(request: ModelRequest, options?: CallOptions): Promise<GatedReply>;
}

/** No budget and nothing to store: a call outside a run (a test's judge). */
export const UNGATED: CallGate = { budget: () => undefined, barrier: async () => {} };

export function gatedClient(client: ModelClient, model: SessionModel, gate: CallGate): GatedClient {
  return {
    async call(request, options = {}) {
      const reservation: Reservation | undefined = await reserveCall(gate.budget(), request.trace.task, request.trace.agent, request, model, options.signal);
      let response: ModelResponse;
      let started: number;
      try {
        await gate.barrier();
        started = performance.now();
        response = await client.complete(request, options);
      } catch (error) {
        await reservation?.release();
        throw error;
      }
      const durationMs = Math.round(performance.now() - started);
      const costUsd = response.replayed ? 0 : costOf(response.usage, model.pricing);
      return {
        response,
        durationMs,
        costUsd,
        settleIn: async (tx) => {
          await reservation?.settleIn(tx);
        },
        settled: () => reservation?.settle({ tokens: totalTokens(response.usage), dollars: costUsd }),
      };
    },
  };
}
