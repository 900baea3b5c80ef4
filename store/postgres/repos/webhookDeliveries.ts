// Webhook deliveries on PostgreSQL (see repos/webhookDeliveries.ts): the primary key makes the claim
// atomic across servers.

import type { WebhookDeliveriesRepo } from '../../repos/webhookDeliveries.js';
import type { PgRepoContext } from '../context.js';

export function createWebhookDeliveriesRepo({ sql, now }: PgRepoContext): WebhookDeliveriesRepo {
  return {
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
