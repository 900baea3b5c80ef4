// Webhook deliveries on SQLite (see repos/webhookDeliveries.ts).

import type { RepoContext } from './context.js';
import type { WebhookDeliveriesRepo } from '../repos/webhookDeliveries.js';

export function createWebhookDeliveriesRepo({ db, now }: RepoContext): WebhookDeliveriesRepo {
  const claim = db.prepare('INSERT INTO webhook_deliveries (trigger_path, kind, value, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING');
  const setRun = db.prepare('UPDATE webhook_deliveries SET run_id = ? WHERE trigger_path = ? AND kind = ? AND value = ?');
  const release = db.prepare('DELETE FROM webhook_deliveries WHERE trigger_path = ? AND kind = ? AND value = ?');
  const runOf = db.prepare('SELECT run_id FROM webhook_deliveries WHERE trigger_path = ? AND kind = ? AND value = ?');
  return {
    async claim(path, kind, value) {
      return claim.run(path, kind, value, now()).changes === 1;
    },
    async setRun(path, kind, value, runId) {
      setRun.run(runId, path, kind, value);
    },
    async release(path, kind, value) {
      release.run(path, kind, value);
    },
    async runOf(path, kind, value) {
      const row = runOf.get(path, kind, value) as { run_id: string | null } | undefined;
      return row === undefined ? undefined : row.run_id;
    },
  };
}
