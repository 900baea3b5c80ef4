// The context a worker executes a run's task units in: the same services `run` builds for itself
// (openRunServices: the store with the run's redactor, an event bus writing to the store and the run
// log, model clients, tools with their MCP servers), made once per run while this runner has units
// of it in flight and closed after the last one.

import type { Mission, MissionGraph } from '../config/graph.js';
import type { Value } from '../config/hcl/value.js';
import type { Store } from '../store/index.js';
import { modelClients, type RunEnvironment } from './run.js';
import { DEFAULT_LIMITS, type RunContext } from './runContext.js';
import { parseRunOptions } from './runOptions.js';
import { openRunServices } from './runServices.js';
import { secretRedactor } from './secretRedactor.js';

export interface UnitContext {
  ctx: RunContext;
  close(): Promise<void>;
}

/** Builds the context of run `runId` from its stored row and the config `env.graph` it was started with. */
export async function openUnitContext(env: RunEnvironment, shared: Store, runId: string, signal: AbortSignal): Promise<UnitContext> {
  const graph: MissionGraph = env.graph;
  const redactor = secretRedactor(graph);
  const store = shared.withRedactor(redactor);
  const run = await store.runs.get(runId);
  if (!run) throw new Error(`no run ${runId}`);
  const mission: Mission | undefined = graph.missions.find((m) => m.name === run.mission);
  if (!mission) throw new Error(`run ${runId} is of mission "${run.mission}", which is not in its config ${run.configPath}`);
  const options = parseRunOptions(runId, run.options);
  const services = await openRunServices({
    graph,
    mission,
    runId,
    store,
    redactor,
    workspaceDir: options.workspaceDir,
    clients: modelClients(options, redactor, env),
    resumed: true,
  });
  const ctx: RunContext = {
    graph,
    mission,
    runId,
    store,
    bus: services.bus,
    models: services.models,
    tools: services.runTools.resolver,
    workspaceDir: options.workspaceDir,
    signal,
    inputs: run.inputs as Record<string, Value>,
    overrides: options.overrides,
    limits: { ...DEFAULT_LIMITS, ...env.limits },
  };
  return { ctx, close: () => services.close() };
}
