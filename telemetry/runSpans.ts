// One run's events as spans, in one process: the run's `invoke_workflow <mission>` span (its ids stored
// with the run, so every process continues one trace), a span per task, `invoke_agent <name>` per
// agent session (a worker or declared agent under its commander), `chat <model>` per model call and
// `execute_tool <tool>` per tool call. Budget stops, approvals, context cuts and loop-guard refusals
// are span events. Written for the synchronous event bus: it never throws and never awaits.

import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { Mission, MissionGraph, ModelRef } from '../config/graph.js';
import type { RunEvent } from '../runtime/kernel/events.js';
import type { Redactor } from '../store/index.js';
import { ATTR, finishReason, providerName, toolSource } from './attributes.js';
import type { TelemetryExport } from './export.js';
import type { ContentReader } from './content.js';
import type { StoredTraceContext } from './traceContext.js';

interface SessionSpan {
  span: Span;
  ctx: Context;
  task: string;
  agent: string;
  provider: string;
}

const propagator = new W3CTraceContextPropagator();

export class RunSpans {
  private readonly root: Context;
  private readonly tasks = new Map<string, { span: Span; ctx: Context }>();
  private readonly sessions = new Map<string, SessionSpan>();
  private readonly tools = new Map<string, { span: Span; ctx: Context }>();
  private readonly providers = new Map<string, string>();
  private rootEnded = false;
  /** Spans waiting for their opt-in content before they end. */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly out: TelemetryExport,
    private readonly runId: string,
    graph: MissionGraph,
    private readonly mission: Mission,
    private readonly stored: StoredTraceContext,
    private readonly redactor: Redactor,
    private readonly content?: ContentReader,
  ) {
    this.root = trace.setSpanContext(ROOT_CONTEXT, { traceId: stored.traceId, spanId: stored.spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true });
    for (const ref of missionModels(graph, mission)) this.providers.set(ref.apiModel, providerName(ref.provider));
  }

  /** The event bus sink. */
  readonly sink = (event: RunEvent): void => {
    try {
      this.on(event);
    } catch {
      // Telemetry never stops a run; a mapping bug loses a span, nothing else.
    }
  };

  /** `params._meta` of an MCP tool call: the W3C trace context of its execute_tool span. */
  callContext(callId: string): Record<string, string> | undefined {
    const tool = this.tools.get(callId);
    if (tool === undefined) return undefined;
    const carrier: Record<string, string> = {};
    propagator.inject(tool.ctx, carrier, { set: (c, k, v) => (c[k] = v) });
    return carrier;
  }

  /** Resolves once the spans waiting for their content have ended. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Ends `span` once `fill` has set its content attributes (at once without content capture). */
  private endWith(span: Span, fill: (() => Promise<void>) | undefined, at?: number): void {
    if (fill === undefined) {
      span.end(at);
      return;
    }
    const done: Promise<void> = fill()
      .catch(() => undefined)
      .then(() => span.end(at))
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  /** Ends what is still open in this process (the process stops; the run goes on elsewhere or later). */
  endOpen(): void {
    const now = Date.now();
    for (const [id, t] of this.tools) {
      t.span.setAttribute(ATTR.toolOutcome, 'interrupted');
      t.span.end(now);
      this.tools.delete(id);
    }
    for (const [id, s] of this.sessions) {
      s.span.end(now);
      this.sessions.delete(id);
    }
    for (const [name, t] of this.tasks) {
      t.span.end(now);
      this.tasks.delete(name);
    }
  }

  private attrs(a: Attributes, provider?: string): Attributes {
    if (provider !== undefined) {
      a[ATTR.provider] = provider;
      if (!this.out.settings.latestOnly) a[ATTR.system] = provider;
    }
    return a;
  }

  private on(e: RunEvent): void {
    switch (e.type) {
      case 'run.finished':
        if (e.status === 'completed' || e.status === 'failed') this.endRoot(e.status, e.error);
        return;
      case 'task.started':
        this.taskSpan(e.task, true);
        return;
      case 'task.completed':
        this.endTask(e.task, 'completed');
        return;
      case 'task.failed':
        this.endTask(e.task, 'failed', e.error);
        return;
      case 'task.cancelled':
        this.endTask(e.task, 'cancelled');
        return;
      case 'task.waiting':
        this.taskSpan(e.task).span.addEvent('squadron.task.waiting', { 'squadron.operator.requests': e.requests });
        this.endTask(e.task, 'waiting');
        return;
      case 'task.retried':
        this.taskSpan(e.task).span.addEvent('squadron.task.retried', { 'squadron.task.attempt': e.attempt });
        return;
      case 'session.started':
        this.startSession(e);
        return;
      case 'session.finished': {
        const s = this.sessions.get(e.sessionId);
        if (s === undefined) return;
        if (e.status === 'failed') s.span.setStatus({ code: SpanStatusCode.ERROR });
        s.span.end();
        this.sessions.delete(e.sessionId);
        return;
      }
      case 'model.turn':
        this.chat(e);
        return;
      case 'tool.started':
        this.startTool(e);
        return;
      case 'tool.finished': {
        const t = this.tools.get(e.callId);
        if (t === undefined) return;
        t.span.setAttribute(ATTR.toolOutcome, e.replayed ? 'replayed' : e.isError ? 'error' : 'ok');
        if (e.isError) {
          t.span.setAttribute(ATTR.errorType, 'tool_error');
          t.span.setStatus({ code: SpanStatusCode.ERROR });
        }
        this.tools.delete(e.callId);
        const content = this.content;
        this.endWith(
          t.span,
          content &&
            (async () => {
              const call = await content.toolCall(e.sessionId, e.callId);
              if (call === undefined) return;
              t.span.setAttribute(ATTR.toolArguments, call.arguments);
              if (call.result !== undefined) t.span.setAttribute(ATTR.toolResult, call.result);
            }),
        );
        return;
      }
      case 'operator.requested':
        (this.tools.get(e.callId) ?? this.sessionOf(e.task, e.agent) ?? this.taskSpan(e.task)).span.addEvent('squadron.operator.requested', {
          'squadron.operator.request_id': e.requestId,
          'squadron.operator.kind': e.kind,
          [ATTR.toolName]: e.tool,
        });
        return;
      case 'operator.decided':
        this.taskSpan(e.task).span.addEvent('squadron.operator.decided', { 'squadron.operator.request_id': e.requestId, 'squadron.operator.status': e.status });
        return;
      case 'budget.exceeded':
        (this.sessionOf(e.task, e.agent) ?? this.taskSpan(e.task)).span.addEvent('squadron.budget.exceeded', {
          'squadron.budget.scope': e.scope,
          'squadron.budget.kind': e.kind,
          'squadron.budget.spent': e.spent,
          'squadron.budget.needed': e.needed,
          'squadron.budget.limit': e.limit,
        });
        return;
      case 'budget.warning':
        this.taskSpan(e.task).span.addEvent('squadron.budget.warning', { 'squadron.budget.scope': e.scope, 'squadron.budget.kind': e.kind, 'squadron.budget.spent': e.spent, 'squadron.budget.limit': e.limit });
        return;
      case 'context.cut':
        this.sessions.get(e.sessionId)?.span.addEvent(`squadron.context.${e.kind}`, {
          'squadron.context.keep_from': e.keepFrom,
          'squadron.context.dropped': e.dropped,
          'squadron.context.input_tokens': e.inputTokens,
          'squadron.context.token_limit': e.tokenLimit,
        });
        return;
      case 'loop.detected':
        this.sessions.get(e.sessionId)?.span.addEvent('squadron.loop.detected', {
          'squadron.loop.guard': e.guard,
          'squadron.loop.action': e.action,
          'squadron.loop.count': e.count,
          ...(e.tool !== undefined ? { [ATTR.toolName]: e.tool } : {}),
        });
        return;
      case 'model.retry':
        this.sessionOf(e.task, e.agent)?.span.addEvent('squadron.model.retry', { 'squadron.retry.attempt': e.attempt, 'squadron.retry.reason': this.redactor.mask(e.reason) });
        return;
      default:
        return;
    }
  }

  private endRoot(status: 'completed' | 'failed', error: string | undefined): void {
    if (this.rootEnded) return;
    this.rootEnded = true;
    this.endOpen();
    const span = this.out.startWithIds({ traceId: this.stored.traceId, spanId: this.stored.spanId }, `invoke_workflow ${this.mission.name}`, {
      kind: SpanKind.INTERNAL,
      startTime: this.stored.startedAt,
      attributes: {
        [ATTR.operation]: 'invoke_workflow',
        [ATTR.workflowName]: this.mission.name,
        [ATTR.conversationId]: this.runId,
        [ATTR.runId]: this.runId,
        [ATTR.runStatus]: status,
      },
    });
    if (status === 'failed') {
      span.setAttribute(ATTR.errorType, 'run_failed');
      span.setStatus({ code: SpanStatusCode.ERROR, ...(error !== undefined ? { message: this.redactor.mask(error) } : {}) });
    }
    span.end();
  }

  /**
   * The task's span in this process: `task <name>` where the run's scheduler started it, else (a
   * runner executing a queued unit of the task or of its items, on PostgreSQL) `unit <name>`,
   * started at its first event here; both are children of the run's span.
   */
  private taskSpan(label: string, scheduled = false): { span: Span; ctx: Context } {
    const name = baseTask(label);
    let t = this.tasks.get(name);
    if (t === undefined) {
      const attributes: Attributes = { [ATTR.task]: name, [ATTR.runId]: this.runId };
      if (!scheduled) attributes['squadron.task.unit'] = true;
      const span = this.out.tracer.startSpan(`${scheduled ? 'task' : 'unit'} ${name}`, { kind: SpanKind.INTERNAL, attributes }, this.root);
      t = { span, ctx: trace.setSpan(this.root, span) };
      this.tasks.set(name, t);
    }
    return t;
  }

  private endTask(label: string, outcome: string, error?: string): void {
    // A task nothing was seen of here (a runner that only reports the unit's end) gets no empty span.
    const t = this.tasks.get(baseTask(label));
    if (t === undefined) return;
    const { span } = t;
    span.setAttribute('squadron.task.outcome', outcome);
    if (outcome === 'failed') {
      span.setAttribute(ATTR.errorType, 'task_failed');
      span.setStatus({ code: SpanStatusCode.ERROR, ...(error !== undefined ? { message: this.redactor.mask(error) } : {}) });
    }
    // Sessions of the task still open here end with it (a waiting task's commander resumes later).
    for (const [id, s] of this.sessions) {
      if (baseTask(s.task) !== baseTask(label)) continue;
      s.span.end();
      this.sessions.delete(id);
    }
    span.end();
    this.tasks.delete(baseTask(label));
  }

  private sessionOf(task: string, agent: string): SessionSpan | undefined {
    for (const s of this.sessions.values()) if (s.task === task && s.agent === agent) return s;
    return undefined;
  }

  private startSession(e: Extract<RunEvent, { type: 'session.started' }>): void {
    // A worker or declared agent is a child of its task's (or item's) commander; a commander, or a
    // direct task's worker, of the task.
    const parent = (e.agent !== 'commander' ? this.sessionOf(e.task, 'commander') : undefined) ?? this.taskSpan(e.task);
    const provider = this.providers.get(e.model) ?? '_OTHER';
    const span = this.out.tracer.startSpan(
      `invoke_agent ${e.agent}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: this.attrs(
          {
            [ATTR.operation]: 'invoke_agent',
            [ATTR.agentName]: e.agent,
            [ATTR.agentId]: `${e.task}/${e.agent}`,
            [ATTR.conversationId]: e.sessionId,
            [ATTR.requestModel]: e.model,
            [ATTR.task]: e.task,
            'squadron.session.resumed': e.resumed,
          },
          provider,
        ),
      },
      parent.ctx,
    );
    this.sessions.set(e.sessionId, { span, ctx: trace.setSpan(parent.ctx, span), task: e.task, agent: e.agent, provider });
  }

  private chat(e: Extract<RunEvent, { type: 'model.turn' }>): void {
    const session = this.sessions.get(e.sessionId);
    const parent = session?.ctx ?? this.taskSpan(e.task).ctx;
    const provider = this.providers.get(e.model) ?? session?.provider ?? '_OTHER';
    const end = Date.now();
    const responseModel = e.responseModel ?? e.model;
    const input = e.usage.inputTokens + e.usage.cacheReadTokens + e.usage.cacheWriteTokens;
    const span = this.out.tracer.startSpan(
      `chat ${e.model}`,
      {
        kind: SpanKind.CLIENT,
        startTime: end - e.durationMs,
        attributes: this.attrs(
          {
            [ATTR.operation]: 'chat',
            [ATTR.requestModel]: e.model,
            [ATTR.responseModel]: responseModel,
            [ATTR.finishReasons]: [finishReason(e.stopReason)],
            [ATTR.inputTokens]: input,
            [ATTR.outputTokens]: e.usage.outputTokens,
            [ATTR.cacheReadTokens]: e.usage.cacheReadTokens,
            [ATTR.cacheCreationTokens]: e.usage.cacheWriteTokens,
            [ATTR.conversationId]: e.sessionId,
            [ATTR.agentName]: e.agent,
            [ATTR.costUsd]: e.costUsd,
            [ATTR.turn]: e.turn,
          },
          provider,
        ),
      },
      parent,
    );
    const content = this.content;
    this.endWith(
      span,
      content &&
        (async () => {
          const output = await content.turnOutput(e.sessionId, e.turn, finishReason(e.stopReason));
          if (output !== undefined) span.setAttribute(ATTR.outputMessages, output);
        }),
      end,
    );
    const m = this.out.metrics;
    if (m === undefined) return;
    const common = this.attrs({ [ATTR.operation]: 'chat', [ATTR.requestModel]: e.model, [ATTR.responseModel]: responseModel }, provider);
    m.duration.record(e.durationMs / 1000, common);
    m.tokens.record(input, { ...common, [ATTR.tokenType]: 'input' });
    m.tokens.record(e.usage.outputTokens, { ...common, [ATTR.tokenType]: 'output' });
  }

  private startTool(e: Extract<RunEvent, { type: 'tool.started' }>): void {
    const session = this.sessions.get(e.sessionId);
    const parent = session?.ctx ?? this.taskSpan(e.task).ctx;
    const where = toolSource(e.tool);
    const attributes: Attributes = {
      [ATTR.operation]: 'execute_tool',
      [ATTR.toolName]: e.tool,
      [ATTR.toolCallId]: e.callId,
      [ATTR.toolType]: where.source === 'mcp' ? 'extension' : 'function',
      [ATTR.toolSource]: where.source,
      [ATTR.agentName]: e.agent,
    };
    if (where.source === 'mcp') {
      attributes[ATTR.mcpMethod] = 'tools/call';
      if (where.server !== undefined) attributes[ATTR.mcpServer] = where.server;
    }
    const span = this.out.tracer.startSpan(`execute_tool ${e.tool}`, { kind: where.source === 'mcp' ? SpanKind.CLIENT : SpanKind.INTERNAL, attributes }, parent);
    this.tools.set(e.callId, { span, ctx: trace.setSpan(parent, span) });
  }
}

/** An item's sessions are labelled `task[i]`; their task is `task`. */
function baseTask(label: string): string {
  return label.replace(/\[\d+\]$/, '');
}

/** Every model the mission's sessions may call, for the provider of a session's model id. */
function missionModels(graph: MissionGraph, mission: Mission): ModelRef[] {
  const refs: ModelRef[] = [mission.commander.model];
  for (const t of mission.tasks) if (t.worker) refs.push(t.worker.model);
  for (const a of [...mission.localAgents, ...graph.agents]) refs.push(a.model);
  return refs;
}
