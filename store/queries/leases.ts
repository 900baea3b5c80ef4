// Run leases: the fence that keeps two processes from driving the same run. A lease is taken when
// free, renewed by its owner's heartbeat, and taken over only when its holder is provably gone
// (heartbeat too old, or a dead pid on this host: leaseRules.ts). acquire is one transaction: insert
// the lease if there is none (on PostgreSQL ON CONFLICT waits for a concurrent insert to commit), else
// lock the holder's row (FOR UPDATE on PostgreSQL; SQLite's BEGIN IMMEDIATE already holds the one
// write lock), judge it, and take it over only when it is ours or stale. Two acquirers therefore
// never both succeed.

import { isStale } from '../leaseRules.js';
import { toLeaseRow } from '../rowReaders.js';
import { parseRow, RawLease } from '../rowSchemas.js';
import type { LeaseRow } from '../rows.js';
import { DEFAULT_LEASE_STALE_MS, type AcquireResult, type LeasesRepo } from '../repos/leases.js';
import { lockClause } from '../sql/dialect.js';
import type { QueryContext } from '../sql/driver.js';
import { sql } from '../sql/statement.js';

type Take = [runId: string, owner: string, pid: number, host: string, at: string];

const INSERT = sql<Take>(
  `INSERT INTO leases (run_id, owner, pid, host, acquired_at, heartbeat_at) VALUES ($1, $2, $3, $4, $5, $5)
   ON CONFLICT (run_id) DO NOTHING`,
);
const BY_RUN = sql<[string]>('SELECT * FROM leases WHERE run_id = $1');
const BY_RUN_LOCKED = sql<[string]>((d) => `SELECT * FROM leases WHERE run_id = $1${lockClause(d, 'FOR UPDATE')}`);
const TAKE_OVER = sql<Take>(
  `UPDATE leases SET acquired_at = CASE WHEN owner = $2 THEN acquired_at ELSE $5::timestamptz END,
     owner = $2, pid = $3, host = $4, heartbeat_at = $5::timestamptz
   WHERE run_id = $1`,
);
const BEAT = sql<[at: string, runId: string, owner: string]>('UPDATE leases SET heartbeat_at = $1 WHERE run_id = $2 AND owner = $3');
const RELEASE = sql<[runId: string, owner: string]>('DELETE FROM leases WHERE run_id = $1 AND owner = $2');

export function createLeasesRepo({ db, clock, now }: QueryContext): LeasesRepo {
  db.prepare(INSERT, BY_RUN, BY_RUN_LOCKED, TAKE_OVER, BEAT, RELEASE);
  const read = (row: unknown): LeaseRow => toLeaseRow(parseRow(RawLease, 'leases', row));
  const get = async (runId: string): Promise<LeaseRow | undefined> => {
    const row = await db.get(BY_RUN, [runId]);
    return row === undefined ? undefined : read(row);
  };

  return {
    acquire(runId, owner, staleAfterMs) {
      return db.atomic(async (tx): Promise<AcquireResult> => {
        // A release between the insert and the lock leaves no row to lock: then insert again.
        for (;;) {
          const take: Take = [runId, owner.id, owner.pid, owner.host, now()];
          if ((await tx.run(INSERT, take)) === 1) return { ok: true };
          const row = await tx.get(BY_RUN_LOCKED, [runId]);
          if (row === undefined) continue;
          const holder = read(row);
          if (holder.owner !== owner.id && !isStale(holder, owner, staleAfterMs, clock())) return { ok: false, holder };
          await tx.run(TAKE_OVER, take);
          return { ok: true };
        }
      });
    },
    async heartbeat(runId, ownerId) {
      return (await db.run(BEAT, [now(), runId, ownerId])) === 1;
    },
    async release(runId, ownerId) {
      await db.run(RELEASE, [runId, ownerId]);
    },
    get,
    async isLive(runId, host, staleAfterMs = DEFAULT_LEASE_STALE_MS) {
      const holder = await get(runId);
      return holder !== undefined && !isStale(holder, { id: '', pid: process.pid, host }, staleAfterMs, clock());
    },
  };
}
