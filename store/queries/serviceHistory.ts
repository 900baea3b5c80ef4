// Pruning the service's history (see repos/serviceHistory.ts), written once for both backends. Each
// kind is one condition, run as a count (dry run) or as a delete with the same text.

import type { HistoryPruned, ServiceHistoryRepo } from '../repos/serviceHistory.js';
import { inList, type DialectName } from '../sql/dialect.js';
import type { QueryContext } from '../sql/driver.js';
import { sql, type Statement } from '../sql/statement.js';

/** The values a kind's condition binds: the runs pruned now ($1) and the time before which rows may go ($2). */
type Params = [gone: unknown, before: string] | [gone: unknown] | [];

/**
 * `table`'s run is no longer kept: it has none, it is pruned now (the list at $1), or it is not
 * stored — and it is not an accepted delivery whose run is still to start (webhook_runs without its run).
 */
const runGone = (d: DialectName, table: string): string =>
  `(${table}.run_id IS NULL OR ${inList(d, `${table}.run_id`, 1, 'text')}
    OR (NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = ${table}.run_id)
        AND NOT EXISTS (SELECT 1 FROM webhook_runs w WHERE w.run_id = ${table}.run_id)))`;

const KINDS: Record<keyof HistoryPruned, { table: string; binds: 0 | 1 | 2; where: (d: DialectName) => string }> = {
  deliveryLog: { table: 'webhook_log', binds: 2, where: (d) => `webhook_log.created_at < $2::timestamptz AND ${runGone(d, 'webhook_log')}` },
  idempotencyKeys: {
    table: 'webhook_deliveries',
    binds: 2,
    where: (d) => `webhook_deliveries.kind = 'key' AND webhook_deliveries.created_at < $2::timestamptz AND ${runGone(d, 'webhook_deliveries')}`,
  },
  signatures: {
    table: 'webhook_deliveries',
    binds: 2,
    where: (d) => `webhook_deliveries.kind = 'signature' AND webhook_deliveries.created_at < $2::timestamptz AND ${runGone(d, 'webhook_deliveries')}`,
  },
  // The newest fire of each schedule stays: catch-up claims the last fire time it finds missed, and
  // a row still there is what tells it that fire ran.
  scheduleFires: {
    table: 'schedule_fires',
    binds: 2,
    where: (d) => `schedule_fires.created_at < $2::timestamptz AND ${runGone(d, 'schedule_fires')}
      AND schedule_fires.fire_at < (SELECT MAX(f.fire_at) FROM schedule_fires f WHERE f.schedule_id = schedule_fires.schedule_id)`,
  },
  // A cancel request is read by the run's next heartbeat: one whose run is gone asks nothing of anyone.
  runCancels: { table: 'run_cancels', binds: 1, where: (d) => runGone(d, 'run_cancels') },
  // An accepted delivery whose run is stored has started (serve's recovery pass forgets these rows
  // too): the row must go before its run, or a later server would take the run for one to start.
  startedDeliveries: { table: 'webhook_runs', binds: 0, where: () => 'EXISTS (SELECT 1 FROM runs r WHERE r.id = webhook_runs.run_id)' },
};

const NAMES = Object.keys(KINDS) as (keyof HistoryPruned)[];

const COUNT = Object.fromEntries(
  NAMES.map((k) => [k, sql<Params, { n: unknown }>((d) => `SELECT COUNT(*) AS n FROM ${KINDS[k].table} WHERE ${KINDS[k].where(d)}`)]),
) as Record<keyof HistoryPruned, Statement<Params, { n: unknown }>>;
const DELETE = Object.fromEntries(NAMES.map((k) => [k, sql<Params>((d) => `DELETE FROM ${KINDS[k].table} WHERE ${KINDS[k].where(d)}`)])) as Record<
  keyof HistoryPruned,
  Statement<Params>
>;

export function createServiceHistoryRepo({ db }: QueryContext): ServiceHistoryRepo {
  db.prepare(...Object.values(COUNT), ...Object.values(DELETE));
  return {
    async prune(p) {
      const out = {} as HistoryPruned;
      for (const kind of NAMES) {
        const before = kind === 'idempotencyKeys' ? p.keysBefore : kind === 'signatures' ? p.signaturesBefore : p.before;
        const values = [db.dialect.listValue(p.goneRuns), before].slice(0, KINDS[kind].binds) as Params;
        out[kind] = p.dryRun ? Number((await db.get(COUNT[kind], values))?.n ?? 0) : await db.run(DELETE[kind], values);
      }
      return out;
    },
  };
}
