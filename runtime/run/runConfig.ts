// What a run was started with besides its inputs: the content hashes of the config files the loader
// read, and the variables' values (secret ones by name only). `resume` reuses the variables, asks
// again for the secrets, and names what changed when the config differs from the run's.

import { createHash } from 'node:crypto';
import { relative } from 'node:path';
import type { VariableValue } from '../../config/graph.js';
import type { RunConfig, RunVariables } from '../../store/index.js';

export type { RunConfig, RunVariables } from '../../store/index.js';

/** sha256 of every file's text, keyed by its path relative to the project root ('/' separators). */
export function configFingerprint(projectRoot: string, sources: ReadonlyMap<string, string>): RunConfig {
  const files: Record<string, string> = {};
  const paths = [...sources.keys()].map((path) => ({ path, key: relative(projectRoot, path).split('\\').join('/') || path }));
  for (const { path, key } of paths.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) {
    files[key] = createHash('sha256').update(sources.get(path)!, 'utf8').digest('hex');
  }
  return { files };
}

/** The variables as a run stores them: non-secret values as used, secret ones by name only. */
export function runVariables(variables: readonly VariableValue[]): RunVariables {
  const values: Record<string, string> = {};
  const secrets: string[] = [];
  for (const v of variables) {
    if (v.value === undefined) continue;
    if (v.secret) secrets.push(v.name);
    else values[v.name] = v.value;
  }
  return { values, secrets: secrets.sort() };
}

/** The secret variables a resume must be given again (by --var or SQUADRON_VAR_<name>) but was not. */
export function missingSecrets(stored: RunVariables, given: Readonly<Record<string, string>>, env: NodeJS.ProcessEnv): string[] {
  return stored.secrets.filter((name) => given[name] === undefined && env[`SQUADRON_VAR_${name}`] === undefined);
}

/**
 * The loader's environment for a resume: the stored non-secret values as SQUADRON_VAR_<name>, so they
 * win over the caller's environment and defaults while --var still wins over them, and a variable the
 * config no longer declares is ignored rather than an error.
 */
export function resumeEnv(stored: RunVariables | undefined, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (!stored) return env;
  const out: NodeJS.ProcessEnv = { ...env };
  for (const [name, value] of Object.entries(stored.values)) out[`SQUADRON_VAR_${name}`] = value;
  return out;
}

/** What differs between the config a run last ran with and the one loaded now, one line each. */
export function configChanges(
  stored: { config: RunConfig; variables: RunVariables },
  current: { config: RunConfig; variables: RunVariables },
): string[] {
  const changes: string[] = [];
  const before = stored.config.files;
  const after = current.config.files;
  for (const path of Object.keys(before).sort()) {
    if (!(path in after)) changes.push(`file ${path} removed`);
    else if (after[path] !== before[path]) changes.push(`file ${path} modified`);
  }
  for (const path of Object.keys(after).sort()) if (!(path in before)) changes.push(`file ${path} added`);

  const was = stored.variables.values;
  const now = current.variables.values;
  for (const name of [...new Set([...Object.keys(was), ...Object.keys(now)])].sort()) {
    if (was[name] === now[name]) continue;
    if (was[name] === undefined) changes.push(`variable ${name} set to ${JSON.stringify(now[name])} (the run had no value)`);
    else if (now[name] === undefined) changes.push(`variable ${name} no longer has a value (the run used ${JSON.stringify(was[name])})`);
    else changes.push(`variable ${name} changed from ${JSON.stringify(was[name])} to ${JSON.stringify(now[name])}`);
  }
  return changes;
}
