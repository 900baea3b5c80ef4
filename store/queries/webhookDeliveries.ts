// Webhook deliveries (see repos/webhookDeliveries.ts): the primary key makes the claim atomic, across
// servers on PostgreSQL.

import { parseDeliveryInputs, type WebhookDeliveriesRepo } from '../repos/webhookDeliveries.js';
import type { QueryContext } from '../sql/driver.js';
import { sql } from '../sql/statement.js';

type Key = [path: string, kind: string, value: string];

const CLAIM = sql<[...Key, at: string]>('INSERT INTO webhook_deliveries (trigger_path, kind, value, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING');
const SET_RUN = sql<[runId: string, ...Key]>('UPDATE webhook_deliveries SET run_id = $1 WHERE trigger_path = $2 AND kind = $3 AND value = $4');
const RELEASE = sql<Key>('DELETE FROM webhook_deliveries WHERE trigger_path = $1 AND kind = $2 AND value = $3');
const RUN_OF = sql<Key, { run_id: string | null }>('SELECT run_id FROM webhook_deliveries WHERE trigger_path = $1 AND kind = $2 AND value = $3');
const ACCEPT = sql<[runId: string, path: string, mission: string, inputs: string, at: string]>(
  'INSERT INTO webhook_runs (run_id, trigger_path, mission, inputs_json, created_at) VALUES ($1, $2, $3, $4::json, $5::timestamptz)',
);
const PENDING = sql<[], { run_id: string; trigger_path: string; mission: string; inputs_json: unknown; created_at: unknown }>(
  'SELECT run_id, trigger_path, mission, inputs_json, created_at FROM webhook_runs ORDER BY created_at, run_id',
);
const IS_ACCEPTED = sql<[runId: string], { one: number }>('SELECT 1 AS one FROM webhook_runs WHERE run_id = $1');
const SETTLE = sql<[runId: string]>('DELETE FROM webhook_runs WHERE run_id = $1');

export function createWebhookDeliveriesRepo({ db, now }: QueryContext): WebhookDeliveriesRepo {
  db.prepare(CLAIM, SET_RUN, RELEASE, RUN_OF, ACCEPT, PENDING, IS_ACCEPTED, SETTLE);
  return {
    async accept(d) {
      await db.run(ACCEPT, [d.runId, d.path, d.mission, JSON.stringify(d.inputs), d.createdAt]);
    },
    async pending() {
      const rows = await db.all(PENDING, []);
      return rows.map((r) => ({ runId: String(r.run_id), path: String(r.trigger_path), mission: String(r.mission), inputs: parseDeliveryInputs(String(r.inputs_json)), createdAt: String(r.created_at) }));
    },
    async isAccepted(runId) {
      return (await db.get(IS_ACCEPTED, [runId])) !== undefined;
    },
    async settle(runId) {
      await db.run(SETTLE, [runId]);
    },
    async claim(path, kind, value) {
      return (await db.run(CLAIM, [path, kind, value, now()])) === 1;
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
