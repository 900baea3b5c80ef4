// What is at a database path before SQLite touches it. A missing file may be created (by Squadron,
// owner-only, fully initialised before it appears under its name); an existing one must be a regular
// file that starts like a SQLite database. Anything else — a device, a FIFO, a folder, a text file —
// is refused without being opened for writing, so it is left exactly as it was.

import { closeSync, constants, fchmodSync, fstatSync, linkSync, lstatSync, openSync, readSync, renameSync, statSync, unlinkSync, type Stats } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { StoreError } from './errors.js';
import { makePrivateDirs } from './privateDirs.js';

/** The only mode Squadron gives a database file, and only to one it creates itself. */
export const DB_FILE_MODE = 0o600;

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * 'missing' when nothing is at `file` (a dangling symlink counts as something); 'sqlite' for a
 * regular file with the SQLite header. Throws a StoreError saying what it is otherwise.
 */
export function examineDbFile(file: string): 'missing' | 'sqlite' {
  let stats: Stats;
  try {
    stats = statSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return isDanglingLink(file) ? refuse(file, 'is a symbolic link to nothing') : 'missing';
    throw new StoreError('OPEN_FAILED', `cannot open the database ${file}: ${(err as Error).message}`, { cause: err });
  }
  if (!stats.isFile()) refuse(file, `is not a regular file (it is ${kindOf(stats)})`);
  if (stats.size === 0) refuse(file, 'is an empty file');
  // O_NONBLOCK: had the file been swapped for a FIFO since the stat, open must not hang on it.
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw new StoreError('OPEN_FAILED', `cannot open the database ${file}: ${(err as Error).message}`, { cause: err });
  }
  try {
    if (!fstatSync(fd).isFile()) refuse(file, 'is not a regular file');
    const header = Buffer.alloc(SQLITE_MAGIC.length);
    const read = readSync(fd, header, 0, header.length, 0);
    if (read < header.length || !header.equals(SQLITE_MAGIC)) refuse(file, 'is not a SQLite file');
  } finally {
    closeSync(fd);
  }
  return 'sqlite';
}

/** The one-line refusal for a file that is not a Squadron database: what it is, and that it was left alone. */
export function notSquadronDb(file: string, what: string): StoreError {
  return new StoreError('OPEN_FAILED', `${file} is not a Squadron database: it ${what}; nothing was changed (pass --db with a Squadron database, or a path where none exists yet)`);
}

function refuse(file: string, what: string): never {
  throw notSquadronDb(file, what);
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  return 'not a file';
}

function isDanglingLink(file: string): boolean {
  // stat failed on the target; lstat looks at the name itself.
  return lstatSync(file, { throwIfNoEntry: false }) !== undefined;
}

/**
 * Creates the database at `file`: parent folders 0700, the file 0600 under a temporary name in the
 * same folder, `initialise` (schema, WAL) run on it, then linked into place. So a database never
 * appears half-made, and a concurrent creator that wins is kept (we then use its file).
 */
export function createDbFile(file: string, initialise: (tempPath: string) => void): void {
  const dir = dirname(file);
  const temp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.creating`);
  try {
    makePrivateDirs(dir);
    const fd = openSync(temp, 'wx', DB_FILE_MODE);
    try {
      fchmodSync(fd, DB_FILE_MODE); // the umask may have taken bits we need (e.g. 0277)
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw new StoreError('OPEN_FAILED', `cannot create the database ${file}: ${(err as Error).message}`, { cause: err });
  }
  try {
    initialise(temp);
    placeWithoutClobbering(temp, file);
  } finally {
    for (const leftover of [temp, `${temp}-wal`, `${temp}-shm`]) unlinkQuietly(leftover);
  }
}

/** link(2) fails rather than replace a file another process created meanwhile; then theirs is used. */
function placeWithoutClobbering(temp: string, file: string): void {
  try {
    linkSync(temp, file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    // Filesystems without hard links: rename, after checking nothing appeared meanwhile.
    if ((code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP') && statSync(file, { throwIfNoEntry: false }) === undefined) {
      renameSync(temp, file);
      return;
    }
    throw new StoreError('OPEN_FAILED', `cannot create the database ${file}: ${(err as Error).message}`, { cause: err });
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone (renamed into place, or never created)
  }
}
