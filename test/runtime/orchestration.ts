// Test support for the orchestration modules' unit tests (agents/, iteration/, run/): a loaded
// mission, a real SQLite store in a temp dir, and the run's services built the way the runtime builds
// them (openRunServices), with a scripted in-process ModelClient in place of a provider. The script
// answers each request from who is asking (trace.agent) and what the conversation holds.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import type { Mission, MissionGraph } from '../../config/graph.js';
import { DEFAULT_LIMITS, type RunContext, type RunLimits } from '../../runtime/agents/runContext.js';
import type { RunEvent } from '../../runtime/kernel/events.js';
import { openRunServices, type RunServices } from '../../runtime/run/runServices.js';
import { secretRedactor } from '../../runtime/run/secretRedactor.js';
import type { ModelClient, ModelRequest, ModelResponse, Part } from '../../runtime/providers/types.js';
import { openDatabase, type Store } from '../../store/index.js';
import { loadHcl, removeTempProjects } from '../config/support.js';

const dirs: string[] = [];
afterAll(() => {
  removeTempProjects();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

export const MODEL_BLOCK = `model "m" {
  provider = "anthropic"
  api_key  = "k"
}
`;

export type Script = (request: ModelRequest) => ModelResponse | Promise<ModelResponse>;

export function loadMission(hcl: string): { graph: MissionGraph; mission: Mission } {
  const loaded = loadHcl(hcl);
  expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const graph = loaded.graph!;
  return { graph, mission: graph.missions[0]! };
}

export interface Harness {
  ctx: RunContext;
  store: Store;
  events: RunEvent[];
  requests: ModelRequest[];
  services: RunServices;
  interrupt: AbortController;
  dir: string;
  close(): Promise<void>;
}

/** A run of the config's first mission, its services and context, every model call answered by `script`. */
export async function harness(hcl: string, script: Script, limits: Partial<RunLimits> = {}): Promise<Harness> {
  const { graph, mission } = loadMission(hcl);
  const dir = mkdtempSync(join(tmpdir(), 'squadron-orch-'));
  dirs.push(dir);
  const store = await openDatabase(join(dir, 'squadron.db'));
  const runId = (await store.runs.create({ mission: mission.name, configPath: dir, inputs: {} })).id;
  return services({ graph, mission, store, runId, dir, resumed: false }, script, limits);
}

/**
 * The same run in a new process: the services built again over the same database file (a resumed
 * run), every model call answered by `script`. The earlier harness must have been closed.
 */
export async function reopen(previous: Harness, script: Script, limits: Partial<RunLimits> = {}): Promise<Harness> {
  const { graph, mission, runId } = previous.ctx;
  const dir = previous.dir;
  const store = await openDatabase(join(dir, 'squadron.db'));
  return services({ graph, mission, store, runId, dir, resumed: true }, script, limits);
}

async function services(
  run: { graph: MissionGraph; mission: Mission; store: Store; runId: string; dir: string; resumed: boolean },
  script: Script,
  limits: Partial<RunLimits>,
): Promise<Harness> {
  const { graph, mission, runId, dir } = run;
  const redactor = secretRedactor(graph);
  const store = run.store.withRedactor(redactor);
  const requests: ModelRequest[] = [];
  const client: ModelClient = {
    provider: 'anthropic',
    complete: async (request) => {
      requests.push(request);
      return script(request);
    },
  };
  const events: RunEvent[] = [];
  const services = await openRunServices({
    graph,
    mission,
    runId,
    store,
    redactor,
    workspaceDir: join(dir, 'workspace'),
    clients: () => client,
    resumed: run.resumed,
    onBus: (bus) => bus.subscribe('test', (event) => events.push(event)),
  });
  const interrupt = new AbortController();
  const ctx = services.context({
    signal: interrupt.signal,
    inputs: {},
    overrides: { noTools: false, skills: [], noSkills: false },
    limits: { ...DEFAULT_LIMITS, ...limits },
  });
  return {
    ctx,
    store,
    events,
    requests,
    services,
    interrupt,
    dir,
    async close() {
      await services.close();
      await store.close();
    },
  };
}

let ids = 0;

export function reply(parts: Part[]): ModelResponse {
  return {
    message: { role: 'assistant', parts },
    stopReason: parts.some((p) => p.type === 'tool_use') ? 'tool_use' : 'end_turn',
    usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
    model: 'claude-sonnet-4-6',
  };
}

export const say = (text: string): ModelResponse => reply([{ type: 'text', text }]);

export const use = (name: string, input: unknown): ModelResponse => reply([{ type: 'tool_use', id: `toolu_${++ids}`, name, input }]);

/** The text of the conversation's messages (tool results included), to read what a session was told. */
export function conversationText(request: ModelRequest): string {
  return request.messages
    .flatMap((m) => m.parts)
    .map((p) => {
      if (p.type === 'text') return p.text;
      if (p.type === 'tool_result') return JSON.stringify(p.content);
      return '';
    })
    .join('\n');
}

/** The latest message's text (the instruction or tool result the session answers now). */
export function lastText(request: ModelRequest): string {
  const last = request.messages.at(-1);
  return last === undefined ? '' : conversationText({ ...request, messages: [last] });
}

/** How many tool results of the conversation came from `name` calls (counted by the ids the model used). */
export function resultsOf(request: ModelRequest, name: string): number {
  const ids = new Set(request.messages.flatMap((m) => m.parts).flatMap((p) => (p.type === 'tool_use' && p.name === name ? [p.id] : [])));
  return request.messages.flatMap((m) => m.parts).filter((p) => p.type === 'tool_result' && ids.has(p.toolUseId)).length;
}
