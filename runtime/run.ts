// Entry points for executing a mission: `startRun` creates a run, `resumeRun` continues a stored one.
// Both build the same RunContext (store, event sinks, models, tools, lease) and hand it to the
// scheduler; they differ only in where the run's identity and options come from.

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Mission, MissionGraph, ModelBlock } from '../config/graph.js';
import type { Value } from '../config/hcl/value.js';
import type { EventRows } from './eventRows.js';
import { startHeartbeat } from './leaseHeartbeat.js';
import { DEFAULT_LEASE_STALE_MS, failStopOf, makePrivateDirs, newId, openDatabase, shownDatabase, type FailStop, type Redactor, type RunBudget, type Store } from '../store/index.js';
import { secretRedactor } from './secretRedactor.js';
import type { EventBus, RunEvent } from './events.js';
import type { Instrument, RunInstrument } from './instrument.js';
import { checkModelCredentials } from './modelCredentials.js';
import { replaysEveryModel } from './models.js';
import { ProgressView } from './progress.js';
import { createModelClient, type ModelClientFactoryOptions } from './providers/factory.js';
import { createReplayClient } from './providers/replay.js';
import { checkRunFiles } from './runFiles.js';
import type { ModelClient } from './providers/types.js';
import { DEFAULT_LIMITS, type RunContext, type RunLimits } from './runContext.js';
import type { RunLog } from './runLog.js';
import { runLogPath } from '../config/projectLayout.js';
import { runMission, type MissionStatus } from './scheduler.js';
import { openRunServices, type RunServices } from './runServices.js';
import { emptyTotals, totalTokens, type UsageTotals } from './usage.js';
import { parseRunOptions, type RunOptions } from './runOptions.js';
import { runVariables, type RunConfig, type RunVariables } from './runConfig.js';
import { checkConfig, failedRunRefusal } from './resumeChecks.js';
import { checkWorkspace, workspaceIdentity } from './workspaceIdentity.js';
import { RunBusy, RunRefused } from './runRefused.js';
import { checkPluginsStart } from './pluginPreflight.js';
import { retryFailedTasks } from './taskAttempts.js';
import { datasetProblems } from './iteration/index.js';
import { queuedItems, queuedTaskExecutor } from './queuedTasks.js';
import { executeTaskUnit, runUnitLoop } from './unitRunner.js';
import { executeTaskHere } from './scheduler.js';
import { QUEUE_TIMING, runUnitKey } from './queueTiming.js';
import { shownRunStatus } from './runStatus.js';
import { BudgetLedger } from './budget/ledger.js';
import { restoreBudget } from './budget/restore.js';
import { storedTotals } from './budget/totals.js';
import { missionLimits, MISSION_SCOPE, type BudgetKind, type Limits } from './budget/limits.js';
import { OperatorDesk } from './operator/desk.js';
import { missionNeedsOperator } from './operator/needs.js';
import type { OperatorPrompt } from './operator/types.js';
import type { OperatorRequestRow } from '../store/index.js';
import type { ToolResult } from '../core/toolResults.js';

export type { RunOptions } from './runOptions.js';
export { RunBusy, RunRefused, type RefusalKind } from './runRefused.js';
export { failedRunRefusal } from './resumeChecks.js';

export interface RunEnvironment {
  graph: MissionGraph;
  /** The config path the user gave (file or directory), stored with the run for `resume`. */
  configPath: string;
  /** Content hashes of the files the config was loaded from, stored with the run for `resume`. */
  config?: RunConfig | undefined;
  /** A SQLite file path or a PostgreSQL connection string (never stored or logged: it may hold a password). */
  dbPath: string;
  progress: { stream: NodeJS.WritableStream; live: boolean };
  /** Aborted by the CLI on SIGINT. */
  interrupt: AbortSignal;
  limits?: Partial<RunLimits>;
  /** Test hook: shortens model retry backoff. */
  retryBaseDelayMs?: number;
  /** Receives every event of the run as it happens (the programmatic API's event stream). */
  onEvent?: (event: RunEvent) => void;
  /**
   * On PostgreSQL, aborted when this process hands the run over instead of interrupting it (a worker
   * that stops): its units of work go back to the queue for another runner, and tasks running on
   * other runners go on.
   */
  handOff?: AbortSignal;
  /** On PostgreSQL, whether this process also executes its run's tasks (default true; a worker runs them from its own loop). */
  executeOwnTasks?: boolean;
  /** Asks the operator at a terminal (approvals, questions); without it such calls wait and the run ends `waiting`. */
  operatorPrompt?: OperatorPrompt;
  /** Observes each run's events in this process (the OpenTelemetry export, when configured). */
  instrument?: Instrument;
  /** A test's mocked tools, by ref (squadron test): answered with these results, never executed. */
  toolMocks?: ReadonlyMap<string, ToolResult>;
}

export interface TaskReport {
  status: string;
  summary?: string;
  output?: unknown;
  error?: string;
  /** Why a skipped task did not run (a route not taken, a skipped dependency). */
  skipReason?: string;
  /** An iterated task's items: counts and each item's status, summary, output or error. */
  items?: ItemsReport;
}

export interface ItemsReport {
  total: number;
  completed: number;
  failed: number;
  list: { index: number; status: string; attempt: number; summary?: string; output?: unknown; error?: string }[];
}

export interface RunReport {
  runId: string;
  mission: string;
  status: MissionStatus;
  error?: string;
  tasks: Record<string, TaskReport>;
  usage: UsageTotals;
  workspaceDir: string;
  logPath: string;
  /** Every model answer came from a cassette: nothing was spent (the cost is 0). */
  replayed?: true;
  /** Each budget (`mission` or a task) with its limits and what it has spent, when any is set. */
  budgets?: BudgetReport[];
  /** A waiting run: the requests its operator has to decide before `resume`. */
  waitingFor?: OperatorRequestRow[];
  /** The database failed mid-run (full, an I/O error, a lost connection): the run stopped as interrupted, resumable once the cause is gone. */
  storeFailed?: true;
}

export interface BudgetReport {
  scope: string;
  limits: Limits;
  spent: Partial<Record<BudgetKind, number>>;
}

export interface StartRequest {
  mission: Mission;
  inputs: Record<string, Value>;
  /** Options without what the runtime derives (the workspace may depend on the run id). */
  options: Omit<RunOptions, 'workspaceDir' | 'taskGraph'>;
  workspaceFor: (runId: string) => string;
  /** The id to store the run under (a webhook answered with it before the run was stored); default: a new one. */
  runId?: string;
  /** Called with the new run id before any work starts (the CLI prints it first). */
  onRunId?: (runId: string) => void;
  /** Called when this mission's previous run was interrupted and can be resumed. */
  onPreviousInterrupted?: (runId: string) => void;
}

export async function startRun(env: RunEnvironment, request: StartRequest): Promise<RunReport> {
  const redactor = secretRedactor(env.graph);
  const store = await openDatabase(env.dbPath, { redactor });
  try {
    const { runId, options } = await createRun(env, store, request);
    request.onRunId?.(runId);
    return await execute(env, store, redactor, { runId, mission: request.mission, inputs: request.inputs, options, resumed: false });
  } finally {
    await store.close();
  }
}

/**
 * Stores the run and queues its coordination for whichever runner (`squadron worker`) claims it, and
 * returns its id without running anything: PostgreSQL only.
 */
export async function enqueueRun(env: RunEnvironment, request: StartRequest): Promise<string> {
  const store = await openDatabase(env.dbPath, { redactor: secretRedactor(env.graph) });
  try {
    const units = store.units;
    if (!units) throw new RunRefused(`--detach needs a PostgreSQL database (--db postgres://… or SQUADRON_DATABASE_URL): runs queued on ${shownDatabase(env.dbPath)} would have no worker to take them`, 'usage');
    const { runId } = await createRun(env, store, request);
    await units.enqueue(runUnitKey(runId));
    request.onRunId?.(runId);
    return runId;
  } finally {
    await store.close();
  }
}

async function createRun(env: RunEnvironment, store: Store, request: StartRequest): Promise<{ runId: string; options: RunOptions }> {
  const previous = await store.runs.latestForMission(request.mission.name, env.configPath);
  if (previous && (previous.status === 'interrupted' || (previous.status === 'running' && !(await runIsActive(store, previous.id))))) {
    request.onPreviousInterrupted?.(previous.id);
  }
  checkModelCredentials(env.graph, request.mission, request.options.replay);
  await checkPluginsStart(env.graph);
  const problems = datasetProblems(request.mission, request.inputs);
  if (problems.length > 0) {
    throw new RunRefused(`${problems.length} dataset item${problems.length === 1 ? '' : 's'} do${problems.length === 1 ? 'es' : ''} not match the schema; nothing ran:\n  ${problems.join('\n  ')}`, 'usage');
  }
  const runId = request.runId ?? newId('run');
  // A given id is started once: the runs table's primary key refuses a second start anywhere.
  if (request.runId !== undefined && (await store.runs.get(runId))) throw new RunBusy(`run ${runId} is already stored`);
  const workspaceDir = request.workspaceFor(runId);
  checkRunFiles(workspaceDir, request.options);
  // Made now, so its identity is recorded with the run (a resume checks it is still the same folder).
  makePrivateDirs(workspaceDir);
  const workspace = workspaceIdentity(workspaceDir);
  const taskGraph = request.mission.tasks.map((t) => ({ name: t.name, dependsOn: [...t.dependsOn], routes: t.router.map((r) => r.target), sendTo: [...t.sendTo], ...(t.direct ? { direct: true as const } : {}) }));
  const options: RunOptions = { ...request.options, workspaceDir, taskGraph };
  await store.runs.create({
    id: runId,
    mission: request.mission.name,
    configPath: env.configPath,
    inputs: request.inputs as Record<string, unknown>,
    options: { ...options },
    ...(env.config ? { config: env.config } : {}),
    variables: runVariables(env.graph.variables),
  });
  if (workspace) await store.runs.setWorkspace(runId, workspace);
  await store.runs.setBudget(runId, { limits: Object.fromEntries(missionLimits(request.mission, [])), elapsed: {} });
  return { runId, options };
}

/** The stored facts `resume` needs before it can load the config: which mission, from where, with what. */
export interface StoredRunFacts {
  mission: string;
  configPath: string;
  status: string;
  /** Tasks whose last attempt failed. */
  failedTasks: string[];
  /** Undefined for a run stored before variables were recorded. */
  variables?: RunVariables;
}

/**
 * The run to resume, read on the connection resume then continues it on: the database is opened once
 * (for writing) per resume. The caller closes `store` when done, whether or not it resumed the run.
 */
export interface StoredRun {
  facts: StoredRunFacts;
  store: Store;
}

/** Undefined (and nothing left open) when the database holds no such run. */
export async function openStoredRun(dbPath: string, runId: string, onNote?: (message: string) => void): Promise<StoredRun | undefined> {
  const store = await openDatabase(dbPath, onNote ? { onNote } : {});
  try {
    const run = await store.runs.get(runId);
    if (!run) {
      await store.close();
      return undefined;
    }
    const failedTasks = (await store.tasks.list(runId)).filter((t) => t.status === 'failed').map((t) => t.name);
    const facts: StoredRunFacts = { mission: run.mission, configPath: run.configPath, status: run.status, failedTasks };
    if (run.variables) facts.variables = run.variables;
    return { facts, store };
  } catch (error) {
    await store.close();
    throw error;
  }
}

export interface ResumeOptions {
  /** Re-run the failed tasks from fresh sessions (otherwise a run with a failed task is refused). */
  retryFailed?: boolean;
  /** Go ahead although the config or a variable differs from the run's (recorded on the run). */
  allowConfigChange?: boolean;
  /** Go ahead although the run's workspace is gone (a new empty one is made) or was replaced by another folder. */
  acceptNewWorkspace?: boolean;
  /** Called once the run is this process's to continue, before any work (the CLI prints the run id). */
  onStart?: (runId: string) => void;
  /** Things the caller should tell the user (an unchecked older run, an accepted config change). */
  onNote?: (message: string) => void;
  /** The database as openStoredRun opened it (env.dbPath): used instead of opening it again, and left open. */
  opened?: Store;
  /** `--budget`: limits raised for this and later resumes, by scope (`mission` or a task's name). */
  budget?: Record<string, Limits>;
}

export async function resumeRun(env: RunEnvironment, runId: string, opts: ResumeOptions = {}): Promise<RunReport> {
  const redactor = secretRedactor(env.graph);
  const store = opts.opened?.withRedactor(redactor) ?? (await openDatabase(env.dbPath, { redactor }));
  try {
    const prepared = await prepareResume(env, store, runId, opts);
    if (prepared.completed) {
      return await report(store, env.graph, prepared.request, { status: 'completed' }, runLogPath(env.graph.projectRoot, runId));
    }
    const onLeased = async (bus: EventBus): Promise<void> => {
      for (const event of await prepared.leasedWrites()) bus.emit(event);
    };
    return await execute(env, store, redactor, { ...prepared.request, onLeased, onStart: opts.onStart, budget: opts.budget });
  } finally {
    if (!opts.opened) await store.close();
  }
}

/**
 * `resume --detach` (PostgreSQL): the same checks and writes as resumeRun, then the run's coordination
 * is queued again for whichever runner claims it (a `squadron worker`), which continues the run and
 * queues its unfinished tasks; returns at once. A completed run is left as it is.
 */
export async function requeueRun(env: RunEnvironment, runId: string, opts: ResumeOptions = {}): Promise<'queued' | 'completed'> {
  const redactor = secretRedactor(env.graph);
  const store = opts.opened?.withRedactor(redactor) ?? (await openDatabase(env.dbPath, { redactor }));
  try {
    const units = store.units;
    if (!units) throw new RunRefused(`resume --detach needs a PostgreSQL database (--db postgres://… or SQUADRON_DATABASE_URL): a run of ${shownDatabase(env.dbPath)} would have no worker to take it; resume it without --detach`, 'usage');
    const prepared = await prepareResume(env, store, runId, opts);
    if (prepared.completed) return 'completed';
    // The run's lease while its writes are made: refused while a live process drives the run.
    const owner = { id: `own_${randomUUID()}`, pid: process.pid, host: hostname() };
    const lease = await store.leases.acquire(runId, owner, DEFAULT_LEASE_STALE_MS);
    if (!lease.ok) throw busy(runId, lease.holder);
    try {
      const events = await prepared.leasedWrites();
      if (opts.budget) events.push({ type: 'budget.raised', limits: opts.budget });
      await store.events.appendMany(events.map((event) => ({ runId, type: event.type, ...('task' in event && typeof event.task === 'string' ? { task: event.task } : {}), data: event })));
      await units.requeue(runUnitKey(runId));
      await store.runs.setStatus(runId, 'running');
    } finally {
      await store.leases.release(runId, owner.id);
    }
    opts.onStart?.(runId);
    return 'queued';
  } finally {
    if (!opts.opened) await store.close();
  }
}

/** A resume's checks, in order, before anything is written; `leasedWrites` makes its writes (under the lease) and returns their events. */
async function prepareResume(
  env: RunEnvironment,
  store: Store,
  runId: string,
  opts: ResumeOptions,
): Promise<{ completed: boolean; request: ExecuteRequest; leasedWrites: () => Promise<RunEvent[]> }> {
  const run = await store.runs.get(runId);
  if (!run) throw new RunRefused(`no run ${runId} in ${shownDatabase(env.dbPath)}`, 'usage');
  const mission = env.graph.missions.find((m) => m.name === run.mission);
  if (!mission) throw new RunRefused(`run ${runId} is of mission "${run.mission}", which is not in the loaded config`, 'usage');
  const options = parseRunOptions(runId, run.options);
  const request: ExecuteRequest = { runId, mission, inputs: run.inputs as Record<string, Value>, options, resumed: true };
  if (run.status === 'completed') return { completed: true, request, leasedWrites: async () => [] };
  if (!opts.retryFailed) {
    const refusal = failedRunRefusal(runId, run.status, (await store.tasks.list(runId)).filter((t) => t.status === 'failed').map((t) => t.name));
    if (refusal) throw refusal;
  }
  for (const scope of Object.keys(opts.budget ?? {})) {
    if (scope !== MISSION_SCOPE && !mission.tasks.some((t) => t.name === scope)) {
      throw new RunRefused(`--budget ${scope}.…: mission "${mission.name}" has no task "${scope}"`, 'usage');
    }
  }
  const configUpdate = checkConfig({ config: env.config, variables: env.graph.variables }, run, opts);
  checkRunFiles(options.workspaceDir, options);
  const workspace = checkWorkspace(run, options.workspaceDir, Boolean(opts.acceptNewWorkspace));
  checkModelCredentials(env.graph, mission, options.replay);
  const leasedWrites = async (): Promise<RunEvent[]> => {
    const events: RunEvent[] = [];
    if (workspace.record) {
      if (workspace.record === 'created') makePrivateDirs(options.workspaceDir);
      const identity = workspaceIdentity(options.workspaceDir);
      if (identity) await store.runs.setWorkspace(runId, identity);
      if (workspace.note) opts.onNote?.(workspace.note);
    }
    if (configUpdate) await store.runs.updateConfig(runId, configUpdate);
    if (configUpdate?.changes) events.push({ type: 'run.config_changed', runId, changes: configUpdate.changes });
    if (opts.retryFailed) {
      for (const { task, attempt } of await retryFailedTasks(store, runId)) events.push({ type: 'task.retried', task, attempt });
    }
    return events;
  };
  return { completed: false, request, leasedWrites };
}

function busy(runId: string, h: { pid: number; host: string; heartbeatAt: string }): RunBusy {
  return new RunBusy(`run ${runId} is being executed by another process (pid ${h.pid} on ${h.host}, heartbeat ${h.heartbeatAt}); wait for it to finish or stop it first`);
}

interface ExecuteRequest {
  runId: string;
  mission: Mission;
  inputs: Record<string, Value>;
  options: RunOptions;
  resumed: boolean;
  /** Writes that need the lease (a resume's config record, task retries), run before the scheduler. */
  onLeased?: (bus: EventBus) => Promise<void>;
  /** Called once the lease is held. */
  onStart?: ((runId: string) => void) | undefined;
  /** `resume --budget`. */
  budget?: Record<string, Limits> | undefined;
}

export const LEASE_HEARTBEAT_MS = 2_000;

/** A live process holds the run's lease, or (PostgreSQL) its coordination waits in the queue or is held by a live runner. */
export async function runIsActive(store: Store, runId: string): Promise<boolean> {
  return (await shownRunStatus(store, runId, 'running')) !== 'interrupted';
}



async function execute(env: RunEnvironment, store: Store, redactor: Redactor, req: ExecuteRequest): Promise<RunReport> {
  const { graph } = env;
  const owner = { id: `own_${randomUUID()}`, pid: process.pid, host: hostname() };
  const lease = await store.leases.acquire(req.runId, owner, DEFAULT_LEASE_STALE_MS);
  if (!lease.ok) throw busy(req.runId, lease.holder);
  // On PostgreSQL the run's coordination is itself a unit of work, held beside the lease: if this
  // process dies, a worker claims it once it goes stale and continues the run.
  const units = store.units;
  const runKey = runUnitKey(req.runId);
  let runUnitId = (await units?.claimOwn(runKey, owner))?.id;
  // A stop asked for before this start (or resume) is spent: continuing the run is asked on purpose.
  await store.runCancels.clear(req.runId);
  req.onStart?.(req.runId);
  // Losing the lease (another process took it over) stops this runner: two must never drive one run.
  const leaseLost = new AbortController();
  // A stop asked for through the store (the server's cancel, from any process) ends the run as Ctrl-C does.
  const cancelled = new AbortController();
  const beat = async (): Promise<boolean> => {
    if (!(await store.leases.heartbeat(req.runId, owner.id))) return false;
    if (!cancelled.signal.aborted && (await store.runCancels.requested(req.runId))) cancelled.abort();
    if (units && runUnitId !== undefined && !(await units.heartbeat(runUnitId, owner.id))) runUnitId = (await units.claimOwn(runKey, owner)).id;
    return true;
  };
  const heartbeat = startHeartbeat(beat, () => leaseLost.abort(), LEASE_HEARTBEAT_MS);
  // A database that fails under any call stops the store (store/failStop.ts) and the run with it.
  const stop = failStopOf(store);
  const storeFailed = new AbortController();
  stop?.onFailure(() => storeFailed.abort());
  const interrupt = AbortSignal.any([env.interrupt, cancelled.signal, leaseLost.signal, storeFailed.signal]);
  const logPath = runLogPath(graph.projectRoot, req.runId);

  // Whatever fails from here on, the run is closed with a status and its lease released, so it is
  // never left looking like a live run.
  const opened: { bus?: EventBus; rows?: EventRows; log?: RunLog; instrument?: RunInstrument } = {};
  let services: RunServices | undefined;
  let progress: ProgressView | undefined;
  let result: { status: MissionStatus; error?: string };
  let budget: BudgetLedger | undefined;
  try {
    const initial = await initialTaskStates(store, req.runId);
    // A resumed run's counter starts from what its earlier processes spent.
    const spentBefore = req.resumed ? await store.turns.totalsForRun(req.runId) : undefined;
    const budgetState = await restoreBudget(store, req.runId, req.mission, req.budget, req.resumed);
    services = await openRunServices(
      {
        graph,
        mission: req.mission,
        runId: req.runId,
        store,
        redactor,
        workspaceDir: req.options.workspaceDir,
        clients: modelClients(req.options, redactor, env),
        resumed: req.resumed,
        ...(env.toolMocks ? { mocks: env.toolMocks } : {}),
        // The totals live in the database, shared with every runner of the run; calls outside a unit
        // of work (an iterated task's items here) reserve under this process's run lease.
        budget: (emit) => new BudgetLedger(budgetState, emit, { totals: storedTotals(store, req.runId), defaultHolder: () => ({ owner: owner.id }) }),
        operator: (bus) => new OperatorDesk(store, bus, env.operatorPrompt),
        instrument: env.instrument,
        onBus: (bus) => {
          progress = new ProgressView(env.progress.stream, env.progress.live, req.mission.tasks.map((t) => t.name), initial, {
            tokens: spentBefore === undefined ? 0 : totalTokens(spentBefore),
            cost: spentBefore?.costUsd ?? 0,
          });
          bus.subscribe('progress', progress.sink);
          if (env.onEvent) bus.subscribe('caller', env.onEvent);
        },
      },
      opened,
    );
    const { bus, models } = services;
    const ledger = services.budget!;
    budget = ledger;
    const operator = services.operator!;
    models.warmUp([req.mission.commander.model, ...req.mission.tasks.flatMap((t) => (t.worker ? [t.worker.model] : []))]);

    const ctx: RunContext = {
      graph,
      mission: req.mission,
      runId: req.runId,
      store,
      bus,
      models,
      tools: services.runTools.resolver,
      workspaceDir: req.options.workspaceDir,
      signal: interrupt,
      inputs: req.inputs,
      overrides: req.options.overrides,
      limits: { ...DEFAULT_LIMITS, ...env.limits },
      budget: ledger,
      operator,
    };

    await store.runs.setStatus(req.runId, 'running');
    const started: RunEvent = { type: 'run.started', runId: req.runId, mission: req.mission.name, resumed: req.resumed };
    if (req.options.replay) started.replayFrom = req.options.replay;
    bus.emit(started);
    if (req.budget) bus.emit({ type: 'budget.raised', limits: req.budget });
    if (ledger.active) bus.emit({ type: 'budget.limits', limits: Object.fromEntries(ledger.limits) });
    await store.runs.setBudget(req.runId, { ...budgetRecord(ledger), since: new Date().toISOString() });
    await req.onLeased?.(bus);
    // Budgets hold across runners (their totals are in the database), so a budgeted run's tasks go
    // to the queue like any other's. A run that may ask its operator keeps its tasks here: the desk
    // (and its terminal) is in this process.
    if (units && !missionNeedsOperator(graph, req.mission)) {
      // This process is a runner of its own run's tasks and items too; workers that are up may take some.
      // Items of a budgeted run stay on this coordinator's slots, reserving under the run's lease.
      const handOff = env.handOff ?? new AbortController().signal;
      const runCtx: RunContext = ledger.active ? ctx : { ...ctx, itemDispatch: queuedItems(units, QUEUE_TIMING, handOff) };
      const stopLocal = new AbortController();
      const local = env.executeOwnTasks === false ? Promise.resolve() : runUnitLoop({
        units,
        owner,
        filter: { runId: req.runId, kinds: ['task'] },
        concurrency: req.mission.maxParallel,
        ...QUEUE_TIMING,
        stop: AbortSignal.any([stopLocal.signal, interrupt]),
        handle: async (unit) => {
          await executeTaskUnit(runCtx, unit, units, owner.id, LEASE_HEARTBEAT_MS);
        },
      });
      try {
        result = await runMission(runCtx, interrupt, queuedTaskExecutor(units, QUEUE_TIMING, handOff));
      } finally {
        stopLocal.abort();
        await local;
      }
    } else {
      result = await runMission(ctx, interrupt, executeTaskHere);
    }
  } catch (error) {
    result = { status: 'failed', error: error instanceof Error ? error.message : String(error) };
  } finally {
    await services?.runTools.close();
  }
  if (stop?.error) return closeAfterStoreFailure(env, stop, redactor, req, { heartbeat, owner, runUnitId, logPath, opened, progress });
  const finished: RunEvent = { type: 'run.finished', runId: req.runId, status: result.status };
  if (result.error) finished.error = result.error;
  opened.bus?.emit(finished);
  progress?.close();
  // The run's spans are sent before the process reports (and may exit).
  await opened.instrument?.close();
  await heartbeat.stop();
  await opened.rows?.settled();
  if (units && runUnitId !== undefined) {
    if (env.handOff?.aborted) await units.release(runUnitId, owner.id);
    else await units.finish(runUnitId, owner.id, { status: result.status });
  }
  if (budget) {
    // What every runner settled, not only this process.
    await budget.refresh().catch(() => undefined);
    await store.runs.setBudget(req.runId, budgetRecord(budget));
  }
  // The status before the lease: released first, a run still stored `running` would look crashed
  // for an instant to a server looking for crashed runs, which would resume a run stopped on purpose.
  await store.runs.setStatus(req.runId, result.status, result.error);
  await store.leases.release(req.runId, owner.id);
  opened.log?.close();
  const out = await report(store, graph, req, result, logPath);
  if (result.status === 'waiting') out.waitingFor = await store.operatorRequests.list(req.runId, { pendingOnly: true });
  if (budget?.active) out.budgets = [...budget.limits].map(([scope, limits]) => ({ scope, limits, spent: budget!.spent(scope) }));
  return out;
}

/**
 * The run's database failed mid-run: nothing more of the run was stored after the failure, so it is
 * left as a crash at that instant leaves it, and `resume` continues it from its ledger once the cause
 * is gone. What can still be written is (its status interrupted, its lease released, its unit of
 * coordination finished) — best effort, through the store without its stop — and the report says
 * which run stopped and why.
 */
async function closeAfterStoreFailure(
  env: RunEnvironment,
  stop: FailStop,
  redactor: Redactor,
  req: ExecuteRequest,
  run: { heartbeat: { stop(): Promise<void> }; owner: { id: string }; runUnitId: string | undefined; logPath: string; opened: { bus?: EventBus; rows?: EventRows; log?: RunLog }; progress: ProgressView | undefined },
): Promise<RunReport> {
  const error = `${stop.error!.message}; the run stopped as interrupted: resume it once the cause is gone (free space, the connection back)`;
  run.opened.bus?.emit({ type: 'run.finished', runId: req.runId, status: 'interrupted', error });
  run.progress?.close();
  await run.heartbeat.stop();
  await run.opened.rows?.settled();
  run.opened.log?.logger.error({ err: stop.error }, 'the database failed: the run stopped as interrupted');
  run.opened.log?.close();
  const store = stop.unguarded.withRedactor(redactor);
  const bestEffort = async (write: () => Promise<unknown> | undefined): Promise<void> => {
    await Promise.resolve()
      .then(write)
      .catch(() => undefined);
  };
  // A worker coordinating the run gives it back to the queue, as its crash would let it go stale.
  const runUnitId = run.runUnitId;
  if (runUnitId !== undefined) await bestEffort(() => (env.handOff ? store.units?.release(runUnitId, run.owner.id) : store.units?.finish(runUnitId, run.owner.id, { status: 'interrupted' })));
  await bestEffort(() => store.leases.release(req.runId, run.owner.id));
  await bestEffort(() => store.runs.setStatus(req.runId, 'interrupted', error));
  const result = { status: 'interrupted' as const, error };
  try {
    return { ...(await report(store, env.graph, req, result, run.logPath)), storeFailed: true };
  } catch {
    return { runId: req.runId, mission: req.mission.name, status: 'interrupted', error, tasks: {}, usage: emptyTotals(), workspaceDir: req.options.workspaceDir, logPath: run.logPath, storeFailed: true };
  }
}

/** The run row's budget record: each budget's limits and the time its scope has run so far. */
function budgetRecord(ledger: BudgetLedger): RunBudget {
  const limits = Object.fromEntries(ledger.limits);
  return { limits, elapsed: Object.fromEntries(Object.keys(limits).map((scope) => [scope, ledger.spent(scope).duration ?? 0])) };
}

/** The client of each model block: from the block, or one shared cassette player under --replay. */
export function modelClients(options: RunOptions, redactor: Redactor, env: RunEnvironment): (block: ModelBlock) => ModelClient {
  let replay: ModelClient | undefined;
  return (block) => {
    if (options.replay) return (replay ??= createReplayClient({ cassette: options.replay, redactor }));
    const factoryOptions: ModelClientFactoryOptions = { redactor };
    if (env.retryBaseDelayMs !== undefined) factoryOptions.retryBaseDelayMs = env.retryBaseDelayMs;
    if (options.record) factoryOptions.record = { cassette: options.record };
    return createModelClient(block, factoryOptions);
  };
}

/** On resume, the progress view starts from the stored task states. */
async function initialTaskStates(store: Store, runId: string): Promise<Map<string, string>> {
  return new Map((await store.tasks.list(runId)).map((t) => [t.name, t.status]));
}

async function report(store: Store, graph: MissionGraph, req: ExecuteRequest, result: { status: MissionStatus; error?: string }, logPath: string): Promise<RunReport> {
  const tasks: Record<string, TaskReport> = {};
  const rows = new Map((await store.tasks.list(req.runId)).map((r) => [r.name, r]));
  const skipReasons = [...rows.values()].some((r) => r.status === 'skipped') ? await storedSkipReasons(store, req.runId) : new Map<string, string>();
  for (const task of req.mission.tasks) {
    const row = rows.get(task.name);
    const entry: TaskReport = { status: row?.status ?? 'pending' };
    if (row?.summary !== undefined) entry.summary = row.summary;
    if (row?.output !== undefined) entry.output = row.output;
    if (row?.error !== undefined) entry.error = row.error;
    const reason = row?.status === 'skipped' ? skipReasons.get(task.name) : undefined;
    if (reason !== undefined) entry.skipReason = reason;
    if (task.iterator !== undefined) entry.items = await itemsReport(store, req.runId, task.name);
    tasks[task.name] = entry;
  }
  const usage = { ...emptyTotals(), ...(await store.turns.totalsForRun(req.runId)) };
  const out: RunReport = { runId: req.runId, mission: req.mission.name, status: result.status, tasks, usage, workspaceDir: req.options.workspaceDir, logPath };
  if (result.error) out.error = result.error;
  if (replaysEveryModel(graph, req.mission, req.options.replay)) out.replayed = true;
  return out;
}

async function itemsReport(store: Store, runId: string, task: string): Promise<ItemsReport> {
  const rows = await store.items.list(runId, task);
  const list = rows.map((r) => {
    const item: ItemsReport['list'][number] = { index: r.index, status: r.status, attempt: r.attempt };
    if (r.summary !== undefined) item.summary = r.summary;
    if (r.output !== undefined) item.output = r.output;
    if (r.error !== undefined) item.error = r.error;
    return item;
  });
  return { total: rows.length, completed: rows.filter((r) => r.status === 'completed').length, failed: rows.filter((r) => r.status === 'failed').length, list };
}

/** The reason of each task's first `task.skipped` event (the tasks table has no column for it). */
async function storedSkipReasons(store: Store, runId: string): Promise<Map<string, string>> {
  const reasons = new Map<string, string>();
  for (const event of await store.events.list(runId)) {
    if (event.type !== 'task.skipped' || event.task === undefined || reasons.has(event.task)) continue;
    const reason = (event.data as { reason?: unknown } | null)?.reason;
    if (typeof reason === 'string') reasons.set(event.task, reason);
  }
  return reasons;
}

