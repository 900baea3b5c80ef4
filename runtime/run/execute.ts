// The executing step both entry points share: takes the run's lease, builds its RunContext (store,
// event sinks, models, tools, budgets, operator) and hands it to the scheduler, then reports.

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ModelBlock } from '../../config/graph.js';
import type { EventRows } from './eventRows.js';
import { startHeartbeat } from '../schedule/leaseHeartbeat.js';
import { DEFAULT_LEASE_STALE_MS, failStopOf, type FailStop, type Redactor, type RunBudget, type Store } from '../../store/index.js';
import type { EventBus, RunEvent } from '../kernel/events.js';
import type { RunInstrument } from './instrument.js';
import { createModelClient, type ModelClientFactoryOptions } from '../providers/factory.js';
import { createReplayClient } from '../providers/replay.js';
import type { ModelClient } from '../providers/types.js';
import { DEFAULT_LIMITS, type RunContext } from '../agents/runContext.js';
import type { RunLog } from './runLog.js';
import { runLogPath } from '../../config/projectLayout.js';
import { runMission, type MissionStatus } from '../schedule/scheduler.js';
import { openRunServices, type RunServices } from './runServices.js';
import { emptyTotals, totalTokens } from '../kernel/usage.js';
import type { RunOptions } from './runOptions.js';
import { RunBusy } from './runRefused.js';
import { queuedItems, queuedTaskExecutor } from '../schedule/queuedTasks.js';
import { executeTaskUnit, runUnitLoop } from '../schedule/unitRunner.js';
import { executeTaskHere } from '../schedule/scheduler.js';
import { QUEUE_TIMING, runUnitKey } from '../schedule/queueTiming.js';
import { shownRunStatus } from '../kernel/runStatus.js';
import { BudgetLedger } from '../budget/ledger.js';
import { restoreBudget } from '../budget/restore.js';
import { storedTotals } from '../budget/totals.js';
import { OperatorDesk } from '../operator/desk.js';
import { missionNeedsOperator } from '../operator/needs.js';
import type { ExecuteRequest, RunEnvironment, RunWatcher } from './environment.js';
import { report, type RunReport } from './report.js';

export function busy(runId: string, h: { pid: number; host: string; heartbeatAt: string }): RunBusy {
  return new RunBusy(`run ${runId} is being executed by another process (pid ${h.pid} on ${h.host}, heartbeat ${h.heartbeatAt}); wait for it to finish or stop it first`);
}

export const LEASE_HEARTBEAT_MS = 2_000;

/** Takes `runId`'s lease for this process (a new owner); refused (RunBusy) while a live process holds it. */
export async function takeRunLease(store: Store, runId: string): Promise<{ id: string; pid: number; host: string }> {
  const owner = { id: `own_${randomUUID()}`, pid: process.pid, host: hostname() };
  const lease = await store.leases.acquire(runId, owner, DEFAULT_LEASE_STALE_MS);
  if (!lease.ok) throw busy(runId, lease.holder);
  return owner;
}

/** A live process holds the run's lease, or (PostgreSQL) its coordination waits in the queue or is held by a live runner. */
export async function runIsActive(store: Store, runId: string): Promise<boolean> {
  return (await shownRunStatus(store, runId, 'running')) !== 'interrupted';
}



export async function execute(env: RunEnvironment, store: Store, redactor: Redactor, req: ExecuteRequest): Promise<RunReport> {
  const { graph } = env;
  const owner = await takeRunLease(store, req.runId);
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
  let progress: RunWatcher | undefined;
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
          progress = env.watch?.({
            tasks: req.mission.tasks.map((t) => t.name),
            states: initial,
            spent: { tokens: spentBefore === undefined ? 0 : totalTokens(spentBefore), cost: spentBefore?.costUsd ?? 0 },
          });
          if (progress) bus.subscribe('progress', progress.sink);
          if (env.onEvent) bus.subscribe('caller', env.onEvent);
        },
      },
      opened,
    );
    const { bus, models } = services;
    const ledger = services.budget!;
    budget = ledger;
    models.warmUp([req.mission.commander.model, ...req.mission.tasks.flatMap((t) => (t.worker ? [t.worker.model] : []))]);

    const ctx = services.context({ signal: interrupt, inputs: req.inputs, overrides: req.options.overrides, limits: { ...DEFAULT_LIMITS, ...env.limits } });

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
  run: { heartbeat: { stop(): Promise<void> }; owner: { id: string }; runUnitId: string | undefined; logPath: string; opened: { bus?: EventBus; rows?: EventRows; log?: RunLog }; progress: RunWatcher | undefined },
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
    if (env.modelClient) return env.modelClient(block);
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
