// Finding an existing database for the commands that read stored runs (resume, runs, inspect): --db
// or the default in the current directory, with a clear message when there is none.

import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { Store } from '../store/index.js';
import { CliError, type CliIo } from './io.js';

/** The absolute path of an existing database, or a usage error saying where runs are stored. */
export function existingDbPath(io: CliIo, db: string | undefined): string {
  const path = resolve(io.cwd, db ?? '.squadron/squadron.db');
  if (!existsSync(path)) {
    throw new CliError(`no database at ${shownPath(io, path)}; pass --db (runs are stored in .squadron/squadron.db beside the config)`);
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
