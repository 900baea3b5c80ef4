// The services a process needs to execute a run's tasks, whichever process it is (`run`/`resume`
// coordinating the run, or a worker executing some of its task units): the run log, an event bus
// writing to the store and the log, the model clients, and the run's tools with their MCP servers
// (whose sampling reserves against the run's budget). One function builds them for both.

import type { Mission, MissionGraph, ModelBlock } from '../../config/graph.js';
import { runLogPath } from '../../config/projectLayout.js';
import { makePrivateDirs, type Redactor, type Store } from '../../store/index.js';
import type { BudgetLedger } from '../budget/ledger.js';
import { eventRows, type EventRows } from './eventRows.js';
import { EventBus, type RunEvent } from '../kernel/events.js';
import type { Instrument, RunInstrument } from './instrument.js';
import { createSampler } from '../model/mcpSampling.js';
import type { OperatorDesk } from '../operator/desk.js';
import { createElicitor } from '../operator/elicitation.js';
import { recordedToolLists } from './mcpToolChanges.js';
import { ModelResolver } from '../model/models.js';
import type { ModelClient } from '../providers/types.js';
import { openRunLog, type RunLog } from './runLog.js';
import { createRunTools, type RunTools } from './toolResolver.js';
import type { ToolResult } from '../../core/toolResults.js';
import type { RunContext } from '../agents/runContext.js';

export interface RunServicesRequest {
  graph: MissionGraph;
  mission: Mission;
  runId: string;
  /** The store with the run's redactor. */
  store: Store;
  redactor: Redactor;
  workspaceDir: string;
  /** Each model block's client (see modelClients in run.ts). */
  clients: (block: ModelBlock) => ModelClient;
  /** The run has stored tool lists to compare with (a resumed run, or a worker joining a run). */
  resumed: boolean;
  /** The run's budget ledger, built on the bus (its events are the run's); undefined: no budget here. */
  budget?: (emit: (event: RunEvent) => void) => BudgetLedger;
  /** Subscribes the caller's own sinks (progress, an API caller) before any event is emitted. */
  onBus?: (bus: EventBus) => void;
  /** The run's operator desk, built on the bus; MCP servers' questions (elicitation) go to it. Undefined: nobody can be asked here. */
  operator?: (bus: EventBus) => OperatorDesk;
  /** An observer of the run's events (telemetry), attached before any is emitted. */
  instrument?: Instrument | undefined;
  /** A test's mocked tools (squadron test): answered with these results, never executed. */
  mocks?: ReadonlyMap<string, ToolResult>;
}

export interface RunServices {
  log: RunLog;
  bus: EventBus;
  models: ModelResolver;
  runTools: RunTools;
  budget: BudgetLedger | undefined;
  operator: OperatorDesk | undefined;
  /** The run's context over these services, built here only (a run's own process and a worker's units alike). */
  context(run: Pick<RunContext, 'signal' | 'inputs' | 'overrides' | 'limits'>): RunContext;
  /** Stops the tools' servers, waits for the events still being stored, and closes the log. */
  close(): Promise<void>;
}

/**
 * Builds the services. `opened` receives the log, bus and event rows as soon as they exist, so that a
 * caller whose set-up fails later can still close the run on its bus.
 */
export async function openRunServices(req: RunServicesRequest, opened: { bus?: EventBus; rows?: EventRows; log?: RunLog; instrument?: RunInstrument } = {}): Promise<RunServices> {
  const log = openRunLog(runLogPath(req.graph.projectRoot, req.runId), req.runId, req.redactor);
  opened.log = log;
  const bus = new EventBus((name, error) => log.logger.error({ sink: name, err: error }, 'event sink failed and was detached'));
  opened.bus = bus;
  const rows = eventRows(req.store, req.runId, log);
  opened.rows = rows;
  bus.subscribe('store', (event, scope) => rows.sink(event, scope));
  bus.onBarrier(() => rows.settled());
  bus.subscribe('log', log.sink);
  req.onBus?.(bus);
  const instrument = await req.instrument?.({ graph: req.graph, runId: req.runId, mission: req.mission, store: req.store, bus, redactor: req.redactor });
  if (instrument) opened.instrument = instrument;
  makePrivateDirs(req.workspaceDir);
  const budget = req.budget?.((event) => bus.emit(event));
  // Every model call of the run goes through these two steps (runtime/model/modelCall.ts).
  const models = new ModelResolver(req.graph, req.clients, { budget: () => (budget?.active ? budget : undefined), barrier: () => bus.barrier() });
  const operator = req.operator?.(bus);
  const knownTools = req.resumed ? await recordedToolLists(req.store, req.runId) : undefined;
  const runTools: RunTools = createRunTools(req.graph, (ref, message) => bus.emit({ type: 'warning', message: `tool ${ref} is unavailable: ${message}` }), {
    workspaceDir: req.workspaceDir,
    emit: (event) => bus.emit(event),
    sample: createSampler({ graph: req.graph, mission: req.mission, runId: req.runId, store: req.store, bus, models }),
    ...(operator ? { elicit: createElicitor(req.store, req.runId, operator) } : {}),
    ...(knownTools ? { knownTools } : {}),
    ...(instrument ? { traceMeta: (callId: string) => instrument.callContext(callId) } : {}),
    ...(req.mocks ? { mocks: req.mocks } : {}),
  });
  return {
    log,
    bus,
    models,
    runTools,
    budget,
    operator,
    context: (run) => ({
      graph: req.graph,
      mission: req.mission,
      runId: req.runId,
      store: req.store,
      bus,
      models,
      tools: runTools.resolver,
      workspaceDir: req.workspaceDir,
      ...run,
      ...(budget ? { budget } : {}),
      ...(operator ? { operator } : {}),
    }),
    async close() {
      await runTools.close();
      await rows.settled();
      await instrument?.close();
      log.close();
    },
  };
}
