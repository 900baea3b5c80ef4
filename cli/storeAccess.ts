// Finding an existing database for the commands that read stored runs (resume, runs, inspect): --db
// (the database file, or the config file or directory whose runs it holds) or the default in the
// current directory, with a clear message when there is none.

import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Store } from '../store/index.js';
import { CliError, type CliIo } from './io.js';

/** Where `run` stores the runs of the config at `configPath` (a .hcl file or a directory). */
export function dbPathFor(configPath: string): string {
  const root = existsSync(configPath) && statSync(configPath).isFile() ? dirname(configPath) : configPath;
  return join(root, '.squadron', 'squadron.db');
}

/** The help text of the --db option of the commands that read stored runs. */
export const DB_OPTION_HELP = 'the SQLite database, or the config file or directory whose runs to read (default: the current directory)';

/**
 * The absolute path of an existing database, or a usage error saying where runs are stored. `--db`
 * may name the database itself or, as `run` was given, the config (`--db examples/quickstart`).
 */
export function existingDbPath(io: CliIo, db: string | undefined): string {
  const given = resolve(io.cwd, db ?? '.');
  const isConfig = existsSync(given) && (statSync(given).isDirectory() || given.endsWith('.hcl'));
  const path = isConfig ? dbPathFor(given) : given;
  if (!existsSync(path)) {
    throw new CliError(`no database at ${shownPath(io, path)}; pass --db with the config path you ran (runs are stored in .squadron/squadron.db beside the config)`, 'not_found');
  }
  return path;
}

export async function openExistingStore(io: CliIo, db: string | undefined): Promise<Store> {
  const { openStore } = await import('../store/index.js');
  return openStore(existingDbPath(io, db));
}

/** A path as the user would type it from the current directory. */
export function shownPath(io: CliIo, path: string): string {
  return relative(io.cwd, path) || path;
}
