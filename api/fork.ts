// Fork and diff as typed entry points (the CLI, the console and the MCP server build on them): fork a
// stored run at a task (or a turn of it) with changed inputs, variables or config, and compare two runs.

import { cpSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Value } from '../config/hcl/value.js';
import { workspacePath } from '../config/projectLayout.js';
import type { RunReport } from '../runtime/run/run.js';
import type { RunDiff } from '../runtime/inspect/runDiff.js';
import { shownDatabase } from '../store/postgres/url.js';
import { SquadronError } from './errors.js';
import { openProject, selectMission, type LoadedProject, type ProjectOptions } from './project.js';
import type { RunHooks } from './runs.js';

export type { RunDiff, TaskDiff, TaskSide } from '../runtime/inspect/runDiff.js';

export interface ForkRequest extends ProjectOptions, RunHooks {
  /** The run to fork (any state but running). */
  runId: string;
  /** The database that holds it; the fork is stored there too. */
  db: string;
  /** The fork point: this task and what follows it run again; tasks that finished before it are copied. */
  at: string;
  /** Continue the task's commander (or a direct task's worker) from the request of this turn. */
  turn?: number;
  /** Mission inputs that replace the parent's (`--set-input key=value`), converted by their declared types. */
  setInputs?: Readonly<Record<string, string>>;
  /** Load the config from here instead of the parent's path (an edited copy, say). */
  config?: string;
  /** Play model responses from this cassette; by default the future runs live. */
  replay?: string;
  /** Told the new run's id once it is stored, before it runs. */
  onForked?: (runId: string) => void;
  onNote?: (message: string) => void;
  onLoaded?: (project: LoadedProject) => void | Promise<void>;
}

/** Forks a stored run and runs its future; returns the new run's report (its `runId` is the fork's). */
export async function fork(req: ForkRequest): Promise<RunReport> {
  const [{ openStoredRun, RunRefused, RunBusy }, { missingSecrets, resumeEnv, configFingerprint }, { forkRun }, { resolveInputs }, api] = await Promise.all([
    import('../runtime/run/run.js'),
    import('../runtime/run/runConfig.js'),
    import('../runtime/run/fork.js'),
    import('../runtime/run/inputs.js'),
    import('./index.js'),
  ]);
  const db = api.databaseLocation(req.db);
  const opened = await openStoredRun(db, req.runId, req.onNote);
  if (!opened) throw new SquadronError('not_found', `no run ${req.runId} in ${shownDatabase(db)}`);
  try {
    const parent = await opened.store.runs.get(req.runId);
    if (!parent) throw new SquadronError('not_found', `no run ${req.runId} in ${shownDatabase(db)}`);
    const vars = req.vars ?? {};
    const env = req.env ?? process.env;
    const missing = parent.variables ? missingSecrets(parent.variables, vars, env) : [];
    if (missing.length > 0) {
      throw new SquadronError('usage', `forking run ${req.runId} needs its secret variables again: ${missing.map((n) => `--var ${n}=… or SQUADRON_VAR_${n}`).join(', ')}`);
    }
    const project = openProject(req.config ?? parent.configPath, { vars, env: resumeEnv(parent.variables, env), ...(req.onSecrets ? { onSecrets: req.onSecrets } : {}) });
    await req.onLoaded?.(project);
    const mission = selectMission(project.graph, parent.mission);
    const given = req.setInputs ?? {};
    const converted = resolveInputs(mission, given, { placeholders: true });
    if (!converted.ok) throw new SquadronError('usage', converted.errors.join('\n'));
    const inputs: Record<string, Value> = {};
    for (const key of Object.keys(given)) inputs[key] = converted.inputs[key] as Value;
    const changes = [
      ...Object.keys(given).map((k) => `input ${k}`),
      ...Object.entries(vars).filter(([k, v]) => parent.variables?.values[k] !== v).map(([k]) => `var ${k}`),
      ...configChanges(parent.config?.files, configFingerprint(project.graph.projectRoot, project.sources).files),
      ...(req.replay !== undefined ? [`replay ${req.replay}`] : []),
    ];
    const root = project.graph.projectRoot;
    const parentWorkspace = typeof parent.options['workspaceDir'] === 'string' ? parent.options['workspaceDir'] : undefined;
    const runEnv = await api.runEnvironment(project, db, req);
    try {
      return await forkRun(
        runEnv,
        opened.store,
        {
          parentId: req.runId,
          at: req.at,
          ...(req.turn !== undefined ? { turn: req.turn } : {}),
          inputs,
          changes,
          ...(req.replay !== undefined ? { replay: resolve(req.replay) } : {}),
          workspaceFor: (id) => {
            // The files the copied tasks wrote are the child's starting point too.
            const dir = workspacePath(root, id);
            if (parentWorkspace !== undefined && existsSync(parentWorkspace)) cpSync(parentWorkspace, dir, { recursive: true });
            return dir;
          },
          ...(req.onForked ? { onForked: req.onForked } : {}),
        },
        { ...(req.onNote ? { onNote: req.onNote } : {}) },
      );
    } catch (error) {
      if (!(error instanceof RunRefused)) throw error;
      throw new SquadronError(error instanceof RunBusy ? 'run_busy' : 'run_refused', error.message);
    }
  } finally {
    await opened.store.close();
  }
}

/** The config files that differ between the parent's fingerprint and the loaded one. */
function configChanges(before: Record<string, string> | undefined, after: Record<string, string>): string[] {
  if (before === undefined) return [];
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return names.filter((n) => before[n] !== after[n]).map((n) => `config ${n}`);
}

export interface DiffRequest {
  db: string;
  a: string;
  b: string;
}

/** Two stored runs of one database side by side, task by task. */
export async function diff(req: DiffRequest): Promise<RunDiff> {
  const [{ openDatabase }, { diffRuns }, api] = await Promise.all([import('../store/index.js'), import('../runtime/inspect/runDiff.js'), import('./index.js')]);
  const db = api.databaseLocation(req.db);
  const store = await openDatabase(db);
  try {
    const out = await diffRuns(store, req.a, req.b);
    if ('missing' in out) throw new SquadronError('not_found', `no run ${out.missing} in ${shownDatabase(db)}`);
    return out;
  } finally {
    await store.close();
  }
}
