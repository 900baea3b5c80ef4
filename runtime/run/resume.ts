// `resume`: continues a stored run where it stopped (the same sessions, the config it recorded,
// raised budgets), here or (PostgreSQL) queued for any runner.

import type { Value } from '../../config/hcl/value.js';
import { makePrivateDirs, openDatabase, shownDatabase, type Store } from '../../store/index.js';
import { secretRedactor } from './secretRedactor.js';
import type { EventBus, RunEvent } from '../kernel/events.js';
import { checkModelCredentials } from './modelCredentials.js';
import { checkRunFiles } from './runFiles.js';
import { runLogPath } from '../../config/projectLayout.js';
import { parseRunOptions } from './runOptions.js';
import type { RunVariables } from './runConfig.js';
import { chatRunRefusal, checkConfig, failedRunRefusal } from './resumeChecks.js';
import { checkWorkspace, workspaceIdentity } from './workspaceIdentity.js';
import { RunRefused } from './runRefused.js';
import { retryFailedTasks } from '../kernel/taskAttempts.js';
import { runUnitKey } from '../schedule/queueTiming.js';
import { MISSION_SCOPE, type Limits } from '../budget/limits.js';
import type { ExecuteRequest, RunEnvironment } from './environment.js';
import { execute, takeRunLease } from './execute.js';
import { report, type RunReport } from './report.js';

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
    const owner = await takeRunLease(store, runId);
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
  const chat = chatRunRefusal(runId, run.mission, 'resume');
  if (chat) throw chat;
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
