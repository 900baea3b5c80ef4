// `squadron chat`: one agent and a person, turn by turn. A chat is stored as a run of its own
// (core/chatRuns.ts: mission `chat:<agent>`, task `chat`, the agent's one session), executed by the
// same parts as a mission's agent: the run's services (tools, MCP, host policy, the operator desk for
// approvals, the event log), the agent session loop with its write-ahead ledger, and the run's lease
// while the chat is open. Each message the person sends is stored before the model is called, so a
// chat killed at any moment is continued by `--resume` with everything that was said.

import { CHAT_TASK, chatAgentOf } from '../../core/chatRuns.js';
import { textOfParts } from '../../core/messages.js';
import { failStopOf, makePrivateDirs, newId, openDatabase, type SessionRow, type Store, type UsageTotals } from '../../store/index.js';
import { agentSessionDeps } from '../agents/agentPool.js';
import { DEFAULT_LIMITS, type SelectionOverrides } from '../agents/runContext.js';
import { RunInterrupted, RunParked } from '../kernel/session.js';
import { OperatorDesk, operatorName } from '../operator/desk.js';
import { startHeartbeat, type Heartbeat } from '../schedule/leaseHeartbeat.js';
import { AgentSession } from '../session/session.js';
import type { SessionDeps } from '../session/sessionTypes.js';
import type { ToolUsePart } from '../providers/types.js';
import { chatAgentDefinition, chatMission, findChatAgent } from './chatAgent.js';
import type { RunEnvironment } from './environment.js';
import { LEASE_HEARTBEAT_MS, modelClients, takeRunLease } from './execute.js';
import { checkModelCredentials } from './modelCredentials.js';
import { checkPluginsStart } from './pluginPreflight.js';
import { runVariables } from './runConfig.js';
import { checkRunFiles } from './runFiles.js';
import { parseRunOptions, type RunOptions } from './runOptions.js';
import { RunRefused } from './runRefused.js';
import { openRunServices, type RunServices } from './runServices.js';
import { secretRedactor } from './secretRedactor.js';
import { workspaceIdentity } from './workspaceIdentity.js';

export { chatAgents, UnknownChatAgent } from './chatAgent.js';

export interface ChatRequest {
  /** The agent to chat with; for a stored chat, if given, it must be the chat's agent. */
  agent?: string;
  /** Continue this stored chat (its run id). */
  chatId?: string;
  /** Where a new chat's file tools work. */
  workspaceFor: (runId: string) => string;
}

/** How one reply ended. `waiting`: a tool call waits for an approval nobody gave here (the chat can be resumed). */
export type ChatReply = { kind: 'answer'; text: string } | { kind: 'cancelled' } | { kind: 'failed'; reason: string } | { kind: 'waiting' };

export interface ChatTurnHooks {
  /** Aborting it cancels this reply (not the chat). */
  signal?: AbortSignal;
  /** The reply's text as it streams. */
  onText?: (text: string) => void;
}

/** One message of the conversation as the person sees it. */
export interface ChatLine {
  role: 'user' | 'assistant';
  text: string;
}

/** A chat stored under an id the database does not hold. */
export class ChatNotFound extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChatNotFound';
  }
}

const CANCELLED_CALL = 'Not run: the person cancelled this reply before the call finished, so its result was not read. Ask before calling it again.';

export class Chat {
  private constructor(
    readonly id: string,
    readonly agent: string,
    /** The model's wire id. */
    readonly model: string,
    /** Whether the chat was stored before (`--resume`). */
    readonly resumed: boolean,
    private readonly store: Store,
    private readonly deps: SessionDeps,
    private readonly row: SessionRow,
    private readonly services: RunServices,
    private readonly lease: { owner: string; heartbeat: Heartbeat; lost: AbortSignal },
    private readonly closers: (() => void)[],
  ) {}

  static async open(env: RunEnvironment, req: ChatRequest): Promise<Chat> {
    const { graph } = env;
    const redactor = secretRedactor(graph);
    const store = await openDatabase(env.dbPath, { redactor });
    try {
      return await Chat.openOn(env, store, redactor, req);
    } catch (error) {
      await store.close();
      throw error;
    }
  }

  private static async openOn(env: RunEnvironment, store: Store, redactor: ReturnType<typeof secretRedactor>, req: ChatRequest): Promise<Chat> {
    const { graph } = env;
    const stored = req.chatId === undefined ? undefined : await store.runs.get(req.chatId);
    if (req.chatId !== undefined && !stored) throw new ChatNotFound(`no chat ${req.chatId} in this database`);
    const storedAgent = stored && chatAgentOf(stored.mission);
    if (stored && storedAgent === undefined) {
      throw new RunRefused(`${stored.id} is a run of mission "${stored.mission}", not a chat: continue it with \`squadron resume ${stored.id}\``, 'usage');
    }
    if (storedAgent !== undefined && req.agent !== undefined && req.agent !== storedAgent) {
      throw new RunRefused(`chat ${stored!.id} is with agent "${storedAgent}", not "${req.agent}"`, 'usage');
    }
    const name = storedAgent ?? req.agent;
    if (name === undefined) throw new RunRefused('name the agent to chat with', 'usage');
    const agent = findChatAgent(graph, name);
    const mission = chatMission(agent);
    checkModelCredentials(graph, mission, undefined);
    await checkPluginsStart(graph);

    const overrides: SelectionOverrides = { noTools: false, skills: [], noSkills: false };
    let runId: string;
    let options: RunOptions;
    if (stored) {
      runId = stored.id;
      options = parseRunOptions(runId, stored.options);
    } else {
      runId = newId('run');
      options = { workspaceDir: req.workspaceFor(runId), taskGraph: [{ name: CHAT_TASK, dependsOn: [], routes: [], sendTo: [] }], overrides };
      checkRunFiles(options.workspaceDir, {});
      makePrivateDirs(options.workspaceDir);
    }

    if (!stored) {
      const workspace = workspaceIdentity(options.workspaceDir);
      await store.runs.create({ id: runId, mission: mission.name, configPath: env.configPath, inputs: {}, options: { ...options }, ...(env.config ? { config: env.config } : {}), variables: runVariables(graph.variables) });
      if (workspace) await store.runs.setWorkspace(runId, workspace);
    }
    const owner = await takeRunLease(store, runId);
    // Losing the lease (another process took the chat over) or the database ends the reply under way.
    const lost = new AbortController();
    failStopOf(store)?.onFailure(() => lost.abort());
    const heartbeat = startHeartbeat(() => store.leases.heartbeat(runId, owner.id), () => lost.abort(), LEASE_HEARTBEAT_MS);
    let services: RunServices | undefined;
    try {
      services = await openRunServices({
        graph,
        mission,
        runId,
        store,
        redactor,
        workspaceDir: options.workspaceDir,
        clients: modelClients(options, redactor, env),
        resumed: stored !== undefined,
        operator: (bus) => new OperatorDesk(store, bus, env.operatorPrompt),
        instrument: env.instrument,
        onBus: (bus) => {
          if (env.onEvent) bus.subscribe('caller', env.onEvent);
        },
      });
      const { bus } = services;
      await store.runs.setStatus(runId, 'running');
      await store.tasks.ensure(runId, CHAT_TASK);
      await store.tasks.setStatus(runId, CHAT_TASK, 'running');
      bus.emit({ type: 'run.started', runId, mission: mission.name, resumed: stored !== undefined });
      const ctx = services.context({ signal: lost.signal, inputs: {}, overrides: options.overrides, limits: DEFAULT_LIMITS });
      const def = await chatAgentDefinition(graph, agent, mission, ctx.tools, options.overrides);
      const known = await store.sessions.get(runId, CHAT_TASK, def.name);
      const row =
        known ??
        (await store.sessions.open({ runId, task: CHAT_TASK, agent: def.name, role: 'agent', model: def.model.apiModel, systemPrompt: def.systemPrompt, tools: def.given.tools, skills: def.given.skills }));
      bus.emit({ type: 'session.started', task: CHAT_TASK, agent: def.name, sessionId: row.id, model: def.model.apiModel, tools: def.given.tools, skills: def.given.skills, discovery: def.discovery !== undefined, resumed: known !== undefined });
      for (const message of def.warnings) bus.emit({ type: 'warning', task: CHAT_TASK, message });
      const closers: (() => void)[] = [];
      const deps = await agentSessionDeps(ctx, CHAT_TASK, def, row, (close) => closers.push(close));
      return new Chat(runId, def.name, def.model.apiModel, stored !== undefined, store, deps, row, services, { owner: owner.id, heartbeat, lost: lost.signal }, closers);
    } catch (error) {
      await services?.close();
      await heartbeat.stop();
      await store.leases.release(runId, owner.id).catch(() => undefined);
      // A new chat that could not start (its agent's MCP server down, say) said nothing: it is not kept.
      if (!stored) await store.runs.remove(runId).catch(() => undefined);
      throw error;
    }
  }

  /** The conversation so far, as the person saw it: their messages and the agent's answers. */
  async history(): Promise<ChatLine[]> {
    const out: ChatLine[] = [];
    for (const message of await this.store.messages.list(this.row.id)) {
      if (message.role === 'user' && message.kind !== 'instruction') continue;
      const text = textOfParts(message.parts).trim();
      if (text !== '') out.push({ role: message.role, text });
    }
    return out;
  }

  /** Whether the last reply was cut short (the process killed while the agent worked): `finish` completes it. */
  async unfinished(): Promise<boolean> {
    // A reply that failed (a turn limit, a model error) was reported, and stays as it ended.
    if ((await this.store.sessions.byId(this.row.id))?.status !== 'running') return false;
    const last = await this.lastMessage();
    return last !== undefined && (last.role === 'user' || toolUses(last.parts).length > 0);
  }

  /** Completes a reply cut short, from the stored conversation: calls the ledger holds are not run again. */
  async finish(hooks: ChatTurnHooks = {}): Promise<ChatReply> {
    return this.drive(hooks, async () => undefined);
  }

  /** Sends the person's message (stored before the model is called) and returns the agent's reply. */
  async send(text: string, hooks: ChatTurnHooks = {}): Promise<ChatReply> {
    // Before the session reads the conversation: the calls a cancelled reply left are closed in it.
    await this.closeCancelledCalls();
    return this.drive(hooks, async (session) => {
      await this.store.transaction(async (tx) => {
        await session.appendInstruction([{ type: 'text', text }], undefined, tx);
        await tx.sessions.setStatus(this.row.id, 'running');
      });
    });
  }

  private async drive(hooks: ChatTurnHooks, before: (session: AgentSession) => Promise<void>): Promise<ChatReply> {
    const signal = hooks.signal ? AbortSignal.any([hooks.signal, this.lease.lost]) : this.lease.lost;
    const deps: SessionDeps = { ...this.deps, signal, ...(hooks.onText ? { onTextDelta: hooks.onText } : {}) };
    const session = await AgentSession.restore(deps);
    await before(session);
    const { bus } = this.services;
    let outcome;
    try {
      outcome = await session.run();
    } catch (error) {
      if (!(error instanceof RunInterrupted)) throw error;
      // Ctrl-C during an approval's prompt parks the call: the reply is cancelled all the same.
      if (error instanceof RunParked && !hooks.signal?.aborted) return { kind: 'waiting' };
      if (this.lease.lost.aborted) return { kind: 'failed', reason: 'the chat was taken over by another process, or its database failed' };
      return { kind: 'cancelled' };
    }
    const status = outcome.kind === 'answer' ? 'completed' : 'failed';
    await this.store.sessions.setStatus(this.row.id, status);
    bus.emit({ type: 'session.finished', task: CHAT_TASK, agent: this.agent, sessionId: this.row.id, status });
    if (outcome.kind === 'answer') return { kind: 'answer', text: outcome.text };
    return { kind: 'failed', reason: outcome.kind === 'failed' ? outcome.reason : 'the agent ended without an answer' };
  }

  /**
   * A reply cancelled while its tool calls were due leaves calls without results, which no model API
   * accepts before the next message: each is answered as not read (the ledger keeps what ran).
   */
  private async closeCancelledCalls(): Promise<void> {
    const last = await this.lastMessage();
    if (!last || last.role !== 'assistant') return;
    const calls = toolUses(last.parts);
    if (calls.length === 0) return;
    // An approval or question the cancelled reply was waiting on is closed with it.
    const ids = new Set(calls.map((c) => c.id));
    for (const request of await this.store.operatorRequests.list(this.id, { pendingOnly: true })) {
      if (request.sessionId !== this.row.id || !ids.has(request.callId)) continue;
      const status = request.kind === 'approval' ? 'denied' : 'declined';
      await this.store.operatorRequests.decide(this.id, request.id, { status, by: operatorName(), reason: 'the person cancelled the reply' });
      this.services.bus.emit({ type: 'operator.decided', task: CHAT_TASK, requestId: request.id, kind: request.kind, status, by: operatorName(), reason: 'the person cancelled the reply' });
    }
    await this.store.messages.append(this.row.id, {
      role: 'user',
      parts: calls.map((call) => ({ type: 'tool_result', toolUseId: call.id, content: [{ type: 'text', text: CANCELLED_CALL }], isError: true })),
      turn: last.turn,
      kind: 'tool_results',
    });
  }

  private async lastMessage() {
    const heads = await this.store.messages.heads(this.row.id);
    const seq = heads[heads.length - 1]?.seq;
    if (seq === undefined) return undefined;
    return (await this.store.messages.listSeqs(this.row.id, [seq]))[0];
  }

  /**
   * Ends the chat here: its run is stored `completed` (a later `--resume` reopens it) and the database
   * closed. Returns what the whole chat has spent so far, every process that held it included.
   */
  async close(): Promise<UsageTotals> {
    for (const close of this.closers.splice(0)) close();
    const { bus } = this.services;
    const failed = this.lease.lost.aborted;
    if (!failed) {
      await this.store.tasks.setStatus(this.id, CHAT_TASK, 'completed');
      bus.emit({ type: 'run.finished', runId: this.id, status: 'completed' });
    }
    await this.services.close();
    await this.lease.heartbeat.stop();
    if (!failed) await this.store.runs.setStatus(this.id, 'completed');
    await this.store.leases.release(this.id, this.lease.owner).catch(() => undefined);
    try {
      return await this.store.turns.totalsForRun(this.id);
    } finally {
      await this.store.close();
    }
  }
}

function toolUses(parts: readonly { type: string }[]): ToolUsePart[] {
  return parts.filter((p): p is ToolUsePart => p.type === 'tool_use');
}
