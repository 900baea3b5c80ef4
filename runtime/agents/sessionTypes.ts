// Shared shapes of the agent session loop: its dependencies, the messages it keeps, and how it ends.

import type { LoopGuard, Pricing } from '../../config/graph.js';
import type { Store } from '../../store/index.js';
import type { EventBus } from '../events.js';
import type { Part, ToolResultPart, ToolUsePart } from '../providers/types.js';
import type { GatedClient } from '../modelCall.js';
import type { Toolbox } from './toolbox.js';
import type { SessionContext } from '../context/sessionContext.js';
import type { OperatorDesk } from '../operator/desk.js';
import type { StepTx } from '../durableStep.js';

/** Why a user-role message exists; lets resume tell corrections and instructions apart. */
export type MessageKind = 'instruction' | 'tool_results' | 'correction' | 'truncation';

export interface SessionMessage {
  role: 'user' | 'assistant';
  parts: Part[];
  kind?: MessageKind;
  /** For instructions sent by `call_agent`/`ask_agent`: the commander's tool call id. */
  callId?: string;
}

export interface SessionModel {
  /** Wire id. */
  apiModel: string;
  /** `block.key`, for display. */
  label: string;
  pricing?: Pricing;
  maxOutputTokens: number;
  /** Input tokens one request may hold, and where the figure comes from. */
  contextWindow: number;
  contextWindowVia: 'catalog' | 'model block' | 'default';
  reasoning?: 'low' | 'medium' | 'high';
  reasoningForm?: 'budget' | 'adaptive';
}

export interface SessionDeps {
  store: Store;
  bus: EventBus;
  /** The session model's client, gated: every call reserves against the run's budgets first. */
  client: GatedClient;
  runId: string;
  task: string;
  /** `commander`, `worker` or a declared agent's name. */
  agent: string;
  sessionId: string;
  model: SessionModel;
  systemPrompt: string;
  toolbox: Toolbox;
  maxTurns: number;
  /** `tool_response.max_tokens`: a tool result above it is stored and the model gets a preview. */
  resultMaxTokens: number;
  /** Compaction and pruning: the view requests are built from, and the check after each reply. */
  context: SessionContext;
  signal: AbortSignal;
  /** Commanders must answer with a tool call; a bare reply is corrected (at most `maxCorrections` times). */
  requireToolCall: boolean;
  /** Commander or direct worker: true once task_complete has succeeded; the loop stops after that turn's results. */
  isDone?: () => boolean;
  /**
   * Commander or direct worker: the writes that close the session once isDone() holds, made in the commit that stores
   * the completing turn's results (its status, the task's or item's outcome) instead of commits of
   * their own. The session then returns `done` with `closed: true`.
   */
  closeInStep?: (tx: StepTx) => Promise<void>;
  /** Runaway guards of this session's agent. */
  loopGuard?: LoopGuard;
  /** Asks the operator (approvals, questions); absent outside a run, where such calls are refused. */
  operator?: OperatorDesk;
  /** Observes every call's result, fresh or replayed from the ledger (commander state is derived from these). */
  onToolResult?: (call: ToolUsePart, result: ToolResultPart) => void;
}

export type SessionOutcome =
  | { kind: 'answer'; text: string }
  /** `closed`: closeInStep ran in the commit that stored the completing results. */
  | { kind: 'done'; closed?: boolean }
  | { kind: 'failed'; reason: string };

/** Thrown when the run is being stopped (SIGINT, a sibling task failed): state stays resumable. */
export class RunInterrupted extends Error {
  constructor(message = 'run interrupted') {
    super(message);
    this.name = 'RunInterrupted';
  }
}

/**
 * Thrown when a call waits for the operator (an approval, a question) and nobody can answer now: the
 * session stops where it is, as an interruption would leave it, and continues on resume.
 */
export class RunParked extends RunInterrupted {
  constructor(message = 'waiting for the operator') {
    super(message);
    this.name = 'RunParked';
  }
}

export const MAX_CORRECTIONS = 3;
export const MAX_TRUNCATIONS = 3;
