// The agents of one task's commander and their sessions: one session per agent per task, created on
// the first call and continued by later calls and follow-up questions. Calls to one agent are
// serialized (its conversation is one thread); calls to different agents run concurrently.
// Delivery is crash-safe: an instruction is tied to the commander's call id, so after a restart a
// finished answer is delivered from the store and an unfinished session is continued, never redone.

import type { TaskSpec } from '../../config/graph.js';
import { renderPrompt } from '../../core/promptTemplates.js';
import type { RunContext } from './runContext.js';
import type { AgentDirectory, AgentReply } from './commanderTools.js';
import type { AgentDefinition } from './definitions.js';
import { AgentSession } from '../session/session.js';
import { SessionContext } from '../context/sessionContext.js';
import { contextPolicy } from '../context/policy.js';
import type { SessionDeps } from '../session/sessionTypes.js';
import { buildAgentToolbox, loadedEntry } from './agentToolbox.js';
import { addResultTools } from '../results/index.js';
import { datasetAccess } from '../kernel/filledDatasets.js';
import { addMemoryTools, missionSlots } from '../memory/index.js';
import { HANDLE_PATTERN } from '../../core/storedResults.js';
import type { SessionRow } from '../../store/index.js';
import type { SessionTool, Toolbox } from '../tools/toolbox.js';

export class AgentPool implements AgentDirectory {
  private readonly sessions = new Map<string, Promise<AgentSession>>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly closers: (() => void)[] = [];

  constructor(
    private readonly ctx: RunContext,
    private readonly task: TaskSpec,
    private readonly definitions: readonly AgentDefinition[],
    /** The commander these agents answer: handles their answers mention become readable by it. */
    private readonly commanderSessionId: string,
  ) {}

  /** The task is over: its sessions stop following their MCP servers' tool changes. */
  close(): void {
    for (const close of this.closers.splice(0)) close();
  }

  names(): string[] {
    return this.definitions.map((d) => d.name);
  }

  call(name: string, text: string, mode: 'task' | 'response', callId: string): Promise<AgentReply> {
    const instruction = renderPrompt('instructions', mode === 'task' ? { task: true, text } : { response: true, text }).trim();
    return this.deliver(name, callId, instruction);
  }

  async ask(agentId: string, question: string, callId: string): Promise<AgentReply> {
    if (!this.names().includes(agentId)) {
      return { ok: false, error: `No agent "${agentId}" in this task. Agent ids: ${this.names().join(', ')}.` };
    }
    if (!this.sessions.has(agentId) && !(await this.ctx.store.sessions.get(this.ctx.runId, this.task.name, agentId))) {
      return { ok: false, agentId, error: `"${agentId}" has not worked on this task yet: use call_agent first.` };
    }
    const instruction = renderPrompt('instructions', { question: true, text: question }).trim();
    return this.deliver(agentId, callId, instruction);
  }

  private deliver(name: string, callId: string, instruction: string): Promise<AgentReply> {
    const previous = this.queues.get(name) ?? Promise.resolve();
    const next = previous.then(() => this.deliverNow(name, callId, instruction));
    this.queues.set(name, next.catch(() => undefined));
    return next;
  }

  private async deliverNow(name: string, callId: string, instruction: string): Promise<AgentReply> {
    const session = await this.session(name);
    const { store } = this.ctx;
    const index = session.instructionIndex(callId);
    if (index >= 0) {
      const ready = await session.answerAfter(index);
      if (ready !== undefined) {
        await this.passUp(session.deps.sessionId, ready);
        return { ok: true, agentId: name, answer: ready, sessionId: session.deps.sessionId };
      }
    } else {
      await store.transaction(async (tx) => {
        await session.appendInstruction([{ type: 'text', text: instruction }], callId, tx);
        await tx.sessions.setStatus(session.deps.sessionId, 'running');
      });
    }
    const outcome = await session.run();
    const sessionId = session.deps.sessionId;
    if (outcome.kind === 'answer') {
      // The answer itself is the session's latest message: it is not stored a second time.
      await store.sessions.setStatus(sessionId, 'completed');
      this.ctx.bus.emit({ type: 'session.finished', task: this.task.name, agent: name, sessionId, status: 'completed' });
      await this.passUp(sessionId, outcome.text);
      return { ok: true, agentId: name, answer: outcome.text, sessionId };
    }
    const reason = outcome.kind === 'failed' ? outcome.reason : 'the agent ended without an answer';
    await store.sessions.setStatus(sessionId, 'failed');
    this.ctx.bus.emit({ type: 'session.finished', task: this.task.name, agent: name, sessionId, status: 'failed' });
    return { ok: false, agentId: name, error: reason };
  }

  /** A stored result the agent's answer names becomes readable by the commander it answers. */
  private async passUp(agentSessionId: string, answer: string): Promise<void> {
    for (const handle of new Set(answer.match(HANDLE_PATTERN) ?? [])) {
      await this.ctx.store.storedResults.share(handle, agentSessionId, this.commanderSessionId);
    }
  }

  private session(name: string): Promise<AgentSession> {
    let session = this.sessions.get(name);
    if (!session) {
      session = this.openSession(name);
      this.sessions.set(name, session);
    }
    return session;
  }

  private async openSession(name: string): Promise<AgentSession> {
    const def = this.definitions.find((d) => d.name === name);
    if (!def) throw new Error(`agent "${name}" is not defined for task "${this.task.name}"`);
    const { ctx } = this;
    const stored = await ctx.store.sessions.get(ctx.runId, this.task.name, name);
    const row =
      stored ??
      (await ctx.store.sessions.open({
        runId: ctx.runId,
        task: this.task.name,
        agent: name,
        role: 'agent',
        model: def.model.apiModel,
        systemPrompt: def.systemPrompt,
        tools: def.given.tools,
        skills: def.given.skills,
      }));
    const deps = await agentSessionDeps(ctx, this.task.name, def, row, (close) => this.closers.push(close));
    ctx.bus.emit({
      type: 'session.started',
      task: this.task.name,
      agent: name,
      sessionId: row.id,
      model: def.model.apiModel,
      tools: def.given.tools,
      skills: def.given.skills,
      discovery: def.discovery !== undefined,
      resumed: stored !== undefined,
    });
    for (const message of def.warnings) ctx.bus.emit({ type: 'warning', task: this.task.name, message });
    for (const skill of def.preloadedSkills) {
      ctx.bus.emit({ type: 'skill.loaded', task: this.task.name, agent: name, sessionId: row.id, skill: skill.name, how: 'mention' });
    }
    return AgentSession.restore(deps);
  }
}

/**
 * The session of one agent (a declared agent or the worker) over its stored row: its toolbox (world
 * tools, discovery, skills, the stored-result readers), model, limits and guards. The same for an
 * agent a commander calls and for the worker of a direct task (runtime/agents/direct.ts).
 */
export async function agentSessionDeps(
  ctx: RunContext,
  task: string,
  def: AgentDefinition,
  row: SessionRow,
  onClose: (close: () => void) => void,
  /** Tools after the agent's own, before the stored-result readers (a direct worker's finishing tools). */
  finishing: readonly SessionTool[] = [],
): Promise<SessionDeps> {
  const name = def.name;
  const toolbox = await buildAgentToolbox(
    {
      resolver: ctx.tools,
      toolContext: (callId, signal) => ({
        workspaceDir: ctx.workspaceDir,
        signal,
        runId: ctx.runId,
        task,
        agent: name,
        callId,
        sessionId: row.id,
        datasets: datasetAccess(ctx.store, ctx.runId, ctx.mission, task, ctx.inputs),
      }),
      stored: await ctx.store.sessions.loadedTools(row.id),
      onClose,
      onLoaded: async (entry) => {
        await ctx.store.sessions.addLoadedTool(row.id, entry);
        const loaded = loadedEntry(entry);
        ctx.bus.emit(
          loaded.kind === 'tool'
            ? { type: 'tool.loaded', task, agent: name, sessionId: row.id, ref: loaded.ref, via: 'get_tool_schema' }
            : { type: 'skill.loaded', task, agent: name, sessionId: row.id, skill: loaded.name, how: 'load_skill' },
        );
      },
    },
    def,
  );
  const model = ctx.models.sessionModel(def.model, def.reasoning);
  const deps: SessionDeps = {
    store: ctx.store,
    bus: ctx.bus,
    client: ctx.models.client(def.model),
    runId: ctx.runId,
    task,
    agent: name,
    sessionId: row.id,
    model,
    // A resumed session keeps the exact prompt it started with, so its conversation stays coherent;
    // one a fork cut at a turn is stored without it and takes the one the fork's config renders.
    systemPrompt: row.systemPrompt === '' ? def.systemPrompt : row.systemPrompt,
    toolbox,
    maxTurns: def.maxTurns ?? ctx.limits.agentMaxTurns,
    resultMaxTokens: def.toolResponse.maxTokens,
    context: await SessionContext.open(ctx.store, row.id, contextPolicy(def.context, model)),
    signal: ctx.signal,
    requireToolCall: false,
    ...(ctx.operator ? { operator: ctx.operator } : {}),
    // Agents are guarded against loops (the commander has its own limits: turns, corrections).
    loopGuard: def.loopGuard ?? {},
  };
  addMemoryTools(toolbox, missionSlots(ctx.graph, ctx.mission, ctx.runId), (call) => ({
    workspaceDir: ctx.workspaceDir,
    signal: call.signal,
    runId: ctx.runId,
    task,
    agent: name,
    callId: call.callId,
    sessionId: row.id,
  }));
  addFinishingTools(toolbox, finishing);
  await addResultTools(toolbox, { store: ctx.store, runId: ctx.runId, sessionId: row.id, maxTokens: def.toolResponse.maxTokens });
  return deps;
}

/** Always sent, after the agent's own tools (loaded ones included), so a resumed session lists the same order. */
export function addFinishingTools(toolbox: Toolbox, finishing: readonly SessionTool[]): void {
  for (const tool of finishing) {
    toolbox.authorize(tool);
    toolbox.showLast(tool.definition.name);
  }
}
