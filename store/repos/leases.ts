// Run leases: the fence that keeps two processes from driving the same run. A lease is taken when
// free, renewed by its owner's heartbeat, and taken over only when its holder is provably gone
// (heartbeat too old, or a dead pid on this host).

import { readFileSync } from 'node:fs';
import { toLeaseRow } from '../rowReaders.js';
import { parseRow, RawLease } from '../rowSchemas.js';
import type { LeaseRow } from '../rows.js';
import type { RepoContext } from './context.js';

export interface LeaseOwner {
  /** Unique per process and run attempt (e.g. a random id made at start-up). */
  id: string;
  pid: number;
  host: string;
}

export type AcquireResult = { ok: true } | { ok: false; holder: LeaseRow };

/** How old a heartbeat may be before its holder counts as gone (runners beat every 2 s). */
export const DEFAULT_LEASE_STALE_MS = 15_000;

export interface LeasesRepo {
  /**
   * Takes the lease when it is free, already ours, or stale: heartbeat older than staleAfterMs, or
   * held on this host by a pid that no longer exists. Atomic (BEGIN IMMEDIATE).
   */
  acquire(runId: string, owner: LeaseOwner, staleAfterMs: number): AcquireResult;
  /** false if the lease is no longer ours (taken over or released): stop driving the run. */
  heartbeat(runId: string, ownerId: string): boolean;
  /** Releases only our own lease. */
  release(runId: string, ownerId: string): void;
  get(runId: string): LeaseRow | undefined;
  /** Whether a live process holds the run's lease — the same rule `acquire` uses to refuse a takeover. */
  isLive(runId: string, host: string, staleAfterMs?: number): boolean;
}

export function createLeasesRepo({ db, clock, now }: RepoContext): LeasesRepo {
  const byRun = db.prepare('SELECT * FROM leases WHERE run_id = ?');
  const upsert = db.prepare(
    `INSERT INTO leases (run_id, owner, pid, host, acquired_at, heartbeat_at) VALUES (@runId, @owner, @pid, @host, @now, @now)
     ON CONFLICT (run_id) DO UPDATE SET
       acquired_at = CASE WHEN owner = excluded.owner THEN acquired_at ELSE excluded.acquired_at END,
       owner = excluded.owner, pid = excluded.pid, host = excluded.host, heartbeat_at = excluded.heartbeat_at`,
  );
  const beat = db.prepare('UPDATE leases SET heartbeat_at = ? WHERE run_id = ? AND owner = ?');
  const release = db.prepare('DELETE FROM leases WHERE run_id = ? AND owner = ?');

  const read = (row: unknown): LeaseRow => toLeaseRow(parseRow(RawLease, 'leases', row));

  const acquire = db.transaction((runId: string, owner: LeaseOwner, staleAfterMs: number): AcquireResult => {
    const row = byRun.get(runId);
    if (row !== undefined) {
      const holder = read(row);
      if (holder.owner !== owner.id && !isStale(holder, owner, staleAfterMs, clock())) return { ok: false, holder };
    }
    upsert.run({ runId, owner: owner.id, pid: owner.pid, host: owner.host, now: now() });
    return { ok: true };
  });

  return {
    acquire(runId, owner, staleAfterMs) {
      return acquire.immediate(runId, owner, staleAfterMs);
    },
    heartbeat(runId, ownerId) {
      return beat.run(now(), runId, ownerId).changes === 1;
    },
    release(runId, ownerId) {
      release.run(runId, ownerId);
    },
    get(runId) {
      const row = byRun.get(runId);
      return row === undefined ? undefined : read(row);
    },
    isLive(runId, host, staleAfterMs = DEFAULT_LEASE_STALE_MS) {
      const row = byRun.get(runId);
      return row !== undefined && !isStale(read(row), { id: '', pid: process.pid, host }, staleAfterMs, clock());
    },
  };
}

function isStale(holder: LeaseRow, claimant: LeaseOwner, staleAfterMs: number, nowMs: number): boolean {
  const beatMs = Date.parse(holder.heartbeatAt);
  if (Number.isNaN(beatMs) || nowMs - beatMs > staleAfterMs) return true;
  return holder.host === claimant.host && !isProcessAlive(holder.pid);
}

/**
 * Signal 0 tests for existence; EPERM means the process exists but belongs to someone else. A zombie
 * (exited, not yet reaped by its parent) also answers signal 0, but it will never run again: on Linux
 * its state in /proc/<pid>/stat is Z (or X while being reaped), and it counts as dead.
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' && !hasExited(pid);
  }
  return !hasExited(pid);
}

function hasExited(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (err) {
    // Gone between the signal and the read; any other failure (no /proc) leaves signal 0's answer.
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
  // "pid (comm) state …": comm may itself contain ") ", so the state follows the last ")".
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state === 'Z' || state === 'X';
}
