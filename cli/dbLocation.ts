// The one rule for where the database is, shared by every command:
//   1. --db, else 2. SQUADRON_DATABASE_URL (a PostgreSQL connection string only), else 3. the
//      SQUADRON_DB environment variable. --db and SQUADRON_DB take a PostgreSQL connection string
//      (postgres://… or postgresql://…), a database file, or a config (an .hcl file or a folder)
//      meaning that config's .squadron/squadron.db;
//   4. otherwise `run` uses the config's `storage` block (Go Squadron's) when it has one, else the config folder's .squadron/squadron.db, and the commands that read
//      stored runs (runs, inspect, resume) use ./.squadron/squadron.db or, when there is none, every
//      .squadron/squadron.db in the folders below the current one (3 levels down; dot-folders,
//      node_modules, other file systems and pseudo file systems skipped, unreadable folders skipped
//      quietly; at most SEARCH_MAX_DATABASES read, the most recently written) — so `squadron run examples/quickstart` then `squadron runs` works, and a read
//      command started from `/` neither walks into /proc nor stops on a folder it may not read.

import { readdirSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { databasePath, isPostgresUrl, SQUADRON_DIR } from '../api/database.js';
import { CliError } from './io.js';

export const DB_ENV = 'SQUADRON_DB';
export const DATABASE_URL_ENV = 'SQUADRON_DATABASE_URL';
/** How many folder levels below the current one the read commands look for databases. */
export const SEARCH_DEPTH = 3;
/** A bound on the folders visited, so a read command in a huge tree stays quick. */
const SEARCH_MAX_FOLDERS = 5_000;
/**
 * A bound on the databases a search reads: started high in a tree (`/`, a home folder full of
 * projects) it can find hundreds, and opening each one costs a migration check. The most recently
 * written are read, the others counted in `DbLocation.unread` and said on stderr.
 */
export const SEARCH_MAX_DATABASES = 16;

/** Where a command's database came from: which step of the rule chose it. */
export type DbSource = 'flag' | 'env' | 'storage' | 'config' | 'here' | 'below';

/** A config's `storage` block, as the graph holds it (config/stages/storage.ts). */
export interface StorageChoice {
  backend: 'sqlite' | 'postgres';
  path?: string;
  connString?: string;
}

export interface DbLocation {
  /**
   * Absolute paths, or one PostgreSQL connection string (as given: it may hold a password, so it is
   * shown only through shownPostgresUrl); for 'below', every database found (possibly none);
   * otherwise exactly one.
   */
  paths: string[];
  source: DbSource;
  /** For 'below': how many more databases the search found but does not read (SEARCH_MAX_DATABASES). */
  unread?: number;
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
export function runDbLocation(cwd: string, env: NodeJS.ProcessEnv, configRoot: string, flag: string | undefined, storage?: StorageChoice): DbLocation {
  const explicit = explicitLocation(cwd, env, flag);
  if (explicit) return explicit;
  if (storage?.backend === 'postgres' && storage.connString !== undefined) return { paths: [storage.connString.trim()], source: 'storage' };
  if (storage?.backend === 'sqlite' && storage.path !== undefined) return { paths: [storage.path], source: 'storage' };
  return { paths: [databasePath(configRoot)], source: 'config' };
}

/** Which databases a command that reads stored runs (runs, inspect, resume) looks in. */
export function readDbLocation(cwd: string, env: NodeJS.ProcessEnv, flag: string | undefined): DbLocation {
  const explicit = explicitLocation(cwd, env, flag);
  if (explicit) return explicit;
  const here = databasePath(cwd);
  if (quietStat(here) !== undefined) return { paths: [here], source: 'here' };
  const found = databasesBelow(cwd);
  if (found.length <= SEARCH_MAX_DATABASES) return { paths: found, source: 'below' };
  const newest = found
    .map((path) => ({ path, written: lastWritten(path) }))
    .sort((a, b) => b.written - a.written || a.path.localeCompare(b.path))
    .slice(0, SEARCH_MAX_DATABASES)
    .map((d) => d.path)
    .sort();
  return { paths: newest, source: 'below', unread: found.length - newest.length };
}

/** When a SQLite database was last written: its file's or its write-ahead log's time, the later. */
function lastWritten(path: string): number {
  return Math.max(quietStat(path)?.mtimeMs ?? 0, quietStat(`${path}-wal`)?.mtimeMs ?? 0);
}

function explicitLocation(cwd: string, env: NodeJS.ProcessEnv, flag: string | undefined): DbLocation | undefined {
  if (flag !== undefined && flag !== '') return { paths: [database(cwd, flag)], source: 'flag' };
  const url = env[DATABASE_URL_ENV];
  if (url !== undefined && url.trim() !== '') {
    if (!isPostgresUrl(url)) {
      throw new CliError(`${DATABASE_URL_ENV} must be a PostgreSQL connection string (postgres://user@host/database); for a SQLite file use ${DB_ENV} or --db`, 'usage');
    }
    return { paths: [url.trim()], source: 'env' };
  }
  const fromEnv = env[DB_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return { paths: [database(cwd, fromEnv)], source: 'env' };
  return undefined;
}

/** A connection string as given (it would otherwise be taken for a relative file path), else a file path. */
function database(cwd: string, value: string): string {
  return isPostgresUrl(value) ? value.trim() : givenDbPath(cwd, value);
}


/** Which environment variable chose the database, for messages. */
export function dbEnvName(env: NodeJS.ProcessEnv): string {
  const url = env[DATABASE_URL_ENV];
  return url !== undefined && url.trim() !== '' ? DATABASE_URL_ENV : DB_ENV;
}

/**
 * Folders whose contents are the kernel's, not files a user made: a search started at `/` (or above
 * them) does not enter them even where they share the root's file system (some containers do).
 */
const PSEUDO_ROOTS = new Set(['/proc', '/sys', '/dev', '/run']);

/**
 * `.squadron/squadron.db` of the folders 1..SEARCH_DEPTH levels below `root`, sorted by path. The
 * search stays on the file system `root` is on (no mounts: network shares, /proc, /sys), skips the
 * pseudo file systems by name, and passes over what it may not read without a word.
 */
function databasesBelow(root: string): string[] {
  const device = quietStat(root)?.dev;
  if (device === undefined) return [];
  const found: string[] = [];
  let level = [root];
  let visited = 0;
  for (let depth = 1; depth <= SEARCH_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      for (const child of subfolders(dir)) {
        if (PSEUDO_ROOTS.has(child)) continue;
        if (++visited > SEARCH_MAX_FOLDERS) return found.sort();
        if (quietStat(child)?.dev !== device) continue; // another file system mounted here
        if (quietStat(databasePath(child))?.isFile() === true) found.push(databasePath(child));
        next.push(child);
      }
    }
    level = next;
  }
  return found.sort();
}

/** stat, with every failure (missing, EACCES, ELOOP, …) as "nothing there". */
function quietStat(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
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
