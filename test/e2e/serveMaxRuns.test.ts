// `squadron serve --max-runs`: runs execute on run threads, at most N at once. Deliveries beyond
// that are answered 202 at once and wait their turn (each stored before its 202, so none is lost),
// their run ids can be followed before their runs are stored, and the all-runs event stream sees
// every event of runs executed off the HTTP thread.

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { createToken, killStillRunning, quickstartWith, readEvents, type ServeProcess, startServe, triggerBlock, webhookSignature } from '../support/serveProcess.js';

const SECRET = 'whsec-0123456789abcdef';
const started: ServeProcess[] = [];
const dirs: string[] = [];
afterEach(() => killStillRunning(started));
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function project(): string {
  const dir = quickstartWith(triggerBlock('facts', SECRET), 'squadron-serve-max-');
  dirs.push(dir);
  return dir;
}

describe('serve --max-runs', () => {
  it('refuses a bad value in one line', async () => {
    const r = await runCli(['serve', project(), '--port', '0', '--max-runs', '0']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('--max-runs expects a whole number of at least 1, not "0"');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('answers every delivery 202 at once, drives one run at a time, and streams every event of every run', async () => {
    const dir = project();
    const tok = await createToken(dir);
    const s = await startServe([dir, '--max-runs', '1'], { cwd: dir });
    started.push(s);
    // Every run's events from the first on, read while the runs go.
    const all = new Set<string>();
    const ids: string[] = [];
    const streamed = readEvents(`${s.url}/v1/events`, tok, { until: (e) => (e.event === 'run.finished' && all.add(e.data['run_id'] as string) && ids.every((id) => all.has(id)) && ids.length === 3) || false });

    const now = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ topic: 'tide pools' });
    const deliveries = await Promise.all(
      [0, 1, 2].map(async (n) => {
        // The same body signed at three times: three deliveries, not replays.
        const t = now - n;
        const sig = webhookSignature(SECRET, t, body);
        const res = await fetch(`${s.url}/webhooks/facts`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-squadron-signature': sig }, body });
        expect(res.status).toBe(202);
        return ((await res.json()) as { run_id: string }).run_id;
      }),
    );
    ids.push(...deliveries);
    // Each run id is followed from its 202 on, stored yet or not.
    const finished = await Promise.all(deliveries.map((id) => readEvents(`${s.url}/v1/runs/${id}/events`, tok, { until: (e) => e.event === 'run.finished' })));
    for (const events of finished) expect(events.at(-1)!.data['data']).toMatchObject({ status: 'completed' });

    // The all-runs stream saw each run from its start to its end.
    const stream = await streamed;
    for (const id of deliveries) {
      const types = stream.filter((e) => e.data['run_id'] === id).map((e) => e.event);
      expect(types[0]).toBe('run.started');
      expect(types.at(-1)).toBe('run.finished');
    }
    // One at a time: each run started after the one before it ended.
    const order = s.logs.filter((l) => l['msg'] === 'run started' || l['msg'] === 'run ended').map((l) => `${l['msg'] as string}:${l['run_id'] as string}`);
    expect(order).toHaveLength(6);
    for (let i = 0; i < 6; i += 2) expect(order[i + 1]).toBe(order[i]!.replace('run started', 'run ended'));

    s.child.kill('SIGTERM');
    expect((await s.exited).code).toBe(0);
    const db = new Database(join(dir, '.squadron', 'squadron.db'), { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) AS n FROM runs WHERE status = ?').get('completed')).toEqual({ n: 3 });
      expect(db.prepare('SELECT count(*) AS n FROM webhook_runs').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});
