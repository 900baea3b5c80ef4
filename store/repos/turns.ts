// Model turns: one row per model call with its token usage, cost and duration. Totals are summed
// from these rows, so budgets survive a resume instead of restarting at zero.

import type { Usage } from '../../core/messages.js';
import type { UsageTotals } from '../rows.js';

export interface TurnRecord {
  runId: string;
  task: string;
  sessionId: string;
  turn: number;
  model: string;
  usage: Usage;
  costUsd: number;
  durationMs: number;
  stopReason: string;
}

export interface TurnsRepo {
  record(t: TurnRecord): Promise<void>;
  totalsForRun(runId: string): Promise<UsageTotals>;
  /** Keyed by session id; sessions without turns are absent. */
  totalsBySession(runId: string): Promise<Map<string, UsageTotals>>;
  /**
   * Every input token (uncached, cache read, cache write) of the session's call recorded last with
   * this turn number; undefined when there is none. Context management reads the last request's size.
   */
  lastInputTokens(sessionId: string, turn: number): Promise<number | undefined>;
}
