// Loading a project for the commands that need a valid config (run, resume, plan, tools): prints the
// diagnostics the way `validate` does and turns errors into a usage failure (exit 2), and picks the
// mission to work on.

import { resolve } from 'node:path';
import { diagnosticToJson, renderDiagnostics, sourceReaderFor } from '../config/diagnostics.js';
import type { Diagnostic } from '../config/hcl/diagnostic.js';
import type { LoadOptions } from '../config/load.js';
import { openProject, type LoadedProject } from '../api/project.js';
import { SquadronError } from '../api/errors.js';
import { CliError, useColor, type CliIo } from './io.js';

export type { LoadedProject } from '../api/project.js';
export { selectMission } from '../api/project.js';

/**
 * `unsetVariables: 'unknown'` is for the commands that call no model and no tool (plan, tools): a
 * variable without a value is then a warning, not an error (see LoadOptions.unsetVariables).
 */
export function loadProject(io: CliIo, path: string, vars: Record<string, string>, opts: Pick<LoadOptions, 'unsetVariables'> = {}): LoadedProject {
  try {
    const project = openProject(resolve(io.cwd, path), { vars, env: io.env, ...opts });
    printWarnings(io, project);
    return project;
  } catch (error) {
    if (error instanceof SquadronError && error.code === 'invalid_config') throw configErrors(io, error);
    throw error;
  }
}

/** The warnings of a config that loaded, on stderr as validate prints them. */
export function printWarnings(io: CliIo, project: LoadedProject): void {
  printDiagnostics(io, project.warnings, project.sources);
}

/** An invalid config: its diagnostics on stderr, and the error that ends the command (with them under --json). */
export function configErrors(io: CliIo, error: SquadronError): CliError {
  printDiagnostics(io, error.diagnostics, error.sources);
  return new CliError('the configuration has errors (see above); fix them and try again', 'invalid_config', { diagnostics: error.diagnostics.map((d) => diagnosticToJson(d, io.cwd)) });
}

function printDiagnostics(io: CliIo, diagnostics: readonly Diagnostic[], sources: ReadonlyMap<string, string>): void {
  if (diagnostics.length === 0) return;
  io.stderr.write(`${renderDiagnostics(diagnostics, { cwd: io.cwd, color: useColor(io, 'stderr'), readSource: sourceReaderFor(sources) })}\n\n`);
}
