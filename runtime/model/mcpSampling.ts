// Answers an MCP server's `sampling/createMessage` (servers with `sampling = true`) with a run's
// model: the block's `sampling_model`, else the model of the agent whose tool call the request
// arrived during. Each answer is a model turn like any other: stored in the session
// `mcp.<server>.sampling` of the caller's task (the server's messages, then the reply), priced in
// model_turns, announced as a `model.turn` event, and so visible in `inspect`.

// Type-only imports of the SDK: a run without MCP servers never loads it. A thrown Error goes back
// to the server as the request's error (the client wraps it).
import type { CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';

import type { McpServer, Mission, MissionGraph, ModelRef } from '../../config/graph.js';
import { ModelCallError, type Message, type ModelRequest, type Part } from '../providers/types.js';
import type { McpSamplingRequest } from '../tools/mcp/client.js';
import { durableStep } from '../kernel/durableStep.js';
import type { Store } from '../../store/index.js';
import type { EventBus } from '../kernel/events.js';
import type { ModelResolver } from './models.js';

/** What sampling needs of the run: its config, store and bus, and the run's gated model clients (built before its tools, which need the sampler). */
export interface SamplingContext {
  graph: MissionGraph;
  mission: Mission;
  runId: string;
  store: Store;
  bus: EventBus;
  models: ModelResolver;
}

/** The agent name of the session that holds a server's sampling turns. */
export function samplingAgent(server: string): string {
  return `mcp.${server}.sampling`;
}

export function createSampler(ctx: SamplingContext): (request: McpSamplingRequest) => Promise<CreateMessageResult> {
  return async (request) => {
    const server = ctx.graph.mcpServers.find((s) => s.name === request.server);
    const ref = server && modelFor(ctx, server, request.caller);
    if (!server || !ref) throw new Error(`no model answers sampling for MCP server "${request.server}" in task "${request.caller.task}"`);
    const model = ctx.models.sessionModel(ref, undefined);
    const { params } = request;
    const messages = params.messages.map(toMessage);
    const agent = samplingAgent(server.name);
    const session = await openSession(ctx, request.caller.task, agent, model.apiModel, params.systemPrompt ?? '');
    const turn = (await ctx.store.messages.heads(session)).filter((m) => m.role === 'assistant').length + 1;
    const modelRequest: ModelRequest = {
      model: model.apiModel,
      system: params.systemPrompt ?? '',
      messages,
      tools: [],
      // The server's limit, never more than the model block allows.
      maxOutputTokens: Math.max(1, Math.min(params.maxTokens, model.maxOutputTokens)),
      trace: { task: request.caller.task, agent, turn },
    };
    // Gated like any model call (runtime/model/modelCall.ts): a budget that cannot afford it refuses the
    // request (the server gets the error) and stops the run.
    let reply;
    try {
      reply = await ctx.models.client(ref).call(modelRequest, { signal: request.signal });
    } catch (error) {
      if (error instanceof ModelCallError) throw new Error(`the model call failed: ${error.message}`);
      throw error;
    }
    const { response, durationMs, costUsd } = reply;
    const facts = { task: request.caller.task, sessionId: session, turn, model: model.apiModel, usage: response.usage, costUsd, durationMs, stopReason: response.stopReason };
    await durableStep(ctx.store, ctx.bus, async (tx) => {
      for (const m of messages) await tx.store.messages.append(session, { role: m.role, parts: m.parts, turn, kind: 'sampling' });
      await tx.store.messages.append(session, { role: 'assistant', parts: response.message.parts, turn });
      await tx.store.turns.record({ runId: ctx.runId, ...facts });
      await reply.settleIn(tx.store);
      await tx.store.sessions.setStatus(session, 'completed');
      tx.emit({ type: 'model.turn', agent, ...facts });
    });
    reply.settled();
    const text = response.message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
    return { role: 'assistant', content: { type: 'text', text }, model: model.apiModel, stopReason: response.stopReason === 'max_tokens' ? 'maxTokens' : 'endTurn' };
  };
}

/** `sampling_model`, else the model of the calling agent (the task's worker or a declared agent). */
function modelFor(ctx: SamplingContext, server: McpServer, caller: McpSamplingRequest['caller']): ModelRef | undefined {
  if (server.samplingModel) return server.samplingModel;
  const task = ctx.mission.tasks.find((t) => t.name === caller.task);
  if (caller.agent === 'worker') return task?.worker?.model;
  return [...ctx.mission.localAgents, ...ctx.graph.agents].find((a) => a.name === caller.agent)?.model;
}

async function openSession(ctx: SamplingContext, task: string, agent: string, model: string, systemPrompt: string): Promise<string> {
  const stored = await ctx.store.sessions.get(ctx.runId, task, agent);
  if (stored) return stored.id;
  const row = await ctx.store.sessions.open({ runId: ctx.runId, task, agent, role: 'agent', model, systemPrompt, tools: [], skills: [] });
  return row.id;
}

type SamplingMessage = CreateMessageRequest['params']['messages'][number];

function toMessage(m: SamplingMessage): Message {
  const blocks = Array.isArray(m.content) ? m.content : [m.content];
  const parts = blocks.map((b): Part => {
    if (b.type === 'text') return { type: 'text', text: b.text };
    if (b.type === 'image') return { type: 'image', mediaType: b.mimeType, data: b.data };
    return { type: 'text', text: `[${b.type} content, not supported by Squadron's sampling]` };
  });
  return { role: m.role, parts: parts.length > 0 ? parts : [{ type: 'text', text: '' }] };
}
