// One MCP server session over the host's runs: missions as typed tools (a run per call; with a task,
// its run is the task), the generic tools, runs as resources, and tasks read from the database.

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { listRuns, SquadronError, type Mission } from '../api/index.js';
import { elicitationAsk } from './elicit.js';
import { followRun } from './followRun.js';
import { inputsAsText, type AgentHost } from './host.js';
import { exposedMissions, GENERIC_TOOLS, missionTool, missionToolName } from './missionTools.js';
import { readResource, runResources, RESOURCE_TEMPLATES } from './resources.js';
import { readRunState } from './runState.js';
import { runResult, RunTaskStore } from './taskStore.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export const SERVER_NAME = 'squadron';

export function createMcpServer(host: AgentHost, version: string): Server {
  const tasks = new RunTaskStore(() => host);
  const server = new Server(
    { name: SERVER_NAME, version },
    {
      capabilities: {
        tools: { listChanged: false },
        resources: {},
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      },
      taskStore: tasks,
      instructions:
        'Each tool named after a mission runs it. Runs are durable: a call answers with the run id; come back to it with get_run_details, the resource squadron://runs/<id>, or tasks/get when you called with a task.',
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...GENERIC_TOOLS, ...exposedMissions(host.project(), host.missions).map(missionTool)],
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    try {
      const mission = exposedMissions(host.project(), host.missions).find((m) => missionToolName(m) === name);
      if (mission) return await callMission(server, host, tasks, mission, args, request.params.task !== undefined, extra);
      return await callGeneric(host, name, args);
    } catch (error) {
      if (error instanceof McpError) throw error;
      if (error instanceof SquadronError) return { content: [{ type: 'text', text: error.message }], isError: true };
      throw error;
    }
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await runResources(host) }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => ({ contents: await readResource(host, request.params.uri) }));
  return server;
}

async function callMission(server: Server, host: AgentHost, tasks: RunTaskStore, mission: Mission, args: Record<string, unknown>, asTask: boolean, extra: Extra) {
  const runId = await host.runs.start(host.project(), mission.name, inputsAsText(args));
  if (asTask) {
    const task = await tasks.task(runId);
    if (!task) throw new McpError(ErrorCode.InternalError, `run ${runId} was not stored`);
    return { task };
  }
  return runResult(await waitOn(server, host, runId, extra));
}

function waitOn(server: Server, host: AgentHost, runId: string, extra: Extra) {
  const token = extra._meta?.progressToken;
  const ask = elicitationAsk(server, runId);
  return followRun(host, runId, {
    signal: extra.signal,
    waitMs: host.waitMs,
    ...(ask ? { ask } : {}),
    ...(token !== undefined
      ? { onProgress: (progress: number, message: string) => extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, message } }) }
      : {}),
  });
}

async function callGeneric(host: AgentHost, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const missions = exposedMissions(host.project(), host.missions);
  switch (name) {
    case 'list_missions':
      return json({
        missions: missions.map((m) => ({
          name: m.name,
          tool: missionToolName(m),
          ...(m.description !== undefined ? { description: m.description } : {}),
          inputs: m.inputs.map((i) => ({ name: i.name, type: i.type, required: i.required, ...(i.description ? { description: i.description } : {}) })),
          tasks: m.tasks.map((t) => t.name),
        })),
      });
    case 'run_mission': {
      const mission = missions.find((m) => m.name === args['name']);
      if (!mission) return refusal(`no mission "${String(args['name'])}" (missions: ${missions.map((m) => m.name).join(', ') || 'none'})`);
      const inputs = args['inputs'] !== undefined && typeof args['inputs'] === 'object' && args['inputs'] !== null ? (args['inputs'] as Record<string, unknown>) : {};
      const runId = await host.runs.start(host.project(), mission.name, inputsAsText(inputs));
      return json({ run_id: runId, status: 'running', mission: mission.name });
    }
    case 'list_runs': {
      const limit = clamp(args['limit'], 20, 1, 1000);
      const offset = clamp(args['offset'], 0, 0, 100_000);
      const only = typeof args['mission_name'] === 'string' ? args['mission_name'] : undefined;
      const visible = new Set(missions.map((m) => m.name));
      const rows = (await listRuns(host.store, { limit: limit + offset, ...(only ? { mission: only } : {}) })).filter((r) => host.missions === undefined || visible.has(r.mission));
      return json({ runs: rows.slice(offset, offset + limit) });
    }
    case 'get_run_details':
    case 'cancel_run': {
      const runId = String(args['run_id'] ?? '');
      const state = await readRunState(host.store, runId);
      if (!state || (host.missions !== undefined && !missions.some((m) => m.name === state.mission))) return refusal(`no run ${runId}`);
      if (name === 'cancel_run') {
        if (!host.runs.cancel(runId)) return refusal(`run ${runId} is ${state.status} and not driven by this server`);
        return json({ run_id: runId, status: 'stopping' });
      }
      const tasks = (await host.store.tasks.list(runId)).map((t) => ({ name: t.name, status: t.status, ...(t.summary ? { summary: t.summary } : {}), ...(t.error ? { error: t.error } : {}) }));
      return json({ ...state, tasks });
    }
    default:
      throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
  }
}

function json(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value };
}

function refusal(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function clamp(raw: unknown, fallback: number, min: number, max: number): number {
  const n = typeof raw === 'number' && Number.isFinite(raw) ? Math.floor(raw) : fallback;
  return Math.min(Math.max(n, min), max);
}
