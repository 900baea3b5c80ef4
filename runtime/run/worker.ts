// `squadron worker`: a long-running runner on a PostgreSQL database. It claims units of work from
// the shared queue — tasks, and items of parallel iterated tasks, of any run (at most `concurrency`
// at once) and the coordination of runs queued with `run --detach` or left by a runner that died —
// runs them, and on stop gives back what it holds unfinished, so another runner continues it from
// the ledger.

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { failStopOf, openDatabase, shownDatabase, type RunRow, type Store, type UnitRow, type UnitsRepo } from '../../store/index.js';
import { QUEUE_TIMING } from '../schedule/queueTiming.js';
import { LEASE_HEARTBEAT_MS, resumeRun, RunRefused, type RunEnvironment } from './run.js';
import { executeTaskUnit, runUnitLoop } from '../schedule/unitRunner.js';
import { openUnitContext, type UnitContext } from './unitContext.js';
import { parseItemLabel } from '../../core/sessionLabels.js';

export interface WorkerRequest {
  dbPath: string;
  /** How many task units this process executes at once. */
  concurrency: number;
  /** Aborted on SIGINT/SIGTERM: stop claiming, give back what is unfinished, return. */
  stop: AbortSignal;
  /** The environment run `run` executes in: its config loaded from where it was started. Throws with one line when it cannot. */
  environmentFor(run: RunRow, stop: AbortSignal): Promise<RunEnvironment>;
  /** One line per unit taken and finished. */
  onNote(line: string): void;
}

export async function runWorker(req: WorkerRequest): Promise<void> {
  const store = await openDatabase(req.dbPath);
  try {
    const units = store.units;
    if (!units) {
      throw new RunRefused(`squadron worker needs a PostgreSQL database (--db postgres://… or SQUADRON_DATABASE_URL); ${shownDatabase(req.dbPath)} is a SQLite file, whose runs have one runner each`, 'usage');
    }
    const owner = { id: `wrk_${randomUUID()}`, pid: process.pid, host: hostname() };
    const contexts = new RunContexts(store, req);
    // A database that fails under the worker stops it as a crash would (store/failStop.ts): what it
    // holds goes stale and another runner takes it over; the command exits with the failure.
    const failStop = failStopOf(store);
    const failed = new AbortController();
    failStop?.onFailure(() => failed.abort());
    const stop = AbortSignal.any([req.stop, failed.signal]);
    const common = { units, owner, ...QUEUE_TIMING, stop, onClaimError: (error: unknown) => req.onNote(`cannot take work: ${message(error)}`) };
    await Promise.all([
      runUnitLoop({ ...common, filter: { kinds: ['task'] }, concurrency: req.concurrency, handle: (unit) => executeTask(unit, units, owner.id, contexts, req) }),
      // Coordinating a run is mostly waiting for its tasks: it does not take a task slot.
      runUnitLoop({ ...common, filter: { kinds: ['run'] }, concurrency: 64, handle: (unit) => coordinate(unit, units, owner.id, store, req) }),
    ]);
    if (failStop?.error) throw failStop.error;
  } finally {
    await store.close();
  }
}

async function executeTask(unit: UnitRow, units: UnitsRepo, ownerId: string, contexts: RunContexts, req: WorkerRequest): Promise<void> {
  // An item of a parallel iterated task is a unit named by its label, `task[i]`.
  const what = `${parseItemLabel(unit.task) ? 'item' : 'task'} ${unit.task} of ${unit.runId}`;
  req.onNote(`took ${what}${unit.claims > 1 ? ` (taken over: claim ${unit.claims})` : ''}`);
  let context: UnitContext;
  try {
    context = await contexts.acquire(unit.runId);
  } catch (error) {
    const why = `cannot run ${what}: ${message(error)}`;
    await units.finish(unit.id, ownerId, { status: 'failed', error: why });
    req.onNote(why);
    return;
  }
  try {
    const end = await executeTaskUnit(context.ctx, unit, units, ownerId, LEASE_HEARTBEAT_MS);
    req.onNote(end === 'released' ? `gave back ${what}` : `finished ${what}: ${end}`);
  } catch (error) {
    req.onNote(`stopped ${what}: ${message(error)}`);
    await units.release(unit.id, ownerId).catch(() => undefined);
  } finally {
    await contexts.release(unit.runId);
  }
}

async function coordinate(unit: UnitRow, units: UnitsRepo, ownerId: string, store: Store, req: WorkerRequest): Promise<void> {
  req.onNote(`took run ${unit.runId}${unit.claims > 1 ? ` (taken over: claim ${unit.claims})` : ''}`);
  try {
    const run = await store.runs.get(unit.runId);
    if (!run) throw new Error(`no run ${unit.runId}`);
    const env = await req.environmentFor(run, req.stop);
    // resumeRun claims the run's unit for its own lease owner, and finishes or gives it back at the end.
    const report = await resumeRun({ ...env, interrupt: req.stop, handOff: req.stop, executeOwnTasks: false }, unit.runId, { opened: store });
    req.onNote(req.stop.aborted && report.status === 'interrupted' ? `gave back run ${unit.runId}` : `finished run ${unit.runId}: ${report.status}`);
  } catch (error) {
    // The run cannot be continued by this runner (its config, a secret, a refusal): say so once.
    await units.finish(unit.id, ownerId, { status: 'failed', error: message(error) }).catch(() => undefined);
    req.onNote(`cannot continue run ${unit.runId}: ${message(error)}`);
  }
}

/** One context per run with units in flight here, shared by them, closed after the last. */
class RunContexts {
  private readonly open = new Map<string, { context: Promise<UnitContext>; users: number }>();

  constructor(
    private readonly store: Store,
    private readonly req: WorkerRequest,
  ) {}

  async acquire(runId: string): Promise<UnitContext> {
    let entry = this.open.get(runId);
    if (!entry) {
      const context = (async () => {
        const run = await this.store.runs.get(runId);
        if (!run) throw new Error(`no run ${runId}`);
        return openUnitContext(await this.req.environmentFor(run, this.req.stop), this.store, runId, this.req.stop);
      })();
      entry = { context, users: 0 };
      this.open.set(runId, entry);
      context.catch(() => this.open.delete(runId));
    }
    entry.users += 1;
    return entry.context;
  }

  async release(runId: string): Promise<void> {
    const entry = this.open.get(runId);
    if (!entry) return;
    entry.users -= 1;
    if (entry.users > 0) return;
    this.open.delete(runId);
    await (await entry.context).close();
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
