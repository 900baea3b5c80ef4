// Two `squadron serve` processes on one PostgreSQL database: a schedule fires once (one claims the
// fire, the other sees it taken), and a webhook delivered to both with one Idempotency-Key starts
// one run; a token made once is accepted by both.

import { afterEach, describe, expect, it } from 'vitest';
import { usePostgres } from '../support/postgres.js';
import { createToken, killStillRunning, quickstartWith, type ServeProcess, startServe, triggerBlock, webhookSignature } from '../support/serveProcess.js';

const pg = usePostgres();

const started: ServeProcess[] = [];
afterEach(() => killStillRunning(started));

describe('two servers on one PostgreSQL database', () => {
  it('fire a schedule once and start one run per webhook delivery', async () => {
    const db = await pg().createDatabase();
    const secret = 'whsec-0123456789abcdef';
    const dir = quickstartWith(`  schedule {\n    at = ["07:00"]\n  }\n${triggerBlock('facts', secret)}`, 'squadron-serve-pg-');
    const tok = await createToken(dir, 'ci', '--db', db);
    const clock = '2031-03-04T06:59:55Z';
    const servers = await Promise.all([0, 1].map(() => startServe([dir, '--db', db], { cwd: dir, env: { SQUADRON_CLOCK: clock } })));
    started.push(...servers);
    const atSeven = (l: Record<string, unknown>): boolean => l['schedule'] === 'quickstart.0' && l['fire_at'] === '2031-03-04T07:00:00.000Z';
    const outcomes = await Promise.all(servers.map((s) => s.waitForLog((l) => atSeven(l) && (l['msg'] === 'schedule fired' || l['msg'] === 'schedule fire taken by another server'), 120_000)));
    expect(outcomes.map((o) => o['msg']).sort()).toEqual(['schedule fire taken by another server', 'schedule fired']);

    const body = JSON.stringify({ topic: 'tide pools' });
    const t = Math.floor(Date.parse(clock) / 1000) + 10;
    const deliver = (s: ServeProcess, at: number) =>
      fetch(`${s.url}/webhooks/facts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'd-1', 'x-squadron-signature': webhookSignature(secret, at, body) },
        body,
      }).then(async (r) => ({ status: r.status, json: (await r.json()) as Record<string, unknown> }));
    const first = await deliver(servers[0]!, t);
    expect(first.status).toBe(202);
    const second = await deliver(servers[1]!, t + 1);
    expect(second).toEqual({ status: 200, json: { run_id: first.json['run_id'], duplicate: true } });

    // The 202 follows the stored delivery; its run is stored right after (by the server that took it).
    for (let tries = 0; (await fetch(`${servers[1]!.url}/v1/runs/${first.json['run_id'] as string}`, { headers: { authorization: `Bearer ${tok}` } })).status !== 200; tries++) {
      if (tries > 1200) throw new Error('the delivery\'s run was never stored');
      await new Promise((r) => setTimeout(r, 50));
    }
    // Both servers accept the one token; both list the same two runs (the fire's and the webhook's),
    // once the fire's run is stored too (its run thread stores it after "schedule fired").
    const list = async (s: ServeProcess) => (await (await fetch(`${s.url}/v1/runs`, { headers: { authorization: `Bearer ${tok}` } })).json()) as { runs: { id: string }[] };
    for (let tries = 0; (await list(servers[0]!)).runs.length < 2; tries++) {
      if (tries > 1200) throw new Error("the schedule fire's run was never stored");
      await new Promise((r) => setTimeout(r, 50));
    }
    const lists = await Promise.all(servers.map(list));
    expect(lists[0]!.runs.map((r) => r.id).sort()).toEqual(lists[1]!.runs.map((r) => r.id).sort());
    expect(lists[0]!.runs.length).toBe(2);
  });
});
