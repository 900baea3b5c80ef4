// The context a worker executes a run's task units in: the same services `run` builds for itself
// (openRunServices: the store with the run's redactor, an event bus writing to the store and the run
// log, model clients, tools with their MCP servers, and the run's budgets reserved against the
// totals all its runners share), made once per run while this runner has units of it in flight and
// closed after the last one.

import type { Mission, MissionGraph } from '../../config/graph.js';
import type { Value } from '../../config/hcl/value.js';
import type { RunBudget, Store } from '../../store/index.js';
import { BudgetLedger, type BudgetState } from '../budget/ledger.js';
import { storedTotals } from '../budget/totals.js';
import type { RunEvent } from '../kernel/events.js';
import { modelClients, type RunEnvironment } from './run.js';
import { DEFAULT_LIMITS, type RunContext } from '../agents/runContext.js';
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
    instrument: env.instrument,
    ...(run.budget && Object.keys(run.budget.limits).length > 0 ? { budget: sharedLedger(store, runId, run.budget) } : {}),
  });
  const ctx = services.context({ signal, inputs: run.inputs as Record<string, Value>, overrides: options.overrides, limits: { ...DEFAULT_LIMITS, ...env.limits } });
  return { ctx, close: () => services.close() };
}

/**
 * The run's budgets on this runner: the limits its coordinator recorded on the run's row, reserved
 * against the totals in the database. The mission's time is the coordinator's (recorded before its
 * start, plus the wall-clock time since it started); a task's counts from its start on this runner.
 */
function sharedLedger(store: Store, runId: string, record: RunBudget): (emit: (event: RunEvent) => void) => BudgetLedger {
  const state: BudgetState = {
    limits: new Map(Object.entries(record.limits)),
    settled: new Map(),
    elapsedBefore: new Map(Object.entries(record.elapsed)),
    warned: new Set(),
  };
  const since = record.since === undefined ? Number.NaN : Date.parse(record.since);
  return (emit) => new BudgetLedger(state, emit, { totals: storedTotals(store, runId), ...(Number.isNaN(since) ? {} : { startedAt: since }) });
}
