// Run leases on PostgreSQL: the fence that keeps two processes from driving the same run. acquire is
// one transaction: insert the lease if there is none (ON CONFLICT waits for a concurrent insert to
// commit), else lock the holder's row (FOR UPDATE), judge it by leaseRules.ts, and take it over only
// when it is ours or stale. Two acquirers therefore never both succeed.

import { toLeaseRow } from '../../rowReaders.js';
import { parseRow, RawLease } from '../../rowSchemas.js';
import type { LeaseRow } from '../../rows.js';
import type { AcquireResult, LeasesRepo } from '../../repos/leases.js';
import { DEFAULT_LEASE_STALE_MS } from '../../repos/leases.js';
import { isStale } from '../../leaseRules.js';
import type { PgRepoContext } from '../context.js';

export function createLeasesRepo({ sql, atomic, clock, now }: PgRepoContext): LeasesRepo {
  const read = (row: unknown): LeaseRow => toLeaseRow(parseRow(RawLease, 'leases', row));
  const get = async (runId: string): Promise<LeaseRow | undefined> => {
    const { rows } = await sql.query('SELECT * FROM leases WHERE run_id = $1', [runId]);
    return rows[0] === undefined ? undefined : read(rows[0]);
  };

  return {
    acquire(runId, owner, staleAfterMs) {
      return atomic(async (tx): Promise<AcquireResult> => {
        // A release between the insert and the lock leaves no row to lock: then insert again.
        for (;;) {
          const at = now();
          const inserted = await tx.query(
            `INSERT INTO leases (run_id, owner, pid, host, acquired_at, heartbeat_at) VALUES ($1, $2, $3, $4, $5, $5)
             ON CONFLICT (run_id) DO NOTHING`,
            [runId, owner.id, owner.pid, owner.host, at],
          );
          if (inserted.rowCount === 1) return { ok: true };
          const { rows } = await tx.query('SELECT * FROM leases WHERE run_id = $1 FOR UPDATE', [runId]);
          if (rows[0] === undefined) continue;
          const holder = read(rows[0]);
          if (holder.owner !== owner.id && !isStale(holder, owner, staleAfterMs, clock())) return { ok: false, holder };
          await tx.query(
            `UPDATE leases SET acquired_at = CASE WHEN owner = $2 THEN acquired_at ELSE $5::timestamptz END,
               owner = $2, pid = $3, host = $4, heartbeat_at = $5::timestamptz
             WHERE run_id = $1`,
            [runId, owner.id, owner.pid, owner.host, at],
          );
          return { ok: true };
        }
      });
    },
    async heartbeat(runId, ownerId) {
      const { rowCount } = await sql.query('UPDATE leases SET heartbeat_at = $1 WHERE run_id = $2 AND owner = $3', [now(), runId, ownerId]);
      return rowCount === 1;
    },
    async release(runId, ownerId) {
      await sql.query('DELETE FROM leases WHERE run_id = $1 AND owner = $2', [runId, ownerId]);
    },
    get,
    async isLive(runId, host, staleAfterMs = DEFAULT_LEASE_STALE_MS) {
      const holder = await get(runId);
      return holder !== undefined && !isStale(holder, { id: '', pid: process.pid, host }, staleAfterMs, clock());
    },
  };
}
