// Run leases: the fence that keeps two processes from driving the same run. A lease is taken when
// free, renewed by its owner's heartbeat, and taken over only when its holder is provably gone
// (heartbeat too old, or a dead pid on this host).

import { toLeaseRow } from '../rowReaders.js';
import { parseRow, RawLease } from '../rowSchemas.js';
import type { LeaseRow } from '../rows.js';
import type { RepoContext } from './context.js';
import type { LeaseOwner, AcquireResult, LeasesRepo } from '../repos/leases.js';
import { DEFAULT_LEASE_STALE_MS } from '../repos/leases.js';
import { isStale } from '../leaseRules.js';

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
    async acquire(runId, owner, staleAfterMs) {
      return acquire.immediate(runId, owner, staleAfterMs);
    },
    async heartbeat(runId, ownerId) {
      return beat.run(now(), runId, ownerId).changes === 1;
    },
    async release(runId, ownerId) {
      release.run(runId, ownerId);
    },
    async get(runId) {
      const row = byRun.get(runId);
      return row === undefined ? undefined : read(row);
    },
    async isLive(runId, host, staleAfterMs = DEFAULT_LEASE_STALE_MS) {
      const row = byRun.get(runId);
      return row !== undefined && !isStale(read(row), { id: '', pid: process.pid, host }, staleAfterMs, clock());
    },
  };
}
