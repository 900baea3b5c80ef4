// Entry points for executing a mission: `startRun` creates a run, `resumeRun` continues a stored one.
// Both build the same RunContext (store, event sinks, models, tools, lease) and hand it to the
// scheduler; they differ only in where the run's identity and options come from.

import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Mission, MissionGraph } from '../config/graph.js';
import type { Value } from '../config/hcl/value.js';
import { createSecretRedactor, isProcessAlive, newId, openStore, type Redactor, type Store } from '../store/index.js';
import { EventBus, type RunEvent } from './events.js';
import { ModelResolver } from './models.js';
import { ProgressView } from './progress.js';
import { createModelClient } from './providers/factory.js';
import { createReplayClient } from './providers/replay.js';
import { createRecordingClient } from './providers/record.js';
import type { ModelClient } from './providers/types.js';
import { DEFAULT_LIMITS, type RunContext, type RunLimits } from './runContext.js';
import { openRunLog, runLogPath } from './runLog.js';
import { runMission, type MissionStatus } from './scheduler.js';
import { createRunTools } from './toolResolver.js';
import { emptyTotals, type UsageTotals } from './usage.js';
import { parseRunOptions, type RunOptions } from './runOptions.js';

export type { RunOptions } from './runOptions.js';

export interface RunEnvironment {
  graph: MissionGraph;
  /** The config path the user gave (file or directory), stored with the run for `resume`. */
  configPath: string;
  dbPath: string;
  progress: { stream: NodeJS.WritableStream; live: boolean };
  /** Aborted by the CLI on SIGINT. */
  interrupt: AbortSignal;
  limits?: Partial<RunLimits>;
  /** Test hook: shortens model retry backoff. */
  retryBaseDelayMs?: number;
}

export interface TaskReport {
  status: string;
  summary?: string;
  output?: unknown;
  error?: string;
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
}

export interface StartRequest {
  mission: Mission;
  inputs: Record<string, Value>;
  /** Options without what the runtime derives (the workspace may depend on the run id). */
  options: Omit<RunOptions, 'workspaceDir' | 'taskGraph'>;
  workspaceFor: (runId: string) => string;
  /** Called with the new run id before any work starts (the CLI prints it first). */
  onRunId?: (runId: string) => void;
  /** Called when this mission's previous run was interrupted and can be resumed. */
  onPreviousInterrupted?: (runId: string) => void;
}

export async function startRun(env: RunEnvironment, request: StartRequest): Promise<RunReport> {
  const redactor = secretRedactor(env.graph);
  const store = openStore(env.dbPath, { redactor });
  try {
    const previous = store.runs.latestForMission(request.mission.name, env.configPath);
    if (previous && (previous.status === 'interrupted' || (previous.status === 'running' && !leaseIsLive(store, previous.id)))) {
      request.onPreviousInterrupted?.(previous.id);
    }
    const runId = newId('run');
    const taskGraph = request.mission.tasks.map((t) => ({ name: t.name, dependsOn: [...t.dependsOn], routes: t.router.map((r) => r.target), sendTo: [...t.sendTo] }));
    const options: RunOptions = { ...request.options, workspaceDir: request.workspaceFor(runId), taskGraph };
    store.runs.create({ id: runId, mission: request.mission.name, configPath: env.configPath, inputs: request.inputs as Record<string, unknown>, options: { ...options } });
    request.onRunId?.(runId);
    return await execute(env, store, redactor, { runId, mission: request.mission, inputs: request.inputs, options, resumed: false });
  } finally {
    store.close();
  }
}

export class ResumeRefused extends Error {}

/** The stored facts `resume` needs before it can load the config: which mission, from where. */
export function storedRun(dbPath: string, runId: string): { mission: string; configPath: string; status: string } | undefined {
  const store = openStore(dbPath);
  try {
    const run = store.runs.get(runId);
    return run && { mission: run.mission, configPath: run.configPath, status: run.status };
  } finally {
    store.close();
  }
}

export async function resumeRun(env: RunEnvironment, runId: string): Promise<RunReport> {
  const redactor = secretRedactor(env.graph);
  const store = openStore(env.dbPath, { redactor });
  try {
    const run = store.runs.get(runId);
    if (!run) throw new ResumeRefused(`no run ${runId} in ${env.dbPath}`);
    const mission = env.graph.missions.find((m) => m.name === run.mission);
    if (!mission) throw new ResumeRefused(`run ${runId} is of mission "${run.mission}", which is not in the loaded config`);
    const options = parseRunOptions(runId, run.options);
    if (run.status === 'completed') {
      return report(store, { runId, mission, inputs: run.inputs as Record<string, Value>, options, resumed: true }, { status: 'completed' }, runLogPath(env.graph.projectRoot, runId));
    }
    return await execute(env, store, redactor, { runId, mission, inputs: run.inputs as Record<string, Value>, options, resumed: true });
  } finally {
    store.close();
  }
}

interface ExecuteRequest {
  runId: string;
  mission: Mission;
  inputs: Record<string, Value>;
  options: RunOptions;
  resumed: boolean;
}

const LEASE_HEARTBEAT_MS = 2_000;
const LEASE_STALE_MS = 15_000;

/** Whether a process is still executing the run (its lease is held by a live process). */
export function leaseIsLive(store: Store, runId: string): boolean {
  const lease = store.leases.get(runId);
  if (!lease) return false;
  if (lease.host === hostname()) return isProcessAlive(lease.pid);
  return Date.now() - Date.parse(lease.heartbeatAt) < LEASE_STALE_MS;
}

async function execute(env: RunEnvironment, store: Store, redactor: Redactor, req: ExecuteRequest): Promise<RunReport> {
  const { graph } = env;
  const owner = { id: `own_${randomUUID()}`, pid: process.pid, host: hostname() };
  const lease = store.leases.acquire(req.runId, owner, LEASE_STALE_MS);
  if (!lease.ok) {
    const h = lease.holder;
    throw new ResumeRefused(`run ${req.runId} is being executed by another process (pid ${h.pid} on ${h.host}, heartbeat ${h.heartbeatAt}); wait for it to finish or stop it first`);
  }
  // Losing the lease (another process took it over) stops this runner: two must never drive one run.
  const leaseLost = new AbortController();
  const heartbeat = setInterval(() => {
    if (!store.leases.heartbeat(req.runId, owner.id)) leaseLost.abort();
  }, LEASE_HEARTBEAT_MS);
  heartbeat.unref();
  const interrupt = AbortSignal.any([env.interrupt, leaseLost.signal]);

  const log = openRunLog(runLogPath(graph.projectRoot, req.runId), req.runId, redactor);
  const bus = new EventBus((name, error) => log.logger.error({ sink: name, err: error }, 'event sink failed and was detached'));
  bus.subscribe('store', (event) => store.events.append(storedEvent(req.runId, event)));
  bus.subscribe('log', log.sink);
  const progress = new ProgressView(env.progress.stream, env.progress.live, req.mission.tasks.map((t) => t.name));
  bus.subscribe('progress', progress.sink);

  mkdirSync(req.options.workspaceDir, { recursive: true });
  const runTools = createRunTools(graph, (ref, message) => bus.emit({ type: 'warning', message: `tool ${ref} is unavailable: ${message}` }));
  const models = new ModelResolver(graph, (block) => clientFor(block, req.options, redactor, env));
  models.warmUp([req.mission.commander.model, ...req.mission.tasks.flatMap((t) => (t.worker ? [t.worker.model] : []))]);

  const ctx: RunContext = {
    graph,
    mission: req.mission,
    runId: req.runId,
    store,
    bus,
    models,
    tools: runTools.resolver,
    workspaceDir: req.options.workspaceDir,
    signal: interrupt,
    inputs: req.inputs,
    overrides: req.options.overrides,
    limits: { ...DEFAULT_LIMITS, ...env.limits },
  };

  store.runs.setStatus(req.runId, 'running');
  const started: RunEvent = { type: 'run.started', runId: req.runId, mission: req.mission.name, resumed: req.resumed };
  if (req.options.replay) started.replayFrom = req.options.replay;
  bus.emit(started);
  let result: { status: MissionStatus; error?: string };
  try {
    result = await runMission(ctx, interrupt);
  } catch (error) {
    result = { status: 'failed', error: error instanceof Error ? error.message : String(error) };
  } finally {
    await runTools.close();
  }
  const finished: RunEvent = { type: 'run.finished', runId: req.runId, status: result.status };
  if (result.error) finished.error = result.error;
  bus.emit(finished);
  progress.close();
  clearInterval(heartbeat);
  store.leases.release(req.runId, owner.id);
  // Closing the run is its last write: nothing is stored for it after this.
  store.runs.setStatus(req.runId, result.status, result.error);
  log.close();
  return report(store, req, result, log.path);
}

function clientFor(block: Parameters<typeof createModelClient>[0], options: RunOptions, redactor: Redactor, env: RunEnvironment): ModelClient {
  if (options.replay) return createReplayClient({ cassette: options.replay });
  const client = createModelClient(block, env.retryBaseDelayMs !== undefined ? { retryBaseDelayMs: env.retryBaseDelayMs } : {});
  return options.record ? createRecordingClient(client, { cassette: options.record, redact: (t) => redactor.redact(t) }) : client;
}

function report(store: Store, req: ExecuteRequest, result: { status: MissionStatus; error?: string }, logPath: string): RunReport {
  const tasks: Record<string, TaskReport> = {};
  const rows = new Map(store.tasks.list(req.runId).map((r) => [r.name, r]));
  for (const task of req.mission.tasks) {
    const row = rows.get(task.name);
    const entry: TaskReport = { status: row?.status ?? 'pending' };
    if (row?.summary !== undefined) entry.summary = row.summary;
    if (row?.output !== undefined) entry.output = row.output;
    if (row?.error !== undefined) entry.error = row.error;
    tasks[task.name] = entry;
  }
  const usage = { ...emptyTotals(), ...store.turns.totalsForRun(req.runId) };
  const out: RunReport = { runId: req.runId, mission: req.mission.name, status: result.status, tasks, usage, workspaceDir: req.options.workspaceDir, logPath };
  if (result.error) out.error = result.error;
  return out;
}

/** Secret values to keep out of the database, logs and cassettes: secret variables and API keys. */
export function secretRedactor(graph: MissionGraph): Redactor {
  const secrets: { name: string; value: string }[] = [];
  for (const v of graph.variables) if (v.secret && v.value) secrets.push({ name: `vars.${v.name}`, value: v.value });
  for (const m of graph.models) if (m.apiKey) secrets.push({ name: `models.${m.name}.api_key`, value: m.apiKey });
  return createSecretRedactor(secrets);
}

function storedEvent(runId: string, event: RunEvent): { runId: string; type: string; task?: string; sessionId?: string; data: unknown } {
  const row: { runId: string; type: string; task?: string; sessionId?: string; data: unknown } = { runId, type: event.type, data: event };
  if ('task' in event && typeof event.task === 'string') row.task = event.task;
  if ('sessionId' in event && typeof event.sessionId === 'string') row.sessionId = event.sessionId;
  return row;
}
