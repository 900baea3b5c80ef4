// Opening the database for the read-only commands (runs, inspect): --db or the default in the
// current directory, with a clear message when there is none.

import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { Store } from '../store/index.js';
import { CliError, type CliIo } from './io.js';

export async function openExistingStore(io: CliIo, db: string | undefined): Promise<Store> {
  const { openStore } = await import('../store/index.js');
  const path = resolve(io.cwd, db ?? '.squadron/squadron.db');
  if (!existsSync(path)) {
    throw new CliError(`no database at ${relative(io.cwd, path) || path}; pass --db (runs are stored in .squadron/squadron.db beside the config)`);
  }
  return openStore(path);
}
