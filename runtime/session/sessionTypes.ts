// Shared shapes of the agent session loop: its dependencies and how it ends. The session vocabulary
// (messages, the session model, interruptions) is the kernel's (kernel/session.ts), re-exported here.

export { RunInterrupted, RunParked, type MessageKind, type SessionMessage, type SessionModel } from '../kernel/session.js';

import type { LoopGuard } from '../../config/graph.js';
import type { Store } from '../../store/index.js';
import type { EventBus } from '../kernel/events.js';
import type { ToolResultPart, ToolUsePart } from '../providers/types.js';
import type { SessionMessage, SessionModel } from '../kernel/session.js';
import type { GatedClient } from '../model/modelCall.js';
import type { Toolbox } from '../tools/toolbox.js';
import type { SessionContext } from '../context/sessionContext.js';
import type { OperatorDesk } from '../operator/desk.js';
import type { StepTx } from '../kernel/durableStep.js';

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
  /** The reply's text as the model streams it (a chat prints it live); never needed for correctness. */
  onTextDelta?: (text: string) => void;
}

export type SessionOutcome =
  | { kind: 'answer'; text: string }
  /** `closed`: closeInStep ran in the commit that stored the completing results. */
  | { kind: 'done'; closed?: boolean }
  | { kind: 'failed'; reason: string };

export const MAX_CORRECTIONS = 3;
export const MAX_TRUNCATIONS = 3;
