// Loading a project for the commands that need a valid config (run, resume, plan, tools): prints the
// diagnostics the way `validate` does and turns errors into a usage failure (exit 2), and picks the
// mission to work on.

import { resolve } from 'node:path';
import { diagnosticToJson, renderDiagnostics, sourceReaderFor, type Diagnostic } from '../api/diagnostics.js';
import type { LoadOptions, NamedSecret } from '../api/index.js';
import { openProject, type LoadedProject } from '../api/project.js';
import { SquadronError } from '../api/errors.js';
import { CliError, redactOutput, useColor, type CliIo } from './io.js';

export type { LoadedProject } from '../api/project.js';
export { selectMission } from '../api/project.js';

/**
 * `unsetVariables: 'unknown'` is for the commands that call no model and no tool (plan, tools): a
 * variable without a value is then a warning, not an error (see LoadOptions.unsetVariables).
 * Once the config's secret values are known, everything the command prints masks them (diagnostics
 * included, as a diagnostic may quote a value).
 */
export async function loadProject(
  io: CliIo,
  path: string,
  vars: Record<string, string>,
  opts: Pick<LoadOptions, 'unsetVariables'> & { /** Warnings that say nothing to this command (chat: a config without a mission). */ quiet?: readonly string[] } = {},
): Promise<LoadedProject> {
  const seen = secretsSeen();
  let project: LoadedProject;
  try {
    project = openProject(resolve(io.cwd, path), { vars, env: io.env, onSecrets: seen.record, ...(opts.unsetVariables ? { unsetVariables: opts.unsetVariables } : {}) });
  } catch (error) {
    await maskSecrets(io, seen.secrets());
    if (error instanceof SquadronError && error.code === 'invalid_config') throw configErrors(io, error);
    throw error;
  }
  await maskSecrets(io, seen.secrets());
  const quiet = new Set(opts.quiet ?? []);
  printDiagnostics(io, project.warnings.filter((d) => !quiet.has(d.code)), project.sources);
  return project;
}

/** Keeps the secret values a load reports (for `onSecrets`), to mask them once known. */
export function secretsSeen(): { record: (secrets: readonly NamedSecret[]) => void; secrets: () => readonly NamedSecret[] } {
  let seen: readonly NamedSecret[] = [];
  return { record: (secrets) => (seen = secrets), secrets: () => seen };
}

/**
 * Masks these secret values in everything the command prints from now on. As validate does, only
 * when a secret variable has a value: an API key written into the config is in its source anyway.
 * So the masker is not loaded by a `graph` or `plan` of a config without secrets.
 */
export async function maskSecrets(io: CliIo, secrets: readonly NamedSecret[]): Promise<void> {
  if (!secrets.some((s) => s.name.startsWith('vars.'))) return;
  const { outputMask } = await import('../api/secrets.js');
  redactOutput(io, outputMask(secrets));
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
