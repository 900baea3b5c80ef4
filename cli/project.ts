// Loading a project for the commands that need a valid config (run, resume, plan, tools): prints the
// diagnostics the way `validate` does and turns errors into a usage failure (exit 2), and picks the
// mission to work on.

import { resolve } from 'node:path';
import type { Mission, MissionGraph } from '../config/graph.js';
import { renderDiagnostics, sourceReaderFor } from '../config/diagnostics.js';
import { loadConfig, type LoadOptions } from '../config/load.js';
import { outputMask } from '../runtime/secretRedactor.js';
import { CliError, EXIT, redactOutput, useColor, type CliIo } from './io.js';

export interface LoadedProject {
  graph: MissionGraph;
  /** The path as the user gave it, resolved. */
  path: string;
}

/**
 * `unsetVariables: 'unknown'` is for the commands that call no model and no tool (plan, tools): a
 * variable without a value is then a warning, not an error (see LoadOptions.unsetVariables).
 */
export function loadProject(io: CliIo, path: string, vars: Record<string, string>, opts: Pick<LoadOptions, 'unsetVariables'> = {}): LoadedProject {
  const absolute = resolve(io.cwd, path);
  const { graph, diagnostics, sources, secrets } = loadConfig(absolute, { vars, env: io.env, ...opts });
  // From here on nothing this command prints shows a secret, diagnostics included.
  redactOutput(io, outputMask(secrets ?? []));
  if (diagnostics.length > 0) {
    io.stderr.write(`${renderDiagnostics(diagnostics, { cwd: io.cwd, color: useColor(io, 'stderr'), readSource: sourceReaderFor(sources) })}\n\n`);
  }
  if (!graph) throw new CliError('the configuration has errors (see above); fix them and try again', EXIT.usage);
  return { graph, path: absolute };
}

export function selectMission(graph: MissionGraph, name: string | undefined): Mission {
  const names = graph.missions.map((m) => m.name);
  if (name !== undefined) {
    const mission = graph.missions.find((m) => m.name === name);
    if (!mission) throw new CliError(`no mission "${name}" in the config (missions: ${names.join(', ') || 'none'})`);
    return mission;
  }
  if (graph.missions.length === 1) return graph.missions[0]!;
  if (graph.missions.length === 0) throw new CliError('the config declares no mission');
  throw new CliError(`the config declares several missions; choose one with --mission (${names.join(', ')})`);
}
