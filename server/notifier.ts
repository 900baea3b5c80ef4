// Outgoing notifications: each event a mission's `notification` block lists is POSTed as JSON to its
// URL, signed like an incoming webhook (X-Squadron-Signature: t=…,v1=HMAC of "<t>.<body>"), and
// retried with exponential backoff (1 s, 2 s, 4 s, 8 s; SQUADRON_NOTIFY_BASE_MS scales it) until a
// 2xx or 5 attempts. Deliveries live in memory: a server that stops drops the ones still retrying.

import { signPayload, type LoadedProject, type RunStore } from '../api/index.js';
import { errorText, type Log } from './log.js';
import { retrying } from './retry.js';
import type { NotifyType } from './runThreadProtocol.js';


const ATTEMPTS = 5;

export class Notifier {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly deps: { store: RunStore; project: () => LoadedProject; log: Log; now: () => number; baseDelayMs: number; stop: AbortSignal }) {}

  /** Sends `type` for `runId` to every notification of its mission that lists it (in the background). */
  notify(runId: string, type: NotifyType, data: Record<string, unknown>): void {
    const job = this.send(runId, type, data).catch((error: unknown) => this.deps.log('error', 'notification failed', { run_id: runId, type, error: errorText(error) }));
    this.pending.add(job);
    void job.finally(() => this.pending.delete(job));
  }

  private async send(runId: string, type: NotifyType, data: Record<string, unknown>): Promise<void> {
    const run = await retrying('reading a run to notify', () => this.deps.store.runs.get(runId), { log: this.deps.log, stop: this.deps.stop, fields: { run_id: runId, type } });
    if (!run) return;
    const mission = this.deps.project().graph.missions.find((m) => m.name === run.mission);
    const targets = (mission?.notifications ?? []).filter((n) => n.events.includes(type));
    await Promise.all(
      targets.map(async (n) => {
        const body = JSON.stringify({ type, run_id: runId, mission: run.mission, at: new Date(this.deps.now()).toISOString(), data });
        for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
          if (this.deps.stop.aborted) return;
          const signature = signPayload(n.secret, body, Math.floor(this.deps.now() / 1000));
          let status = 0;
          try {
            const res = await fetch(n.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-squadron-event': type, 'x-squadron-signature': signature }, body, signal: AbortSignal.timeout(10_000) });
            status = res.status;
            await res.body?.cancel();
          } catch {
            status = 0;
          }
          if (status >= 200 && status < 300) {
            this.deps.log('info', 'notification delivered', { run_id: runId, type, notification: `${run.mission}.${n.index}`, attempt });
            return;
          }
          this.deps.log('warn', 'notification attempt failed', { run_id: runId, type, notification: `${run.mission}.${n.index}`, attempt, status });
          if (attempt < ATTEMPTS) await new Promise((done) => setTimeout(done, this.deps.baseDelayMs * 2 ** (attempt - 1)));
        }
      }),
    );
  }
}
