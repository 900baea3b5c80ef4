// The one rule for where the database is, shared by every command:
//   1. --db PATH, else 2. the SQUADRON_DB environment variable: a database file, or a config (an
//      .hcl file or a folder) meaning that config's .squadron/squadron.db;
//   3. otherwise `run` uses the config folder's .squadron/squadron.db, and the commands that read
//      stored runs (runs, inspect, resume) use ./.squadron/squadron.db or, when there is none, every
//      .squadron/squadron.db in the folders below the current one (3 levels down; dot-folders and
//      node_modules skipped) — so `squadron run examples/quickstart` then `squadron runs` works.

import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { databasePath, SQUADRON_DIR } from '../config/projectLayout.js';
import { isPostgresUrl, shownPostgresUrl } from '../store/postgres/url.js';
import { CliError } from './io.js';

export const DB_ENV = 'SQUADRON_DB';
/** How many folder levels below the current one the read commands look for databases. */
export const SEARCH_DEPTH = 3;
/** A bound on the folders visited, so a read command in a huge tree stays quick. */
const SEARCH_MAX_FOLDERS = 5_000;

/** Where a command's database came from: which step of the rule chose it. */
export type DbSource = 'flag' | 'env' | 'config' | 'here' | 'below';

export interface DbLocation {
  /** Absolute paths; for 'below', every database found (possibly none); otherwise exactly one. */
  paths: string[];
  source: DbSource;
}


/** A --db or SQUADRON_DB value as a database path: a config names its .squadron/squadron.db. */
export function givenDbPath(cwd: string, value: string): string {
  const given = resolve(cwd, value);
  const stats = statSync(given, { throwIfNoEntry: false });
  if (stats?.isDirectory()) return basename(given) === SQUADRON_DIR ? join(given, 'squadron.db') : databasePath(given);
  if (stats?.isFile() && given.endsWith('.hcl')) return databasePath(dirname(given));
  return given;
}

/** Where `run` stores a new run of the config rooted at `configRoot`. */
export function runDbLocation(cwd: string, env: NodeJS.ProcessEnv, configRoot: string, flag: string | undefined): DbLocation {
  const explicit = explicitLocation(cwd, env, flag);
  return explicit ?? { paths: [databasePath(configRoot)], source: 'config' };
}

/** Which databases a command that reads stored runs (runs, inspect, resume) looks in. */
export function readDbLocation(cwd: string, env: NodeJS.ProcessEnv, flag: string | undefined): DbLocation {
  const explicit = explicitLocation(cwd, env, flag);
  if (explicit) return explicit;
  const here = databasePath(cwd);
  if (statSync(here, { throwIfNoEntry: false }) !== undefined) return { paths: [here], source: 'here' };
  return { paths: databasesBelow(cwd), source: 'below' };
}

function explicitLocation(cwd: string, env: NodeJS.ProcessEnv, flag: string | undefined): DbLocation | undefined {
  if (flag !== undefined && flag !== '') return { paths: [sqlitePath(cwd, flag, '--db ')], source: 'flag' };
  const fromEnv = env[DB_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return { paths: [sqlitePath(cwd, fromEnv, `${DB_ENV}=`)], source: 'env' };
  return undefined;
}

/** A PostgreSQL URL is refused by name (it would otherwise be taken for a relative file path). */
function sqlitePath(cwd: string, value: string, from: string): string {
  if (isPostgresUrl(value)) {
    throw new CliError(
      `${from}${shownPostgresUrl(value)}: PostgreSQL databases are not supported yet (see squadron docs scale-out); pass a SQLite database file, or the config whose .squadron/squadron.db to use`,
      'usage',
    );
  }
  return givenDbPath(cwd, value);
}

/** `.squadron/squadron.db` of the folders 1..SEARCH_DEPTH levels below `root`, sorted by path. */
function databasesBelow(root: string): string[] {
  const found: string[] = [];
  let level = [root];
  let visited = 0;
  for (let depth = 1; depth <= SEARCH_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      for (const child of subfolders(dir)) {
        if (++visited > SEARCH_MAX_FOLDERS) return found.sort();
        if (statSync(databasePath(child), { throwIfNoEntry: false })?.isFile()) found.push(databasePath(child));
        next.push(child);
      }
    }
    level = next;
  }
  return found.sort();
}

function subfolders(dir: string): string[] {
  try {
    // Dirent.isDirectory() does not follow symlinks, so the search cannot loop.
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules')
      .map((e) => join(dir, e.name))
      .sort();
  } catch {
    return []; // unreadable folders are not searched
  }
}

/** Quotes a word for a POSIX shell when it needs it, so a printed command can be pasted as it is. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
