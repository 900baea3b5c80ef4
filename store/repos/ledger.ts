// The tool-call ledger: `started` is written before a tool executes and the result after, so resume
// can replay completed results instead of re-running side effects, and knows which calls were cut off.

import type { ToolResult } from '../../core/toolResults.js';
import type { LedgerRow } from '../rows.js';

/** What is known of a call before it runs: its ledger row without the outcome. */
export type StartedCall = Pick<LedgerRow, 'sessionId' | 'callId' | 'toolRef' | 'apiName' | 'input' | 'idempotent'>;

export interface LedgerRepo {
  /**
   * Idempotent per (session, call): a second call keeps the first row untouched, except that a call
   * waiting for approval (`pending_approval`) becomes `started` (it was approved and now runs).
   */
  recordStarted(c: StartedCall): Promise<void>;
  /** A call that needs approval, stored before anything else happens to it; idempotent per (session, call). */
  recordPending(c: StartedCall): Promise<void>;
  /**
   * A started call that must wait for the operator after all (an MCP server asked a question nobody
   * can answer now): back to `pending_approval`, so resume runs it again once the question is answered.
   */
  reopen(sessionId: string, callId: string): Promise<void>;
  /**
   * Records the result. The first result wins: it is the one the model may already have seen. Throws
   * NOT_FOUND if the call was never started or pending (a denied call is completed from `pending_approval`) (a bug: results must follow a write-ahead start).
   */
  recordCompleted(sessionId: string, callId: string, result: ToolResult): Promise<void>;
  get(sessionId: string, callId: string): Promise<LedgerRow | undefined>;
  /** In start order. */
  listForSession(sessionId: string): Promise<LedgerRow[]>;
}
