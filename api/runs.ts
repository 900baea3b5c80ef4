// Running missions through the door: validate, plan, resolve a run once into its specification, run
// it here or queue it for workers, work as a worker, resume or requeue. Re-exported by api/index.ts.

import type { OperatorPrompt } from '../runtime/operator/types.js';
import { telemetrySettings } from '../telemetry/settings.js';
import { resolve } from 'node:path';
import type { Value } from '../config/hcl/value.js';
import type { ToolResult } from '../core/toolResults.js';
import { databasePath, workspacePath } from '../config/projectLayout.js';
import { validateProject, type ValidateOptions } from '../config/validateProject.js';
import type { LoadResult } from '../config/load.js';
import type { RunEvent } from '../runtime/kernel/events.js';
import type { MissionPlan } from '../runtime/plan/plan.js';
import type { Mission } from '../config/graph.js';
import type { ResumeOptions, RunEnvironment, RunOptions, RunReport, RunStart, RunWatcher, StartRequest } from '../runtime/run/run.js';
import { isPostgresUrl, shownDatabase } from '../store/postgres/url.js';
import { SquadronError } from './errors.js';
import { openProject, selectionOverrides, selectMission, type LoadedProject, type ProjectOptions, type Selection } from './project.js';

/** Validates a config as `squadron validate` does (without contacting MCP servers unless `mcpTools` is given). */
export function validate(path: string, opts: ValidateOptions = {}): Promise<LoadResult> {
  return validateProject(resolve(path), { unsetVariables: 'unknown', ...opts });
}

export interface MissionRequest extends ProjectOptions {
  /** A .hcl file or a directory of them, or a project already loaded with openProject. */
  config: string | LoadedProject;
  /** Needed when the config declares several missions. */
  mission?: string;
  /** Mission inputs as text (`-i key=value`), converted by each input's declared type. */
  inputs?: Readonly<Record<string, string>>;
  selection?: Selection;
}

export interface PlanRequest extends MissionRequest {
  /** Only this task. */
  task?: string;
  /** Include the rendered prompts and tool definitions. */
  showPrompts?: boolean;
  /** Told about each tool that is unavailable (an MCP server that cannot be reached). */
  onWarning?: (message: string) => void;
}

/**
 * What a run would give each task (tools, skills, models, request sizes), without calling a model.
 * The plan is a document, not a typed result: its keys are snake_case, exactly `plan --json`.
 */
export async function plan(req: PlanRequest): Promise<MissionPlan> {
  const project = typeof req.config === 'string' ? openProject(req.config, { ...req, unsetVariables: 'unknown' }) : req.config;
  const [{ resolveInputs, withVariablePlaceholders }, { planMission }, { createRunTools }] = await Promise.all([
    import('../runtime/run/inputs.js'),
    import('../runtime/plan/plan.js'),
    import('../runtime/run/toolResolver.js'),
  ]);
  const mission = selectMission(project.graph, req.mission);
  if (req.task !== undefined && !mission.tasks.some((t) => t.name === req.task)) {
    throw new SquadronError('not_found', `mission "${mission.name}" has no task "${req.task}" (tasks: ${mission.tasks.map((t) => t.name).join(', ')})`);
  }
  const inputs = resolveInputs(mission, req.inputs ?? {}, { placeholders: true });
  if (!inputs.ok) throw new SquadronError('usage', inputs.errors.join('\n'));
  const tools = createRunTools(project.graph, (ref, message) => req.onWarning?.(`tool ${ref} is unavailable: ${message}`));
  try {
    return await planMission({
      graph: withVariablePlaceholders(project.graph),
      mission,
      inputs: inputs.inputs,
      overrides: selectionOverrides(project.graph, mission, req.selection),
      tools: tools.resolver,
      showPrompts: Boolean(req.showPrompts),
      ...(req.task !== undefined ? { task: req.task } : {}),
    });
  } finally {
    await tools.close();
  }
}

/** How a run reports while it goes, and how the caller stops it. */
export interface RunHooks {
  /** Every event of the run, in order, as it happens. */
  onEvent?: (event: RunEvent) => void;
  /** Aborting it stops the run cleanly (status `interrupted`; `resume` continues it). */
  signal?: AbortSignal;
  /**
   * Told where the run starts from (its tasks, their stored states on resume, what was spent before)
   * just before the first event; the watcher it returns sees every event, then is closed once the run
   * has finished. The CLI's terminal progress is one.
   */
  watch?: (start: RunStart) => RunWatcher;
  /** Asks a person now (approvals, questions); without it they wait and the run ends `waiting`. */
  operatorPrompt?: OperatorPrompt;
  /** Tools answered with these results instead of being executed, by ref (squadron test's mock_tool); recorded in the ledger as mocked. */
  toolMocks?: ReadonlyMap<string, ToolResult>;
}

export interface RunRequest extends MissionRequest, RunHooks {
  /** The database: a SQLite file (default: .squadron/squadron.db in the project's root) or a PostgreSQL connection string (postgres://…). */
  db?: string;
  /** The folder the file tools work in (default: .squadron/workspaces/<run-id>). */
  workspace?: string;
  /** Play model responses back from this cassette instead of calling models. */
  replay?: string;
  /** Record model traffic to this cassette (secrets redacted). */
  record?: string;
  /** Told the run's id before any work starts. */
  onRunId?: (runId: string) => void;
  /** Store the run under this id (from newRunId(); a second run with it is refused, run_busy). */
  runId?: string;
  /** Told when this mission's previous run was interrupted and could be resumed instead. */
  onPreviousInterrupted?: (runId: string) => void;
}

/** A new run id, for a caller that answers with it before the run is stored (run({ runId })). */
export async function newRunId(): Promise<string> {
  const { newId } = await import('../store/index.js');
  return newId('run');
}

/** Refuses (`usage`, naming the input) inputs that `run` would refuse, without storing anything. */
export async function checkRunInputs(project: LoadedProject, mission: string | undefined, inputs: Readonly<Record<string, string>>): Promise<void> {
  const { resolveInputs } = await import('../runtime/run/inputs.js');
  const resolved = resolveInputs(selectMission(project.graph, mission), inputs);
  if (!resolved.ok) throw new SquadronError('usage', resolved.errors.join('\n'));
}

/**
 * A run resolved once, before anything is stored: the loaded project, the mission, its inputs
 * converted by their declared types, the tool and skill selection checked, every path absolute.
 * `run` and `enqueue` take it as it is; a caller that needs the mission (to say what will be
 * replayed, say) reads it here instead of selecting it again.
 */
export interface RunSpec {
  readonly project: LoadedProject;
  readonly mission: Mission;
  /** An absolute SQLite path or a PostgreSQL connection string. */
  readonly db: string;
  readonly inputs: Readonly<Record<string, Value>>;
  /** The selection overrides, and the cassette to replay or record (absolute). */
  readonly options: Readonly<Omit<RunOptions, 'workspaceDir' | 'taskGraph'>>;
  /** The folder the file tools work in (absolute); default .squadron/workspaces/<run-id>. */
  readonly workspace?: string;
}

/** What `run` and `enqueue` tell and ask the caller while a resolved run starts and goes. */
export type RunSpecHooks = RunHooks & Pick<RunRequest, 'onRunId' | 'runId' | 'onPreviousInterrupted'> & Pick<ProjectOptions, 'env'>;

/** Resolves a run request into its one specification; a SquadronError (`usage`, `not_found`, `invalid_config`) when it cannot run. */
export async function resolveRun(req: RunRequest): Promise<RunSpec> {
  if (req.replay !== undefined && req.record !== undefined) throw new SquadronError('usage', '--replay and --record cannot be used together');
  const project = typeof req.config === 'string' ? openProject(req.config, req) : req.config;
  const { resolveInputs } = await import('../runtime/run/inputs.js');
  const mission = selectMission(project.graph, req.mission);
  const inputs = resolveInputs(mission, req.inputs ?? {});
  if (!inputs.ok) throw new SquadronError('usage', inputs.errors.join('\n'));
  const options: Omit<RunOptions, 'workspaceDir' | 'taskGraph'> = { overrides: selectionOverrides(project.graph, mission, req.selection) };
  if (req.replay !== undefined) options.replay = resolve(req.replay);
  if (req.record !== undefined) options.record = resolve(req.record);
  return {
    project,
    mission,
    db: databaseLocation(req.db === undefined ? databasePath(project.graph.projectRoot) : req.db),
    inputs: inputs.inputs as Record<string, Value>,
    options,
    ...(req.workspace !== undefined ? { workspace: resolve(req.workspace) } : {}),
  };
}

/** Runs a mission to its end (or until `signal` aborts) and returns its report. */
export async function run(req: RunRequest): Promise<RunReport>;
/** Runs a resolved run (resolveRun) to its end. */
export async function run(spec: RunSpec, hooks: RunSpecHooks): Promise<RunReport>;
export async function run(req: RunRequest | RunSpec, given?: RunSpecHooks): Promise<RunReport> {
  const { startRun } = await import('../runtime/run/run.js');
  const [spec, hooks] = given === undefined ? [await resolveRun(req as RunRequest), req as RunRequest] : [req as RunSpec, given];
  return refusalsAsErrors(async () => startRun(await environment(spec.project, spec.db, hooks), startRequest(spec, hooks)));
}

/**
 * Stores the run and queues it for the workers of its PostgreSQL database (`squadron worker`), and
 * returns its id at once; nothing runs in this process. Refused (`usage`) on SQLite.
 */
export async function enqueue(req: RunRequest): Promise<string>;
export async function enqueue(spec: RunSpec, hooks: RunSpecHooks): Promise<string>;
export async function enqueue(req: RunRequest | RunSpec, given?: RunSpecHooks): Promise<string> {
  const { enqueueRun } = await import('../runtime/run/run.js');
  const [spec, hooks] = given === undefined ? [await resolveRun(req as RunRequest), req as RunRequest] : [req as RunSpec, given];
  return refusalsAsErrors(async () => enqueueRun(await environment(spec.project, spec.db, hooks), startRequest(spec, hooks)));
}

function startRequest(spec: RunSpec, hooks: RunSpecHooks): StartRequest {
  const root = spec.project.graph.projectRoot;
  return {
    mission: spec.mission,
    inputs: { ...spec.inputs },
    options: { ...spec.options },
    workspaceFor: (id) => spec.workspace ?? workspacePath(root, id),
    ...(hooks.onRunId ? { onRunId: hooks.onRunId } : {}),
    ...(hooks.runId !== undefined ? { runId: hooks.runId } : {}),
    ...(hooks.onPreviousInterrupted ? { onPreviousInterrupted: hooks.onPreviousInterrupted } : {}),
  };
}

export interface WorkRequest {
  /** The PostgreSQL database whose queue to take work from. */
  db: string;
  /** How many tasks this process executes at once (default 4). */
  concurrency?: number;
  /** Where SQUADRON_VAR_<name> (the runs' secrets) is read (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Aborting it stops the worker: it gives back what it holds unfinished and returns. */
  signal: AbortSignal;
  /** One line per unit of work taken and finished. */
  onNote?: (line: string) => void;
}

/**
 * Runs as a worker until `signal` aborts: takes tasks of any run of the database, and runs queued
 * with `enqueue` (or left by a runner that died), from the queue. Each run's config is loaded from
 * the path it was started with; its secrets come from `env`.
 */
export async function work(req: WorkRequest): Promise<void> {
  const [{ runWorker }, { missingSecrets, resumeEnv }] = await Promise.all([import('../runtime/run/worker.js'), import('../runtime/run/runConfig.js')]);
  const env = req.env ?? process.env;
  return refusalsAsErrors(() =>
    runWorker({
      dbPath: databaseLocation(req.db),
      concurrency: req.concurrency ?? 4,
      stop: req.signal,
      onNote: req.onNote ?? (() => undefined),
      environmentFor: async (run, stop) => {
        const missing = run.variables ? missingSecrets(run.variables, {}, env) : [];
        if (missing.length > 0) throw new SquadronError('usage', `run ${run.id} needs secret variables this worker was not given: ${missing.map((n) => `SQUADRON_VAR_${n}`).join(', ')}`);
        const project = openProject(run.configPath, { env: resumeEnv(run.variables, env) });
        return environment(project, req.db, { signal: stop, env });
      },
    }),
  );
}

export interface ResumeRequest extends ProjectOptions, RunHooks {
  runId: string;
  /** The database that holds the run. */
  db: string;
  /** Load the config from here instead of the path stored with the run. */
  config?: string;
  /** Re-run the failed tasks from fresh sessions (otherwise a run with a failed task is refused). */
  retryFailed?: boolean;
  /** Go ahead although the config or a variable differs from the run's (recorded on the run). */
  allowConfigChange?: boolean;
  /** Go ahead although the run's workspace folder is gone (a new empty one is made) or was replaced by another folder. */
  acceptNewWorkspace?: boolean;
  /**
   * Raised budget limits, by scope (`mission` or a task's name): `{ mission: { dollars: 5 } }`;
   * `duration` in milliseconds. Kept for later resumes of the run.
   */
  budget?: Record<string, Partial<Record<'tokens' | 'dollars' | 'duration', number>>>;
  /** Told once the run is this process's to continue, before any work. */
  onStart?: (runId: string) => void;
  /** Things to tell the user (a database upgraded to the current schema, an older run resumed unchecked, an accepted config change). */
  onNote?: (message: string) => void;
  /** Told the loaded project (its warnings) before the run continues; awaited. */
  onLoaded?: (project: LoadedProject) => void | Promise<void>;
}

/**
 * Continues a stopped or crashed run: finished tasks are kept, completed tool calls never re-executed.
 * The run's variables are reused; its secrets must be given again (`vars` or SQUADRON_VAR_<name>),
 * and every missing one is named before anything is loaded or written.
 */
export async function resume(req: ResumeRequest): Promise<RunReport> {
  const { resumeRun } = await import('../runtime/run/run.js');
  return resumeWith(req, (env, opts) => resumeRun(env, req.runId, opts));
}

/**
 * Like `resume`, but on PostgreSQL only: after the same checks (and writes: a changed config, failed
 * tasks to retry, raised budgets), the run is queued again for the workers of its database and this
 * returns at once: `queued`, or `completed` for a run that has nothing left to do. Refused (`usage`)
 * on SQLite.
 */
export async function requeue(req: ResumeRequest): Promise<'queued' | 'completed'> {
  const { requeueRun } = await import('../runtime/run/run.js');
  return resumeWith(req, (env, opts) => requeueRun(env, req.runId, opts));
}

async function resumeWith<T>(req: ResumeRequest, go: (env: RunEnvironment, opts: ResumeOptions) => Promise<T>): Promise<T> {
  const [{ chatRunRefusal, failedRunRefusal, openStoredRun }, { missingSecrets, resumeEnv }] = await Promise.all([import('../runtime/run/run.js'), import('../runtime/run/runConfig.js')]);
  const db = databaseLocation(req.db);
  const opened = await openStoredRun(db, req.runId, req.onNote);
  if (!opened) throw new SquadronError('not_found', `no run ${req.runId} in ${shownDatabase(db)}`);
  const stored = opened.facts;
  return refusalsAsErrors(async () => {
    const chat = chatRunRefusal(req.runId, stored.mission, 'resume');
    if (chat) throw chat;
    // A failed run is refused first: giving its secrets again would not make a plain resume work.
    const failed = req.retryFailed ? undefined : failedRunRefusal(req.runId, stored.status, stored.failedTasks);
    if (failed) throw failed;
    const vars = req.vars ?? {};
    const env = req.env ?? process.env;
    const missing = stored.status === 'completed' || !stored.variables ? [] : missingSecrets(stored.variables, vars, env);
    if (missing.length > 0) {
      const lines = missing.map((name) => `  ${name}: pass --var ${name}=… or set SQUADRON_VAR_${name}`);
      const count = missing.length === 1 ? 'a secret variable' : `${missing.length} secret variables`;
      throw new SquadronError('usage', `run ${req.runId} needs ${count} again (secret values are never stored with a run):\n${lines.join('\n')}`);
    }
    const project = openProject(req.config ?? stored.configPath, { vars, env: resumeEnv(stored.variables, env), ...(req.onSecrets ? { onSecrets: req.onSecrets } : {}) });
    await req.onLoaded?.(project);
    return go(await environment(project, db, req), {
      retryFailed: Boolean(req.retryFailed),
      allowConfigChange: Boolean(req.allowConfigChange),
      acceptNewWorkspace: Boolean(req.acceptNewWorkspace),
      ...(req.budget ? { budget: req.budget } : {}),
      ...(req.onStart ? { onStart: req.onStart } : {}),
      ...(req.onNote ? { onNote: req.onNote } : {}),
      opened: opened.store,
    });
  }).finally(() => opened.store.close());
}

/** The runtime's refusals as SquadronError, with the CLI's codes: busy and failed runs are states. */
async function refusalsAsErrors<T>(work: () => Promise<T>): Promise<T> {
  const { RunBusy, RunRefused } = await import('../runtime/run/run.js');
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof RunRefused)) throw error;
    const code = error instanceof RunBusy ? 'run_busy' : error.retryable ? 'refused' : 'run_refused';
    throw new SquadronError(code, error.message);
  }
}

/** `db` as the store opens it: a PostgreSQL connection string as given, a SQLite path made absolute. */
export function databaseLocation(db: string): string {
  return isPostgresUrl(db) ? db.trim() : resolve(db);
}

/** The runtime's environment for a run of `project` (also used by fork). */
export async function runEnvironment(project: LoadedProject, dbPath: string, hooks: RunHooks & ProjectOptions): Promise<RunEnvironment> {
  return environment(project, dbPath, hooks);
}

async function environment(project: LoadedProject, dbPath: string, hooks: RunHooks & ProjectOptions): Promise<RunEnvironment> {
  const { configFingerprint } = await import('../runtime/run/runConfig.js');
  const env: RunEnvironment = {
    graph: project.graph,
    configPath: project.path,
    config: configFingerprint(project.graph.projectRoot, project.sources),
    dbPath: databaseLocation(dbPath),
    ...(hooks.watch ? { watch: hooks.watch } : {}),
    interrupt: hooks.signal ?? new AbortController().signal,
    ...runTuning(hooks.env ?? process.env),
  };
  if (hooks.onEvent) env.onEvent = hooks.onEvent;
  if (hooks.operatorPrompt) env.operatorPrompt = hooks.operatorPrompt;
  // OpenTelemetry export: off (and its SDK never loaded) unless an endpoint is configured.
  const telemetry = telemetrySettings(project.graph.telemetry, hooks.env ?? process.env);
  if (telemetry) {
    env.instrument = async (run) => (await import('../telemetry/index.js')).telemetryInstrument(telemetry)(run);
  }
  if (hooks.toolMocks) env.toolMocks = hooks.toolMocks;
  return env;
}

/**
 * Tuning knobs read from the environment: SQUADRON_RETRY_BASE_DELAY_MS sets the base of the
 * model-call retry backoff (default 2000).
 */
function runTuning(env: NodeJS.ProcessEnv): { retryBaseDelayMs?: number } {
  const raw = env['SQUADRON_RETRY_BASE_DELAY_MS'];
  const value = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(value) && value >= 0 ? { retryBaseDelayMs: value } : {};
}
