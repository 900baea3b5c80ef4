// Operator requests: what a run asks a person. An approval of one tool call (its ledger row waits as
// `pending_approval`) or a question (builtins.human.ask, an MCP server's elicitation). A request is
// opened once per (session, call, kind, seq) and decided once: the first decision wins.

import type { OperatorRequestKind, OperatorRequestStatus } from '../../core/statuses.js';

export interface NewOperatorRequest {
  runId: string;
  /** The task's name, or an item's label (`triage[3]`). */
  task: string;
  item?: number;
  agent: string;
  sessionId: string;
  callId: string;
  /** Tells apart the questions one call asks in turn (an MCP server may elicit twice); 0 otherwise. */
  seq?: number;
  kind: OperatorRequestKind;
  toolRef: string;
  /** Approval: the call's input. Question: `{question, choices?, multi_select?, fields?}`. */
  payload: unknown;
}

export interface OperatorDecision {
  status: Exclude<OperatorRequestStatus, 'pending'>;
  /** Who decided: the OS user name. */
  by: string;
  reason?: string;
  /** A question's answer. */
  answer?: unknown;
}

export interface OperatorRequestRow extends Omit<NewOperatorRequest, 'seq'> {
  id: string;
  seq: number;
  status: OperatorRequestStatus;
  answer?: unknown;
  reason?: string;
  decidedBy?: string;
  decidedAt?: string;
  createdAt: string;
}

export interface OperatorRequestsRepo {
  /** Opens the request, or returns the one already open for the same (session, call, kind, seq). */
  open(r: NewOperatorRequest): Promise<OperatorRequestRow>;
  get(runId: string, id: string): Promise<OperatorRequestRow | undefined>;
  forCall(sessionId: string, callId: string, kind: OperatorRequestKind, seq?: number): Promise<OperatorRequestRow | undefined>;
  /** The run's requests, oldest first; only the undecided ones with `pendingOnly`. */
  list(runId: string, opts?: { pendingOnly?: boolean }): Promise<OperatorRequestRow[]>;
  /** The undecided requests of every run, oldest first (an inbox across runs). */
  pending(): Promise<OperatorRequestRow[]>;
  /** Records the decision of a pending request; false when it was already decided (or is unknown). */
  decide(runId: string, id: string, d: OperatorDecision): Promise<boolean>;
}
