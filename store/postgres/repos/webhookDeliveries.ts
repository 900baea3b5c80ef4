// Webhook deliveries on PostgreSQL (see repos/webhookDeliveries.ts): the primary key makes the claim
// atomic across servers.

import { parseDeliveryInputs, type WebhookDeliveriesRepo } from '../../repos/webhookDeliveries.js';
import type { PgRepoContext } from '../context.js';

export function createWebhookDeliveriesRepo({ sql, now }: PgRepoContext): WebhookDeliveriesRepo {
  return {
    async accept(d) {
      await sql.query('INSERT INTO webhook_runs (run_id, trigger_path, mission, inputs_json, created_at) VALUES ($1, $2, $3, $4::json, $5::timestamptz)', [d.runId, d.path, d.mission, JSON.stringify(d.inputs), d.createdAt]);
    },
    async pending() {
      const { rows } = await sql.query('SELECT run_id, trigger_path, mission, inputs_json, created_at FROM webhook_runs ORDER BY created_at, run_id');
      return rows.map((r) => ({ runId: String(r['run_id']), path: String(r['trigger_path']), mission: String(r['mission']), inputs: parseDeliveryInputs(String(r['inputs_json'])), createdAt: String(r['created_at']) }));
    },
    async settle(runId) {
      await sql.query('DELETE FROM webhook_runs WHERE run_id = $1', [runId]);
    },
    async claim(path, kind, value) {
      const { rowCount } = await sql.query('INSERT INTO webhook_deliveries (trigger_path, kind, value, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [path, kind, value, now()]);
      return rowCount === 1;
    },
    async setRun(path, kind, value, runId) {
      await sql.query('UPDATE webhook_deliveries SET run_id = $1 WHERE trigger_path = $2 AND kind = $3 AND value = $4', [runId, path, kind, value]);
    },
    async release(path, kind, value) {
      await sql.query('DELETE FROM webhook_deliveries WHERE trigger_path = $1 AND kind = $2 AND value = $3', [path, kind, value]);
    },
    async runOf(path, kind, value) {
      const { rows } = await sql.query('SELECT run_id FROM webhook_deliveries WHERE trigger_path = $1 AND kind = $2 AND value = $3', [path, kind, value]);
      const row = rows[0];
      return row === undefined ? undefined : typeof row['run_id'] === 'string' ? row['run_id'] : null;
    },
  };
}
