// A run's status as `runs` shows it, from its stored status, its lease and (PostgreSQL) its unit of
// coordination. Kept light: `runs` loads it without the rest of the runtime.

import { hostname } from 'node:os';
import { DEFAULT_LEASE_STALE_MS, isStale, type Store } from '../../store/index.js';

/**
 * A run marked running whose runner is gone is `interrupted`. On PostgreSQL a run whose coordination
 * waits in the queue (`run --detach`, or handed back by a worker that stopped) is `queued`.
 */
export async function shownRunStatus(store: Store, runId: string, status: string): Promise<string> {
  const unit = (await store.units?.list(runId))?.find((u) => u.kind === 'run');
  if (unit?.state === 'queued' && status !== 'completed' && status !== 'failed') return 'queued';
  if (status !== 'running') return status;
  return (await store.leases.isLive(runId, hostname())) ? 'running' : 'interrupted';
}

/** Whether a unit's holder counts as gone by the lease rule (heartbeat too old, or a dead pid here). */
export function holderIsGone(unit: { runId: string; owner?: string; pid?: number; host?: string; claimedAt?: string; heartbeatAt?: string }, staleAfterMs = DEFAULT_LEASE_STALE_MS): boolean {
  const holder = { runId: unit.runId, owner: unit.owner ?? '', pid: unit.pid ?? 0, host: unit.host ?? '', acquiredAt: unit.claimedAt ?? '', heartbeatAt: unit.heartbeatAt ?? '' };
  return isStale(holder, { id: '', pid: process.pid, host: hostname() }, staleAfterMs, Date.now());
}
