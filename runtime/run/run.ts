// Entry points for executing a mission: `startRun` creates a run (here), `resumeRun` continues a
// stored one (resume.ts). Both hand it to the same executing step (execute.ts: the lease, the
// RunContext, the scheduler, the report); they differ only in where the run's identity and options
// come from. This file also gathers what api/ imports of a run.

import type { Mission } from '../../config/graph.js';
import type { Value } from '../../config/hcl/value.js';
import { makePrivateDirs, newId, openDatabase, shownDatabase, type Store } from '../../store/index.js';
import { secretRedactor } from './secretRedactor.js';
import { checkModelCredentials } from './modelCredentials.js';
import { checkRunFiles } from './runFiles.js';
import type { RunOptions } from './runOptions.js';
import { runVariables } from './runConfig.js';
import { workspaceIdentity } from './workspaceIdentity.js';
import { RunBusy, RunRefused } from './runRefused.js';
import { checkPluginsStart } from './pluginPreflight.js';
import { datasetProblems } from '../iteration/index.js';
import { runUnitKey } from '../schedule/queueTiming.js';
import { missionLimits } from '../budget/limits.js';
import type { RunEnvironment } from './environment.js';
import { execute, runIsActive } from './execute.js';
import type { RunReport } from './report.js';

export type { RunOptions } from './runOptions.js';
export { RunBusy, RunRefused, type RefusalKind } from './runRefused.js';
export { chatRunRefusal, failedRunRefusal } from './resumeChecks.js';
export type { ExecuteRequest, RunEnvironment, RunStart, RunWatcher } from './environment.js';
export type { BudgetReport, ItemsReport, RunReport, TaskReport } from './report.js';
export { openStoredRun, requeueRun, resumeRun, type ResumeOptions, type StoredRun, type StoredRunFacts } from './resume.js';
export { LEASE_HEARTBEAT_MS, modelClients, runIsActive } from './execute.js';

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
