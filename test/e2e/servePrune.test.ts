// `squadron runs prune` on a database `squadron serve` wrote to: a server receives webhook
// deliveries and fires a schedule (on an injected clock), then `runs prune --older-than 0m` (its own
// clock injected hours, then days, later) removes the old runs with their delivery log, signatures
// and fires, but keeps the schedule's last fire (a restarted server's catch-up finds it and does not
// fire again) and the idempotency key inside its 7-day window (a redelivery is still a duplicate);
// past the window the key is forgotten and a redelivery starts a new run.

import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { killStillRunning, quickstartWith, type ServeProcess, startServe, triggerBlock, webhookSignature } from '../support/serveProcess.js';

const started: ServeProcess[] = [];
afterEach(() => killStillRunning(started));

const SECRET = 'whsec-0123456789abcdef';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function serve(dir: string, clock: string): Promise<ServeProcess> {
  const s = await startServe([dir], { cwd: dir, env: { SQUADRON_CLOCK: clock, SQUADRON_SERVE_RECOVER_MS: '300' } });
  started.push(s);
  return s;
}

/** POSTs a delivery signed at the server's injected time `clock` (ms). */
async function deliver(s: ServeProcess, clock: number, body: string, key?: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const t = Math.floor(clock / 1000);
  const signature = webhookSignature(SECRET, t, body);
  const res = await fetch(`${s.url}/webhooks/facts/new`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-squadron-signature': signature, ...(key !== undefined ? { 'idempotency-key': key } : {}) },
    body,
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const ended = (s: ServeProcess, runId: unknown) => s.waitForLog((l) => l['msg'] === 'run ended' && l['run_id'] === runId);

async function stop(s: ServeProcess): Promise<void> {
  s.child.kill('SIGTERM');
  await s.exited;
}

describe('runs prune on a database squadron serve wrote to', () => {
  it('removes old runs, delivery log, a signature and fires but keeps the last fire and a key inside its window; past it a redelivery starts a new run', async () => {
    const dir = quickstartWith(`${triggerBlock('facts/new', SECRET)}  schedule {\n    at             = ["07:00", "08:00"]\n    catchup_window = "30m"\n  }\n`, 'squadron-prune-serve-');
    const db = join(dir, '.squadron', 'squadron.db');
    const body = JSON.stringify({ topic: 'tide pools' });

    // Day one, 07:00 (UTC): a delivery with a key starts a run, the schedule fires, a bad body is refused.
    const c1 = Date.parse('2031-03-04T06:59:57Z');
    const s1 = await serve(dir, new Date(c1).toISOString());
    const first = await deliver(s1, c1, body, 'delivery-1');
    expect(first.status).toBe(202);
    const webhookRun = first.json['run_id'];
    await ended(s1, webhookRun);
    expect(await s1.waitForLog((l) => l['msg'] === 'schedule fired')).toMatchObject({ fire_at: '2031-03-04T07:00:00.000Z' });
    const fired1 = await s1.waitForLog((l) => l['msg'] === 'run started' && l['run_id'] !== webhookRun);
    await ended(s1, fired1['run_id']);
    expect((await deliver(s1, c1, JSON.stringify({ colour: 'red' }))).status).toBe(422);
    await stop(s1);
    // Then 08:00: the schedule's second (and last) fire.
    const s2 = await serve(dir, '2031-03-04T07:59:57Z');
    expect(await s2.waitForLog((l) => l['msg'] === 'schedule fired')).toMatchObject({ fire_at: '2031-03-04T08:00:00.000Z' });
    await ended(s2, (await s2.waitForLog((l) => l['msg'] === 'run started'))['run_id']);
    await stop(s2);

    const count = (table: string): number => {
      const raw = new Database(db, { readonly: true });
      try {
        return (raw.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
      } finally {
        raw.close();
      }
    };
    // Kept: the key and the signature of the delivery that started a run (a refused body claims nothing).
    expect([count('runs'), count('webhook_log'), count('webhook_deliveries'), count('schedule_fires')]).toEqual([3, 2, 2, 2]);

    // Two hours later by the prune's clock: everything but the key (7 days) and the last fire is old history.
    const later = { SQUADRON_CLOCK: new Date(Date.now() + 2 * HOUR).toISOString() };
    const history = { webhook_log: 2, idempotency_keys: 0, signatures: 1, schedule_fires: 1, run_cancels: 0 };
    const dry = await runCli(['runs', 'prune', '--older-than', '0m', '--dry-run', '--json'], { cwd: dir, env: later });
    expect(dry.code, dry.stderr).toBe(0);
    const planned = JSON.parse(dry.stdout) as { runs: unknown[]; history: Record<string, number> };
    expect(planned.runs).toHaveLength(3);
    expect(planned.history).toMatchObject(history);
    expect([count('runs'), count('webhook_log'), count('webhook_deliveries'), count('schedule_fires')]).toEqual([3, 2, 2, 2]);
    const done = await runCli(['runs', 'prune', '--older-than', '0m', '--json'], { cwd: dir, env: later });
    expect(done.code, done.stderr).toBe(0);
    expect((JSON.parse(done.stdout) as { history: Record<string, number> }).history).toMatchObject(history);
    // The key (kept), the last fire (kept); the accepted delivery's row is gone with its run, never left to start it again.
    expect([count('runs'), count('webhook_log'), count('webhook_deliveries'), count('schedule_fires'), count('webhook_runs')]).toEqual([0, 0, 1, 1, 0]);

    // A server restarted at 08:10 with a 30-minute catch-up window finds the 08:00 fire done: it does not fire again.
    const c3 = Date.parse('2031-03-04T08:10:00Z');
    const s3 = await serve(dir, new Date(c3).toISOString());
    expect(await s3.waitForLog((l) => l['msg'] === 'schedule fire taken by another server')).toMatchObject({ fire_at: '2031-03-04T08:00:00.000Z' });
    // The redelivery of the key inside its window is still a duplicate of the (pruned) first run.
    expect(await deliver(s3, c3, body, 'delivery-1')).toEqual({ status: 200, json: { run_id: webhookRun, duplicate: true } });
    expect(count('runs')).toBe(0);

    // Eight days later the key's window is over: prune forgets it, and the same key starts a new run.
    const week = { SQUADRON_CLOCK: new Date(Date.now() + 8 * DAY).toISOString() };
    const text = await runCli(['runs', 'prune', '--older-than', '0m'], { cwd: dir, env: week });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('pruned 0 runs finished more than 0m ago\n');
    expect(text.stdout).toContain("pruned from serve's history: 1 webhook log entry, 1 idempotency key, 0 signatures, 0 schedule fires, 0 cancel requests, 0 started deliveries\n");
    expect(count('schedule_fires')).toBe(1);
    const fresh = await deliver(s3, c3 + 1000, body, 'delivery-1');
    expect(fresh.status).toBe(202);
    expect(fresh.json['run_id']).not.toBe(webhookRun);
    await ended(s3, fresh.json['run_id']);
    await stop(s3);
  }, 240_000);

  it('a key left claimed without its delivery (an earlier version died in between): 409 while it may still be starting, taken over after 5 minutes', async () => {
    const dir = quickstartWith(triggerBlock('facts/new', SECRET), 'squadron-claim-serve-');
    const clock = Date.now();
    const s = await serve(dir, new Date(clock).toISOString());
    // What a server of an earlier version (claim, then a second transaction) killed in between left: claims without a run.
    const raw = new Database(join(dir, '.squadron', 'squadron.db'));
    try {
      const claim = raw.prepare("INSERT INTO webhook_deliveries (trigger_path, kind, value, run_id, created_at) VALUES ('facts/new', 'key', ?, NULL, ?)");
      claim.run('just-claimed', new Date(Date.now() - 1_000).toISOString());
      claim.run('abandoned', new Date(Date.now() - 6 * 60_000).toISOString());
    } finally {
      raw.close();
    }
    const body = JSON.stringify({ topic: 'tide pools' });
    expect(await deliver(s, clock, body, 'just-claimed')).toMatchObject({ status: 409, json: { error_code: 'in_progress' } });
    const taken = await deliver(s, clock, body, 'abandoned');
    expect(taken.status, JSON.stringify(taken.json)).toBe(202);
    expect(await ended(s, taken.json['run_id'])).toMatchObject({ status: 'completed' });
    expect(await deliver(s, clock + 1000, body, 'abandoned')).toEqual({ status: 200, json: { run_id: taken.json['run_id'], duplicate: true } });
    await stop(s);
  }, 120_000);
});
