// Opening the database for the commands that read stored runs (runs, inspect, resume), by the one
// rule of dbLocation.ts, read-only; and the command lines printed after a run (`squadron inspect
// run_… [--db …]`), which name --db only when the rule would not find the database from here.

import { existsSync } from 'node:fs';
import { isPostgresUrl, shownPostgresUrl, StoreError } from '../api/database.js';
import type { RunStore as Store } from '../api/runStore.js';
import { DATABASE_URL_ENV, DB_ENV, dbEnvName, readDbLocation, runDbLocation, SEARCH_DEPTH, shellWord, type DbLocation, type StorageChoice } from './dbLocation.js';
import { CliError, shownPath as shownFrom, type CliIo } from './io.js';


/** The help text of the --db option of every command that uses the database. */
export const DB_OPTION_HELP = `a PostgreSQL connection string (postgres://…), the database file, or the config file or folder whose .squadron/squadron.db to use (default: $${DATABASE_URL_ENV}, else $${DB_ENV}, else see \`squadron docs persistence\`)`;

export interface OpenedStore {
  store: Store;
  /** A file path, or a connection string as given (show it with shownPath, never as it is). */
  path: string;
}

/** Where `run` stores a new run of the config rooted at `configRoot`. */
export function runDbPath(io: CliIo, configRoot: string, flag: string | undefined, storage?: StorageChoice): string {
  return runDbLocation(io.cwd, io.env, configRoot, flag, storage).paths[0]!;
}

/**
 * Every database a listing reads: the one the rule names, or all those found below the current
 * folder (said on stderr; one that cannot be read is skipped with a warning).
 */
export async function openStoresToRead(io: CliIo, flag: string | undefined): Promise<OpenedStore[]> {
  const location = existingLocation(io, flag);
  if (location.source === 'below') io.stderr.write(`note: reading runs from ${searchedPaths(io, location)}\n`);
  return openAll(io, location);
}

/** The database that holds `runId`, opened read-only; a usage error naming where it looked if none does. */
export async function openStoreWithRun(io: CliIo, flag: string | undefined, runId: string): Promise<OpenedStore> {
  const location = existingLocation(io, flag);
  const opened = await openAll(io, location);
  let holder: OpenedStore | undefined;
  try {
    for (const o of opened) {
      if ((await o.store.runs.get(runId)) === undefined) continue;
      holder = o;
      break;
    }
  } finally {
    for (const o of opened) if (o !== holder) await o.store.close();
  }
  if (!holder) throw noRunIn(io, runId, location.paths, location.unread);
  return holder;
}

/** The path of the database that holds `runId` (approve, deny and answer then open it for writing). */
export async function findRunDatabase(io: CliIo, flag: string | undefined, runId: string): Promise<string> {
  const { store, path } = await openStoreWithRun(io, flag, runId);
  await store.close();
  return path;
}

/**
 * The database to resume `runId` from, which resume then opens (for writing) once. Where the rule
 * names the database (--db, the environment, the one in this folder) it is that one, unopened:
 * resume's own open finds the run or not (and says so with `noRunIn`). Only databases found by
 * searching below this folder are each opened read-only first, to find the one that holds the run
 * (and skip, with a warning, one that cannot be read).
 */
export async function resumeDatabase(io: CliIo, flag: string | undefined, runId: string): Promise<string> {
  const location = existingLocation(io, flag);
  return location.source === 'below' ? findRunDatabase(io, flag, runId) : location.paths[0]!;
}

/** Said when the database holds no such run, in the words of every command that reads runs. */
export function noRunIn(io: CliIo, runId: string, paths: readonly string[], unread = 0): CliError {
  return new CliError(`no run ${runId} in ${searchedPaths(io, { paths: [...paths], source: 'below', unread })} (see squadron runs)`, 'not_found');
}

/**
 * `squadron <command> <run-id>`, with `--db <path>` only when a command typed in the current folder
 * (with the current SQUADRON_DB) would not find the database by itself.
 */
export function storeCommand(io: CliIo, command: 'inspect' | 'resume' | 'logs' | 'chat --resume', runId: string, dbPath: string): string {
  const base = `squadron ${command} ${runId}`;
  let found: string[];
  try {
    found = readDbLocation(io.cwd, io.env, undefined).paths;
  } catch {
    found = [];
  }
  return found.includes(dbPath) ? base : `${base} --db ${shellWord(shownPath(io, dbPath))}`;
}

/** The databases a search chose, as paths from the current folder, and how many more it found but left. */
function searchedPaths(io: CliIo, location: DbLocation): string {
  const paths = location.paths.map((p) => shownPath(io, p)).join(', ');
  const unread = location.unread ?? 0;
  return unread === 0 ? paths : `${paths} (the ${location.paths.length} most recently written of ${location.paths.length + unread} databases below this folder; pass --db to read another)`;
}

/** A path as the user would type it from the current folder; a connection string without its password. */
export function shownPath(io: CliIo, path: string): string {
  return isPostgresUrl(path) ? shownPostgresUrl(path) : shownFrom(io.cwd, path);
}

function existingLocation(io: CliIo, flag: string | undefined): DbLocation {
  const location = readDbLocation(io.cwd, io.env, flag);
  if (location.paths.length === 0) {
    throw new CliError(
      `no database in this folder (.squadron/squadron.db) or in the folders below it (${SEARCH_DEPTH} levels); run the command from the folder you ran \`squadron run\` from, or pass --db with the config path you ran`,
      'not_found',
    );
  }
  if (location.source === 'flag' || location.source === 'env') {
    const path = location.paths[0]!;
    if (!isPostgresUrl(path) && !existsSync(path)) {
      const from = location.source === 'env' ? ` (from ${dbEnvName(io.env)})` : '';
      throw new CliError(`no database at ${shownPath(io, path)}${from}; pass --db with the database file or the config path you ran (run stores it in .squadron/squadron.db beside the config)`, 'not_found');
    }
  }
  return location;
}

/** The database `--db` names, which must exist: a console attached to it alone (ui) never creates one. */
export function namedDatabase(io: CliIo, flag: string): string {
  return existingLocation(io, flag).paths[0]!;
}

/** The databases `runs prune` cleans: those `runs` lists, opened for writing. */
export async function openStoresToWrite(io: CliIo, flag: string | undefined): Promise<OpenedStore[]> {
  const location = existingLocation(io, flag);
  if (location.source === 'below') io.stderr.write(`note: pruning runs in ${searchedPaths(io, location)}\n`);
  return openAll(io, location, 'write');
}

async function openAll(io: CliIo, location: DbLocation, access: 'read' | 'write' = 'read'): Promise<OpenedStore[]> {
  const { openRunStore } = await import('../api/runStore.js');
  const onNote = (message: string): void => {
    io.stderr.write(`note: ${message}\n`);
  };
  const opened: OpenedStore[] = [];
  for (const path of location.paths) {
    try {
      // A database found by searching is never upgraded: an older squadron may be using it.
      const upgrade = location.source === 'below' ? { upgrade: false } : {};
      opened.push({ store: await openRunStore(path, access === 'read' ? { access: 'read', onNote, ...upgrade } : { onNote, ...upgrade }), path });
    } catch (err) {
      // A database found by searching is skipped rather than blocking the others; one named is an error.
      if (location.source !== 'below' || !(err instanceof StoreError)) {
        for (const o of opened) await o.store.close();
        throw err;
      }
      io.stderr.write(`warning: skipped ${shownPath(io, path)}: ${err.message}\n`);
    }
  }
  if (opened.length === 0) throw new CliError('none of the databases found below this folder can be read (see the warnings above); pass --db to choose one', 'database_unusable');
  return opened;
}
