// The lease rules every backend applies: when a holder counts as gone (heartbeat too old, or a dead
// pid on this host), so a lease may be taken over.

import { readFileSync } from 'node:fs';
import type { LeaseOwner } from './repos/leases.js';
import type { LeaseRow } from './rows.js';

export function isStale(holder: LeaseRow, claimant: LeaseOwner, staleAfterMs: number, nowMs: number): boolean {
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

