// The context a worker executes a run's task units in: the same pieces `run` builds for itself (the
// store with the run's redactor, an event bus writing to the store and the run log, model clients,
// tools with their MCP servers), made once per run while this runner has units of it in flight and
// closed after the last one.

import type { Mission, MissionGraph } from '../config/graph.js';
import type { Value } from '../config/hcl/value.js';
import { runLogPath } from '../config/projectLayout.js';
import { makePrivateDirs, type Store } from '../store/index.js';
import { eventRows } from './eventRows.js';
import { EventBus } from './events.js';
import { createSampler } from './mcpSampling.js';
import { recordedToolLists } from './mcpToolChanges.js';
import { ModelResolver } from './models.js';
import { modelClients, type RunEnvironment } from './run.js';
import { DEFAULT_LIMITS, type RunContext } from './runContext.js';
import { openRunLog } from './runLog.js';
import { parseRunOptions } from './runOptions.js';
import { secretRedactor } from './secretRedactor.js';
import { createRunTools } from './toolResolver.js';

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
  const log = openRunLog(runLogPath(graph.projectRoot, runId), runId, redactor);
  const bus = new EventBus((name, error) => log.logger.error({ sink: name, err: error }, 'event sink failed and was detached'));
  const rows = eventRows(store, runId, log);
  bus.subscribe('store', (event, scope) => rows.sink(event, scope));
  bus.subscribe('log', log.sink);
  makePrivateDirs(options.workspaceDir);
  const models = new ModelResolver(graph, modelClients(options, redactor, env));
  const runTools = createRunTools(graph, (ref, message) => bus.emit({ type: 'warning', message: `tool ${ref} is unavailable: ${message}` }), {
    workspaceDir: options.workspaceDir,
    emit: (event) => bus.emit(event),
    sample: createSampler({ graph, mission, runId, store, bus, models }),
    knownTools: await recordedToolLists(store, runId),
  });
  const ctx: RunContext = {
    graph,
    mission,
    runId,
    store,
    bus,
    models,
    tools: runTools.resolver,
    workspaceDir: options.workspaceDir,
    signal,
    inputs: run.inputs as Record<string, Value>,
    overrides: options.overrides,
    limits: { ...DEFAULT_LIMITS, ...env.limits },
  };
  return {
    ctx,
    async close() {
      await runTools.close();
      await rows.settled();
      log.close();
    },
  };
}
