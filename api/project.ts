// What every entry point does before it runs anything: load the config (or refuse it with every
// diagnostic), pick the mission, and check the caller's tool and skill selection against what the
// mission's workers may be given.

import { resolve } from 'node:path';
import type { Mission, MissionGraph } from '../config/graph.js';
import type { Diagnostic } from '../config/hcl/diagnostic.js';
import { discoverFiles } from '../config/files.js';
import { loadConfig, type LoadOptions } from '../config/load.js';
import type { NamedSecret } from '../config/secrets.js';
import { coversToolRef } from '../config/toolRefs.js';
import type { SelectionOverrides } from '../runtime/agents/runContext.js';
import { SquadronError } from './errors.js';

export interface ProjectOptions {
  /** `name → value`, as `--var`; wins over SQUADRON_VAR_<name> and defaults. */
  vars?: Readonly<Record<string, string>>;
  /** Where SQUADRON_VAR_<name> is read (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /**
   * Told the secret values the load was given (secret variables, API keys), also when the config is
   * invalid, before any diagnostic is handed out: to mask them in what the caller prints.
   */
  onSecrets?: (secrets: readonly NamedSecret[]) => void;
}

export interface LoadedProject {
  graph: MissionGraph;
  /** The config path, absolute. */
  path: string;
  /** The text of every file the load read, by absolute path (hashed with each run, for resume). */
  sources: ReadonlyMap<string, string>;
  /** Warnings of the load (errors make it throw). */
  warnings: readonly Diagnostic[];
}

/** Loads the config at `path` or throws `invalid_config` carrying every diagnostic. */
export function openProject(path: string, opts: ProjectOptions & Pick<LoadOptions, 'unsetVariables'> = {}): LoadedProject {
  const absolute = resolve(path);
  const result = loadConfig(absolute, { vars: opts.vars ?? {}, env: opts.env ?? process.env, ...(opts.unsetVariables ? { unsetVariables: opts.unsetVariables } : {}) });
  opts.onSecrets?.(result.secrets ?? []);
  if (result.graph === undefined) {
    const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
    throw new SquadronError('invalid_config', `the configuration has ${errors} error${errors === 1 ? '' : 's'}`, result.diagnostics, result.sources);
  }
  return { graph: result.graph, path: absolute, sources: result.sources ?? new Map(), warnings: result.diagnostics };
}

/** Whether `dir` holds a config: a .hcl file the loader would read (or is one). */
export function holdsConfig(dir: string): boolean {
  return discoverFiles(dir).files.length > 0;
}

/**
 * No config: what `squadron ui --db …` serves a database with alone. It has no missions, schedules or
 * triggers; each run is shown from what the store holds (its recorded task graph, tasks, sessions),
 * and a resume loads the run's own config from the path it stored, as `squadron resume` does.
 */
export function detachedProject(root: string): LoadedProject {
  const absolute = resolve(root);
  const graph: MissionGraph = { projectRoot: absolute, files: [], variables: [], models: [], customTools: [], mcpServers: [], toolsets: [], skills: [], agents: [], missions: [], allowedHosts: [] };
  return { graph, path: absolute, sources: new Map(), warnings: [] };
}

/** The named mission, or the only one. */
export function selectMission(graph: MissionGraph, name: string | undefined): Mission {
  const names = graph.missions.map((m) => m.name);
  if (name !== undefined) {
    const mission = graph.missions.find((m) => m.name === name);
    if (!mission) throw new SquadronError('not_found', `no mission "${name}" in the config (missions: ${names.join(', ') || 'none'})`);
    return mission;
  }
  if (graph.missions.length === 1) return graph.missions[0]!;
  if (graph.missions.length === 0) throw new SquadronError('not_found', 'the config declares no mission');
  throw new SquadronError('usage', `the config declares several missions; choose one with --mission (${names.join(', ')})`);
}

/** The caller's selection (`--tool`, `--skill`, `--no-tools`, `--no-skills`). */
export interface Selection {
  /** Restrict every worker to these of its tools. */
  tools?: readonly string[];
  noTools?: boolean;
  /** Add these skills to every worker. */
  skills?: readonly string[];
  noSkills?: boolean;
}

/** The selection as run overrides, checked against what the mission's workers may be given. */
export function selectionOverrides(graph: MissionGraph, mission: Mission, selection: Selection = {}): SelectionOverrides {
  const skills = [...(selection.skills ?? [])];
  if (selection.noSkills && skills.length > 0) throw new SquadronError('usage', '--skill and --no-skills cannot be used together');
  if (selection.noTools && selection.tools) throw new SquadronError('usage', '--tool and --no-tools cannot be used together');
  const overrides: SelectionOverrides = { noTools: Boolean(selection.noTools), skills, noSkills: Boolean(selection.noSkills) };
  for (const name of skills) {
    if (!graph.skills.some((s) => s.name === name)) {
      throw new SquadronError('usage', `--skill ${name}: no such skill (skills: ${graph.skills.map((s) => s.name).join(', ') || 'none'})`);
    }
  }
  if (selection.tools) {
    const workerTools = [...new Set(mission.tasks.flatMap((t) => t.worker?.tools.map((x) => x.ref) ?? []))];
    for (const ref of selection.tools) {
      // `mcp.s.t` is authorized by `mcp.s.all`; whether the server has `t` is known once it is connected.
      if (!coversToolRef(workerTools, ref)) {
        throw new SquadronError('usage', `--tool ${ref}: no worker of mission "${mission.name}" is authorized to use it (authorized: ${workerTools.join(', ') || 'none'})`);
      }
    }
    overrides.tools = [...selection.tools];
  }
  return overrides;
}
