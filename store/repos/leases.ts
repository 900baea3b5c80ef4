// Run leases: the fence that keeps two processes from driving the same run. A lease is taken when
// free, renewed by its owner's heartbeat, and taken over only when its holder is provably gone
// (heartbeat too old, or a dead pid on this host).

import type { LeaseRow } from '../rows.js';

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
   * held on this host by a pid that no longer exists. Atomic (one transaction).
   */
  acquire(runId: string, owner: LeaseOwner, staleAfterMs: number): Promise<AcquireResult>;
  /** false if the lease is no longer ours (taken over or released): stop driving the run. */
  heartbeat(runId: string, ownerId: string): Promise<boolean>;
  /** Releases only our own lease. */
  release(runId: string, ownerId: string): Promise<void>;
  get(runId: string): Promise<LeaseRow | undefined>;
  /** Whether a live process holds the run's lease — the same rule `acquire` uses to refuse a takeover. */
  isLive(runId: string, host: string, staleAfterMs?: number): Promise<boolean>;
}
