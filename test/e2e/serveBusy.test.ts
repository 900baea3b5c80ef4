// `squadron serve` while another process holds its SQLite database locked for longer than the busy
// timeout: a schedule due meanwhile fires once the lock is released (its claim is tried again with
// backoff, not dropped), a webhook delivery meanwhile is answered 503 with Retry-After (nothing
// stored), and afterwards the server carries on: the redelivered webhook starts its run, each run
// happens once, and SIGTERM still exits 0.

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createToken, killStillRunning, quickstartWith, readEvents, type ServeProcess, startServe, triggerBlock, webhookSignature } from '../support/serveProcess.js';

const SECRET = 'whsec-0123456789abcdef';
const started: ServeProcess[] = [];
const dirs: string[] = [];
afterEach(() => killStillRunning(started));
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const finished = (e: { event: string }): boolean => e.event === 'run.finished';

describe('serve with its database held by another process', () => {
  it('fires the schedule due meanwhile once the lock is released, answers deliveries 503 meanwhile, and carries on', async () => {
    // catchup_window: on a loaded machine the server may boot past 07:00, and then fires it at start.
    const dir = quickstartWith(`  schedule {\n    at             = ["07:00"]\n    catchup_window = "10m"\n    inputs         = { topic = "tide pools" }\n  }\n${triggerBlock('facts', SECRET)}`, 'squadron-serve-busy-');
    dirs.push(dir);
    const tok = await createToken(dir);
    const db = join(dir, '.squadron', 'squadron.db');

    // Another process takes the write lock before the server starts, and keeps it past busy_timeout (5 s).
    const holder = new Database(db);
    holder.exec('BEGIN IMMEDIATE');
    let held = true;
    try {
      // The schedule is due a second after the server's (injected) clock starts: while the lock is held.
      const clock = Date.parse('2031-03-04T06:59:59Z');
      const s = await startServe([dir], { cwd: dir, env: { SQUADRON_CLOCK: new Date(clock).toISOString() } });
      started.push(s);
      const retried = await s.waitForLog((l) => l['msg'] === 'claiming a schedule fire failed; trying again');
      expect(retried).toMatchObject({ level: 'warn', schedule: 'quickstart.0', fire_at: '2031-03-04T07:00:00.000Z', error: expect.stringMatching(/locked|busy/i) });

      const body = JSON.stringify({ topic: 'tide pools' });
      const t = Math.floor(clock / 1000);
      const sign = (at: number): string => webhookSignature(SECRET, at, body);
      const post = (at: number): Promise<Response> =>
        fetch(`${s.url}/webhooks/facts`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-squadron-signature': sign(at), 'idempotency-key': 'd-1' }, body });
      const refused = await post(t);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(await refused.json()).toMatchObject({ error_code: 'busy' });
      // The server still answers while the database is held.
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);

      holder.exec('COMMIT');
      held = false;
      const fired = await s.waitForLog((l) => l['msg'] === 'schedule fired');
      expect(fired).toMatchObject({ schedule: 'quickstart.0', fire_at: '2031-03-04T07:00:00.000Z', why: expect.stringMatching(/^(schedule|catch-up)$/) });
      const ran = await s.waitForLog((l) => l['msg'] === 'run started');
      const scheduled = ran['run_id'] as string;
      const events = await readEvents(`${s.url}/v1/runs/${scheduled}/events`, tok, { until: finished });
      expect(events.at(-1)!.data['data']).toMatchObject({ status: 'completed' });

      // The same delivery again (signed a second later, same key): nothing was stored the first time, so it starts now.
      const accepted = await post(t + 1);
      expect(accepted.status).toBe(202);
      const delivered = ((await accepted.json()) as { run_id: string }).run_id;
      const second = await readEvents(`${s.url}/v1/runs/${delivered}/events`, tok, { until: finished });
      expect(second.at(-1)!.data['data']).toMatchObject({ status: 'completed' });

      s.child.kill('SIGTERM');
      expect((await s.exited).code).toBe(0);
      const after = new Database(db, { readonly: true });
      try {
        const runs = after.prepare('SELECT id, status FROM runs ORDER BY started_at').all();
        expect(runs).toEqual([
          { id: scheduled, status: 'completed' },
          { id: delivered, status: 'completed' },
        ]);
        expect(after.prepare('SELECT schedule_id, run_id FROM schedule_fires').all()).toEqual([{ schedule_id: 'quickstart.0', run_id: scheduled }]);
      } finally {
        after.close();
      }
    } finally {
      if (held) holder.exec('ROLLBACK');
      holder.close();
    }
  });
});
