// The typed events of a run and the bus that fans them out to their sinks (SQLite, the pino log,
// the progress view). Emitting is synchronous and ordered; a sink that throws is reported once and
// detached, so a broken terminal never stops a run.

import type { ApprovalVia, Provenance } from '../../config/graph.js';
import type { FinishedRunStatus, FinishedSessionStatus, OperatorRequestKind, OperatorRequestStatus } from '../../core/statuses.js';
import type { Store } from '../../store/index.js';
import type { StopReason, Usage } from '../providers/types.js';
import type { McpToolInfo } from '../tools/mcp/toolInfo.js';
import type { BudgetKind } from './budgetTerms.js';

export interface GivenTool {
  ref: string;
  via: Provenance;
  /** Why each call of the tool waits for the operator's approval (absent: it does not). */
  approval?: ApprovalVia;
}

export interface GivenSkill {
  name: string;
  via: Provenance;
}

export type RunEvent =
  | { type: 'run.started'; runId: string; mission: string; resumed: boolean; replayFrom?: string }
  | { type: 'run.config_changed'; runId: string; changes: string[] }
  | { type: 'run.finished'; runId: string; status: FinishedRunStatus; error?: string }
  | { type: 'task.started'; task: string }
  | { type: 'task.completed'; task: string; summary: string; route?: string }
  | { type: 'task.failed'; task: string; error: string }
  | { type: 'task.cancelled'; task: string }
  /** The task (or an item of it) stopped to wait for its operator; resumed once the requests are decided. */
  | { type: 'task.waiting'; task: string; requests: string[] }
  /** A call waits for the operator: an approval, or a question (builtins.human.ask, an MCP elicitation). */
  | { type: 'operator.requested'; task: string; agent: string; requestId: string; kind: OperatorRequestKind; tool: string; callId: string }
  /** The operator decided at the run's terminal (approve, deny and answer record theirs in the database). */
  | { type: 'operator.decided'; task: string; requestId: string; kind: OperatorRequestKind; status: OperatorRequestStatus; by: string; reason?: string }
  | { type: 'task.skipped'; task: string; reason: string }
  | { type: 'task.retried'; task: string; attempt: number }
  /** An item of an iterated task started (`attempt` 2+ is a re-run from a fresh session). */
  | { type: 'item.started'; task: string; index: number; attempt: number; total: number }
  /** An item ended; `completed`/`failed` count the task's items so far, out of `total`. */
  | { type: 'item.finished'; task: string; index: number; status: 'completed' | 'failed'; error?: string; completed: number; failed: number; total: number }
  | {
      type: 'session.started';
      task: string;
      agent: string;
      sessionId: string;
      model: string;
      tools: GivenTool[];
      skills: GivenSkill[];
      discovery: boolean;
      resumed: boolean;
    }
  | { type: 'session.finished'; task: string; agent: string; sessionId: string; status: FinishedSessionStatus }
  | {
      type: 'model.turn';
      task: string;
      agent: string;
      sessionId: string;
      turn: number;
      model: string;
      /** The model id the server reported, when it differs from `model` (telemetry's response model). */
      responseModel?: string;
      usage: Usage;
      costUsd: number;
      durationMs: number;
      stopReason: StopReason;
    }
  | { type: 'model.retry'; task: string; agent: string; attempt: number; delayMs: number; reason: string }
  | { type: 'tool.started'; task: string; agent: string; sessionId: string; callId: string; tool: string }
  | {
      type: 'tool.finished';
      task: string;
      agent: string;
      sessionId: string;
      callId: string;
      tool: string;
      isError: boolean;
      durationMs: number;
      replayed: boolean;
    }
  /** An MCP server reported progress on a call (`tool` is the ref; `total` when the server knows it). */
  | { type: 'tool.progress'; task: string; agent: string; callId: string; tool: string; progress: number; total?: number; message?: string }
  /** A log message an MCP server sent (`notifications/message`), at the server's level. */
  | { type: 'mcp.log'; server: string; level: McpLogLevel; logger?: string; data: unknown }
  /**
   * An MCP server changed its tools (`notifications/tools/list_changed`): its whole new list, as
   * listed. A resumed run lists the server's tools from the latest of these, so its agents are sent
   * the tools they held before.
   */
  | { type: 'mcp.tools.changed'; server: string; tools: McpToolInfo[] }
  | { type: 'tool.loaded'; task: string; agent: string; sessionId: string; ref: string; via: 'get_tool_schema' | Provenance }
  | { type: 'skill.loaded'; task: string; agent: string; sessionId: string; skill: string; how: 'load_skill' | 'mention' }
  | {
      /** A long session's request was cut down (docs/concepts/context.md); the full history stays stored. */
      type: 'context.cut';
      task: string;
      agent: string;
      sessionId: string;
      kind: 'compaction' | 'pruning';
      /** The first message seq the next request sends verbatim (after the head). */
      keepFrom: number;
      dropped: number;
      /**
       * The request's input tokens as checked (cached ones included) and what they passed: the
       * session's token_limit, or (`window`) the room its model's context window leaves beside the reply.
       */
      inputTokens: number;
      tokenLimit: number;
      against?: 'token_limit' | 'window';
    }
  | { type: 'route.chosen'; from: string; to: string; kind: 'route' | 'send_to' }
  | { type: 'warning'; task?: string; message: string }
  /** The run's budgets as they apply from here (config, raised by earlier resumes and this one's --budget). */
  | { type: 'budget.limits'; limits: Record<string, Partial<Record<BudgetKind, number>>> }
  /** `resume --budget`: the limits raised; later resumes keep them. */
  | { type: 'budget.raised'; limits: Record<string, Partial<Record<BudgetKind, number>>> }
  /** A budget has spent 80% of a limit (once per budget and limit). `scope`: `mission` or a task. */
  | { type: 'budget.warning'; task: string; scope: string; kind: BudgetKind; spent: number; limit: number; message: string }
  /** A model call was not sent: it could have taken a budget past its limit. The run stops. */
  | { type: 'budget.exceeded'; task: string; agent: string; scope: string; kind: BudgetKind; spent: number; needed: number; limit: number; message: string }
  /** A runaway guard acted: a repeated identical call was answered with a correction, or the session was stopped. */
  | {
      type: 'loop.detected';
      task: string;
      agent: string;
      sessionId: string;
      guard: 'repeated_call' | 'no_progress';
      action: 'corrected' | 'stopped';
      count: number;
      tool?: string;
      message: string;
    };

/** The syslog levels of MCP's `notifications/message`. */
export type McpLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

export type RunEventType = RunEvent['type'];

/**
 * A store transaction that events are emitted in: the run's store sink writes them through `store`
 * (so they commit with the transaction's other writes) and adds its writes to `writes`, which the
 * transaction awaits before it commits. Other sinks ignore it.
 */
export interface EventScope {
  store: Store;
  writes: Promise<unknown>[];
}

export type EventSink = (event: RunEvent, scope?: EventScope) => void;

export class EventBus {
  private readonly sinks: { name: string; sink: EventSink }[] = [];
  private readonly barriers: (() => Promise<void>)[] = [];

  constructor(private readonly onSinkError: (name: string, error: unknown) => void = () => {}) {}

  subscribe(name: string, sink: EventSink): void {
    this.sinks.push({ name, sink });
  }

  /** Registers what barrier() waits for: a sink that writes what it was given later (the events table's queue). */
  onBarrier(settle: () => Promise<void>): void {
    this.barriers.push(settle);
  }

  /**
   * Resolves once everything emitted so far is where its sinks keep it. Called before the run acts
   * on the world (a model request leaves), so a kill at any point never finds an effect without the
   * events that led to it.
   */
  async barrier(): Promise<void> {
    await Promise.all(this.barriers.map((settle) => settle()));
  }

  emit(event: RunEvent, scope?: EventScope): void {
    for (const entry of [...this.sinks]) {
      try {
        entry.sink(event, scope);
      } catch (error) {
        this.sinks.splice(this.sinks.indexOf(entry), 1);
        this.onSinkError(entry.name, error);
      }
    }
  }
}
