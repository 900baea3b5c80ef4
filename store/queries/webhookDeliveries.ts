// Webhook deliveries (see repos/webhookDeliveries.ts): the primary key makes the claim atomic, across
// servers on PostgreSQL.

import { CLAIM_ABANDONED_MS, parseDeliveryInputs, type DeliveryOutcome, type WebhookDeliveriesRepo } from '../repos/webhookDeliveries.js';
import type { QueryContext } from '../sql/driver.js';
import { sql } from '../sql/statement.js';

type Key = [path: string, kind: string, value: string];

// A claim still without its run after CLAIM_ABANDONED_MS was abandoned (see CLAIM_ABANDONED_MS): the
// next delivery takes it over.
const CLAIM = sql<[...Key, at: string, abandonedBefore: string]>(
  `INSERT INTO webhook_deliveries (trigger_path, kind, value, created_at) VALUES ($1, $2, $3, $4)
   ON CONFLICT (trigger_path, kind, value) DO UPDATE SET created_at = excluded.created_at
   WHERE webhook_deliveries.run_id IS NULL AND webhook_deliveries.created_at < $5::timestamptz`,
);
const SET_RUN = sql<[runId: string, ...Key]>('UPDATE webhook_deliveries SET run_id = $1 WHERE trigger_path = $2 AND kind = $3 AND value = $4');
const RELEASE = sql<Key>('DELETE FROM webhook_deliveries WHERE trigger_path = $1 AND kind = $2 AND value = $3');
const RUN_OF = sql<Key, { run_id: string | null }>('SELECT run_id FROM webhook_deliveries WHERE trigger_path = $1 AND kind = $2 AND value = $3');
const ACCEPT = sql<[runId: string, path: string, mission: string, inputs: string, at: string]>(
  'INSERT INTO webhook_runs (run_id, trigger_path, mission, inputs_json, created_at) VALUES ($1, $2, $3, $4::json, $5::timestamptz)',
);
const PENDING = sql<[acceptedBefore: string], { run_id: string; trigger_path: string; mission: string; inputs_json: unknown; created_at: unknown }>(
  'SELECT run_id, trigger_path, mission, inputs_json, created_at FROM webhook_runs WHERE created_at < $1::timestamptz ORDER BY created_at, run_id',
);
const IS_ACCEPTED = sql<[runId: string], { one: number }>('SELECT 1 AS one FROM webhook_runs WHERE run_id = $1');
const SETTLE = sql<[runId: string]>('DELETE FROM webhook_runs WHERE run_id = $1');
const LOG = sql<[path: string, mission: string, outcome: DeliveryOutcome, runId: string | null, reason: string | null, at: string]>(
  'INSERT INTO webhook_log (trigger_path, mission, outcome, run_id, reason, created_at) VALUES ($1, $2, $3, $4, $5, $6::timestamptz)',
);
const REFUSE_STARTED = sql<[reason: string, runId: string]>("UPDATE webhook_log SET outcome = 'refused', reason = $1 WHERE run_id = $2 AND outcome = 'accepted'");
const RECENT = sql<[path: string, limit: number], { mission: unknown; outcome: unknown; run_id: unknown; reason: unknown; created_at: unknown; run_status: unknown; waiting: unknown }>(
  `SELECT l.mission, l.outcome, l.run_id, l.reason, l.created_at, r.status AS run_status, w.run_id AS waiting
   FROM webhook_log l LEFT JOIN runs r ON r.id = l.run_id LEFT JOIN webhook_runs w ON w.run_id = l.run_id AND l.outcome = 'accepted'
   WHERE l.trigger_path = $1 ORDER BY l.id DESC LIMIT $2`,
);
const OUTCOMES: readonly string[] = ['accepted', 'duplicate', 'replayed', 'refused'];

export function createWebhookDeliveriesRepo({ db, codec, clock, now }: QueryContext): WebhookDeliveriesRepo {
  db.prepare(CLAIM, SET_RUN, RELEASE, RUN_OF, ACCEPT, PENDING, IS_ACCEPTED, SETTLE, LOG, REFUSE_STARTED, RECENT);
  return {
    async accept(d) {
      await db.run(ACCEPT, [d.runId, d.path, d.mission, JSON.stringify(d.inputs), d.createdAt]);
    },
    async pending(acceptedBefore) {
      const rows = await db.all(PENDING, [acceptedBefore]);
      return rows.map((r) => ({ runId: String(r.run_id), path: String(r.trigger_path), mission: String(r.mission), inputs: parseDeliveryInputs(String(r.inputs_json)), createdAt: String(r.created_at) }));
    },
    async isAccepted(runId) {
      return (await db.get(IS_ACCEPTED, [runId])) !== undefined;
    },
    async settle(runId) {
      await db.run(SETTLE, [runId]);
    },
    async log(e) {
      await db.run(LOG, [e.path, e.mission, e.outcome, e.runId ?? null, codec.textOrNull(e.reason), now()]);
    },
    async refuseStarted(runId, reason) {
      await db.run(REFUSE_STARTED, [codec.text(reason), runId]);
    },
    async recent(path, limit) {
      const rows = await db.all(RECENT, [path, limit]);
      return rows.map((r) => ({
        path,
        mission: String(r.mission),
        outcome: (OUTCOMES.includes(String(r.outcome)) ? String(r.outcome) : 'refused') as DeliveryOutcome,
        ...(typeof r.run_id === 'string' ? { runId: r.run_id } : {}),
        ...(typeof r.reason === 'string' ? { reason: r.reason } : {}),
        createdAt: String(r.created_at),
        ...(typeof r.run_status === 'string' ? { runStatus: r.run_status } : {}),
        starting: typeof r.waiting === 'string',
      }));
    },
    async claim(path, kind, value) {
      return (await db.run(CLAIM, [path, kind, value, now(), new Date(clock() - CLAIM_ABANDONED_MS).toISOString()])) === 1;
    },
    async setRun(path, kind, value, runId) {
      await db.run(SET_RUN, [runId, path, kind, value]);
    },
    async release(path, kind, value) {
      await db.run(RELEASE, [path, kind, value]);
    },
    async runOf(path, kind, value) {
      const row = await db.get(RUN_OF, [path, kind, value]);
      return row === undefined ? undefined : typeof row.run_id === 'string' ? row.run_id : null;
    },
  };
}
