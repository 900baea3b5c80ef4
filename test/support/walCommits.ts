// Counts commits where they land: the commit frames of a SQLite write-ahead log. Each transaction
// appends its pages to `<db>-wal` as frames; the last frame of a transaction records the database size
// (non-zero), the others 0. Frames carry the log header's salts, so frames left over from before the
// log was restarted are told apart and not counted. The log only holds commits while some connection
// keeps the database open (the last one to close folds the log into the file and deletes it).

import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import Database from 'better-sqlite3';

const WAL_HEADER = 32;
const FRAME_HEADER = 24;

export interface WalCommits {
  /** Identifies this generation of the log: a different value means the log was restarted. */
  salt: string;
  commits: number;
  /** Pages written, committed or not (what a checkpoint will copy back). */
  frames: number;
}

/**
 * `ignorePages`: a transaction that wrote only these pages is not counted (e.g. the lease table's,
 * whose heartbeat commits on a timer and so adds more commits the slower the machine runs).
 */
export function walCommits(dbPath: string, ignorePages: ReadonlySet<number> = new Set()): WalCommits {
  const file = `${dbPath}-wal`;
  if (!existsSync(file)) return { salt: '', commits: 0, frames: 0 };
  const wal = readFileSync(file);
  if (wal.length < WAL_HEADER) return { salt: '', commits: 0, frames: 0 };
  const pageSize = wal.readUInt32BE(8);
  const [salt1, salt2] = headerSalts(wal);
  let commits = 0;
  let frames = 0;
  let onlyIgnored = true;
  for (let at = WAL_HEADER; at + FRAME_HEADER + pageSize <= wal.length; at += FRAME_HEADER + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
    frames += 1;
    if (!ignorePages.has(wal.readUInt32BE(at))) onlyIgnored = false;
    if (wal.readUInt32BE(at + 4) !== 0) {
      if (!onlyIgnored) commits += 1;
      onlyIgnored = true;
    }
  }
  return { salt: `${salt1}:${salt2}`, commits, frames };
}

/** The log's salt (as `walCommits` gives it) from its header alone: cheap enough to read between turns. */
export function walSalt(dbPath: string): string {
  let fd: number;
  try {
    fd = openSync(`${dbPath}-wal`, 'r');
  } catch {
    return '';
  }
  try {
    const header = Buffer.alloc(WAL_HEADER);
    if (readSync(fd, header, 0, WAL_HEADER, 0) < WAL_HEADER) return '';
    return headerSalts(header).join(':');
  } finally {
    closeSync(fd);
  }
}

/** The two salts of a log's header: frames written since the log last started over carry them. */
function headerSalts(header: Buffer): [number, number] {
  return [header.readUInt32BE(16), header.readUInt32BE(20)];
}

/** Commits made by `action`, counted in the log; throws if the log was restarted meanwhile. */
export async function commitsDuring(dbPath: string, action: () => Promise<void>, ignorePages: ReadonlySet<number> = new Set()): Promise<number> {
  const before = walCommits(dbPath, ignorePages);
  await action();
  const after = walCommits(dbPath, ignorePages);
  if (before.salt !== '' && after.salt !== before.salt) throw new Error(`the write-ahead log of ${dbPath} was restarted while counting; keep the action smaller`);
  return after.commits - before.commits;
}

/**
 * The pages of the leases table: a run's lease is renewed on a timer (more often the slower the
 * machine), so transactions that wrote only these pages are heartbeats, not the work being counted.
 */
export function leaseTablePages(dbPath: string): ReadonlySet<number> {
  const raw = new Database(dbPath, { readonly: true });
  try {
    return new Set((raw.prepare("SELECT rootpage FROM sqlite_master WHERE tbl_name = 'leases' AND rootpage > 0").all() as { rootpage: number }[]).map((r) => r.rootpage));
  } finally {
    raw.close();
  }
}
