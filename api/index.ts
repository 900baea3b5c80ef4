// Squadron as a library: the typed entry points the CLI itself is built on. Load and validate a
// config, plan a mission, run it and resume it, and follow a run through its event stream.
//
//   import { run } from 'squadron';
//   const report = await run({ config: 'mission.hcl', inputs: { topic: 'tides' }, onEvent: (e) => console.log(e.type) });
//
// Problems the caller can fix are thrown as SquadronError (a `code`, and for an invalid config every
// diagnostic); a run that fails is not an exception: its report says `failed`.

import { Writable } from 'node:stream';
import { join, resolve } from 'node:path';
import type { Value } from '../config/hcl/value.js';
import { validateProject, type ValidateOptions } from '../config/validateProject.js';
import type { LoadResult } from '../config/load.js';
import type { RunEvent } from '../runtime/events.js';
import type { MissionPlan } from '../runtime/plan.js';
import type { RunEnvironment, RunOptions, RunReport } from '../runtime/run.js';
import { SquadronError } from './errors.js';
import { openProject, selectionOverrides, selectMission, type LoadedProject, type ProjectOptions, type Selection } from './project.js';

export { loadConfig } from '../config/load.js';
export type { LoadOptions, LoadResult, LoadedFiles } from '../config/load.js';
export type { Diagnostic } from '../config/hcl/diagnostic.js';
export type { MissionGraph, Mission } from '../config/graph.js';
export type { RunEvent, RunEventType } from '../runtime/events.js';
export type { RunReport, TaskReport } from '../runtime/run.js';
export type { MissionPlan, TaskPlan, AgentPlan } from '../runtime/plan.js';
export { SquadronError, type SquadronErrorCode } from './errors.js';
export { openProject, selectMission, selectionOverrides, type LoadedProject, type ProjectOptions, type Selection } from './project.js';

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

/** What a run would give each task (tools, skills, models, request sizes), without calling a model. */
export async function plan(req: PlanRequest): Promise<MissionPlan> {
  const project = typeof req.config === 'string' ? openProject(req.config, { ...req, unsetVariables: 'unknown' }) : req.config;
  const [{ resolveInputs, withVariablePlaceholders }, { planMission }, { createRunTools }] = await Promise.all([
    import('../runtime/inputs.js'),
    import('../runtime/plan.js'),
    import('../runtime/toolResolver.js'),
  ]);
  const mission = selectMission(project.graph, req.mission);
  if (req.task !== undefined && !mission.tasks.some((t) => t.name === req.task)) {
    throw new SquadronError('mission_not_found', `mission "${mission.name}" has no task "${req.task}" (tasks: ${mission.tasks.map((t) => t.name).join(', ')})`);
  }
  const inputs = resolveInputs(mission, req.inputs ?? {}, { placeholders: true });
  if (!inputs.ok) throw new SquadronError('input_invalid', inputs.errors.join('\n'));
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
  /** Human progress lines (default: none); `live` redraws in place, for a terminal. */
  progress?: { stream: NodeJS.WritableStream; live: boolean };
}

export interface RunRequest extends MissionRequest, RunHooks {
  /** The SQLite database (default: .squadron/squadron.db in the project's root). */
  db?: string;
  /** The folder the file tools work in (default: .squadron/workspaces/<run-id>). */
  workspace?: string;
  /** Play model responses back from this cassette instead of calling models. */
  replay?: string;
  /** Record model traffic to this cassette (secrets redacted). */
  record?: string;
  /** Told the run's id before any work starts. */
  onRunId?: (runId: string) => void;
  /** Told when this mission's previous run was interrupted and could be resumed instead. */
  onPreviousInterrupted?: (runId: string) => void;
}

/** Runs a mission to its end (or until `signal` aborts) and returns its report. */
export async function run(req: RunRequest): Promise<RunReport> {
  if (req.replay !== undefined && req.record !== undefined) throw new SquadronError('run_refused', 'replay and record cannot be used together');
  const project = typeof req.config === 'string' ? openProject(req.config, req) : req.config;
  const [{ resolveInputs }, { startRun, RunRefused }] = await Promise.all([import('../runtime/inputs.js'), import('../runtime/run.js')]);
  const mission = selectMission(project.graph, req.mission);
  const inputs = resolveInputs(mission, req.inputs ?? {});
  if (!inputs.ok) throw new SquadronError('input_invalid', inputs.errors.join('\n'));
  const options: Omit<RunOptions, 'workspaceDir' | 'taskGraph'> = { overrides: selectionOverrides(project.graph, mission, req.selection) };
  if (req.replay !== undefined) options.replay = resolve(req.replay);
  if (req.record !== undefined) options.record = resolve(req.record);
  const root = project.graph.projectRoot;
  try {
    return await startRun(environment(project, req.db ?? defaultDbPath(root), req), {
      mission,
      inputs: inputs.inputs as Record<string, Value>,
      options,
      workspaceFor: (id) => (req.workspace !== undefined ? resolve(req.workspace) : join(root, '.squadron', 'workspaces', id)),
      ...(req.onRunId ? { onRunId: req.onRunId } : {}),
      ...(req.onPreviousInterrupted ? { onPreviousInterrupted: req.onPreviousInterrupted } : {}),
    });
  } catch (error) {
    if (error instanceof RunRefused) throw new SquadronError('run_refused', error.message);
    throw error;
  }
}

export interface ResumeRequest extends ProjectOptions, RunHooks {
  runId: string;
  /** The database that holds the run. */
  db: string;
  /** Load the config from here instead of the path stored with the run. */
  config?: string | LoadedProject;
}

/** Continues a stopped or crashed run: finished tasks are kept, completed tool calls never re-executed. */
export async function resume(req: ResumeRequest): Promise<RunReport> {
  const { resumeRun, RunRefused, storedRun } = await import('../runtime/run.js');
  const db = resolve(req.db);
  const stored = storedRun(db, req.runId);
  if (!stored) throw new SquadronError('run_not_found', `no run ${req.runId} in ${db}`);
  const project = typeof req.config === 'object' ? req.config : openProject(req.config ?? stored.configPath, req);
  try {
    return await resumeRun(environment(project, db, req), req.runId);
  } catch (error) {
    if (error instanceof RunRefused) throw new SquadronError('run_refused', error.message);
    throw error;
  }
}

/** Where a project's runs are stored unless the caller says otherwise. */
export function defaultDbPath(projectRoot: string): string {
  return join(projectRoot, '.squadron', 'squadron.db');
}

function environment(project: LoadedProject, dbPath: string, hooks: RunHooks): RunEnvironment {
  const env: RunEnvironment = {
    graph: project.graph,
    configPath: project.path,
    dbPath: resolve(dbPath),
    progress: hooks.progress ?? { stream: discard(), live: false },
    interrupt: hooks.signal ?? new AbortController().signal,
  };
  if (hooks.onEvent) env.onEvent = hooks.onEvent;
  return env;
}

function discard(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}
