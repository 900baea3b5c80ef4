// Webhook deliveries on SQLite (see repos/webhookDeliveries.ts).

import type { RepoContext } from './context.js';
import { parseDeliveryInputs, type WebhookDeliveriesRepo } from '../repos/webhookDeliveries.js';

export function createWebhookDeliveriesRepo({ db, now }: RepoContext): WebhookDeliveriesRepo {
  const claim = db.prepare('INSERT INTO webhook_deliveries (trigger_path, kind, value, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING');
  const setRun = db.prepare('UPDATE webhook_deliveries SET run_id = ? WHERE trigger_path = ? AND kind = ? AND value = ?');
  const release = db.prepare('DELETE FROM webhook_deliveries WHERE trigger_path = ? AND kind = ? AND value = ?');
  const runOf = db.prepare('SELECT run_id FROM webhook_deliveries WHERE trigger_path = ? AND kind = ? AND value = ?');
  const accept = db.prepare('INSERT INTO webhook_runs (run_id, trigger_path, mission, inputs_json, created_at) VALUES (?, ?, ?, ?, ?)');
  const pending = db.prepare('SELECT run_id, trigger_path, mission, inputs_json, created_at FROM webhook_runs ORDER BY created_at, run_id');
  const settle = db.prepare('DELETE FROM webhook_runs WHERE run_id = ?');
  return {
    async accept(d) {
      accept.run(d.runId, d.path, d.mission, JSON.stringify(d.inputs), d.createdAt);
    },
    async pending() {
      const rows = pending.all() as { run_id: string; trigger_path: string; mission: string; inputs_json: string; created_at: string }[];
      return rows.map((r) => ({ runId: r.run_id, path: r.trigger_path, mission: r.mission, inputs: parseDeliveryInputs(r.inputs_json), createdAt: r.created_at }));
    },
    async settle(runId) {
      settle.run(runId);
    },
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
