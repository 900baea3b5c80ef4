// `squadron serve` as a user runs it: a process on a free port over the offline quickstart, its API
// behind bearer tokens made with `squadron token create` (every route, the event streams included),
// runs started, followed live and resumably, decided; SIGHUP reloads, SIGTERM drains, and a server
// killed with SIGKILL mid-run has the run continued by the next one, each tool call done once.

import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { CRASH_HOOK } from '../support/crashRun.js';
import { dbRows } from '../support/e2eProject.js';
import { createToken, killStillRunning, quickstartWith, readEvents, type ServeProcess, startServe, triggerBlock, webhookPoster, webhookSignature } from '../support/serveProcess.js';

const started: ServeProcess[] = [];
afterEach(() => killStillRunning(started));

function project(blocks = ''): { dir: string; db: string } {
  const dir = quickstartWith(blocks);
  return { dir, db: join(dir, '.squadron', 'squadron.db') };
}

async function serve(dir: string, env: Record<string, string> = {}): Promise<ServeProcess> {
  const s = await startServe([dir], { cwd: dir, env: { SQUADRON_SERVE_RECOVER_MS: '300', ...env } });
  started.push(s);
  return s;
}

function api(s: ServeProcess, tok: string | undefined) {
  return async (method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
    const res = await fetch(s.url + path, {
      method,
      headers: { ...(tok ? { authorization: `Bearer ${tok}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
}

const finished = (e: { event: string }): boolean => e.event === 'run.finished';

/** The quickstart with a trigger at /webhooks/facts/new signed with `secret`. */
const triggeredProject = (secret: string): { dir: string } => project(triggerBlock('facts/new', secret));

function signer(secret: string, t: number): (body: string, at?: number, key?: string) => string {
  return (body, at = t, key = secret) => webhookSignature(key, at, body);
}

describe('squadron serve', () => {
  it('refuses every route but the probes without a valid token, the event streams included; a revoked token stops working', async () => {
    const { dir } = project();
    const tok = await createToken(dir);
    const other = await createToken(dir, 'laptop');
    const s = await serve(dir);
    const doc = await api(s, tok)('GET', '/openapi.json');
    expect(doc.status).toBe(200);
    const paths = doc.json['paths'] as Record<string, Record<string, unknown>>;
    const table = Object.entries(paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    // The table the server says it serves is the one it enforces.
    expect(table.sort()).toEqual(
      [
        'GET /healthz', 'GET /readyz', 'GET /openapi.json', 'GET /v1/runs', 'POST /v1/runs', 'GET /v1/runs/{id}', 'POST /v1/runs/{id}/cancel', 'POST /v1/runs/{id}/resume',
        'POST /v1/runs/{id}/approve', 'POST /v1/runs/{id}/deny', 'POST /v1/runs/{id}/answer', 'GET /v1/runs/{id}/events', 'GET /v1/events', 'POST /webhooks/{path*}',
        'GET /v1/schedules', 'POST /v1/schedules/{id}/trigger', 'POST /v1/schedules/{id}/pause', 'POST /v1/schedules/{id}/resume',
      ].sort(),
    );
    for (const entry of table) {
      const [method, path] = entry.split(' ') as [string, string];
      if (path.startsWith('/webhooks/')) continue; // signed, not token-checked: the webhook test covers it
      const concrete = path.replace('{id}', 'run_0000000000000000');
      for (const header of [undefined, 'Bearer sqd_not-a-token', `Basic ${Buffer.from('a:b').toString('base64')}`]) {
        const res = await fetch(s.url + concrete, { method, headers: header ? { authorization: header } : {} });
        await res.body?.cancel();
        if (path === '/healthz' || path === '/readyz') expect(res.status, entry).toBe(200);
        else {
          expect(res.status, `${entry} with ${header ?? 'no token'}`).toBe(401);
          expect(res.headers.get('content-type'), entry).toContain('application/json');
        }
      }
    }
    expect((await api(s, other)('GET', '/v1/runs')).status).toBe(200);
    const revoked = await runCli(['token', 'revoke', 'laptop'], { cwd: dir });
    expect(revoked.code).toBe(0);
    expect((await api(s, other)('GET', '/v1/runs')).status).toBe(401);
    expect((await api(s, other)('GET', '/v1/events')).status).toBe(401);
    const listed = await runCli(['token', 'list', '--json'], { cwd: dir });
    const tokens = (JSON.parse(listed.stdout) as { tokens: { name: string; revoked_at: string | null }[] }).tokens;
    expect(tokens.map((t) => [t.name, t.revoked_at === null])).toEqual([
      ['ci', true],
      ['laptop', false],
    ]);
    // Stored hashed: neither token's text is in the database file, nor in the server's log.
    expect(readFileSync(join(dir, '.squadron', 'squadron.db')).includes(Buffer.from(tok))).toBe(false);
    expect(s.stderr()).not.toContain(tok);
    expect(s.logs.some((l) => l['msg'] === 'request' && l['status'] === 401)).toBe(true);
  });

  it('starts a run with 202, streams its events live and from Last-Event-ID, and answers the documents of runs --json and inspect --json', async () => {
    const { dir } = project();
    const tok = await createToken(dir);
    const s = await serve(dir);
    const call = api(s, tok);
    expect((await call('POST', '/v1/runs', { inputs: { colour: 'red' } })).json['error_code']).toBe('usage');
    expect((await call('POST', '/v1/runs', { nope: 1 })).status).toBe(400);
    const startedRun = await call('POST', '/v1/runs', { inputs: { topic: 'tide pools' } });
    expect(startedRun.status).toBe(202);
    const runId = startedRun.json['run_id'] as string;
    expect(runId).toMatch(/^run_/);
    const events = await readEvents(`${s.url}/v1/runs/${runId}/events`, tok, { until: finished });
    expect(events[0]!.event).toBe('run.started');
    expect(events.at(-1)!.data['data']).toMatchObject({ status: 'completed' });
    expect(events.every((e) => e.data['run_id'] === runId)).toBe(true);
    // Reconnecting with the id of an event seen resumes right after it.
    const mid = events[Math.floor(events.length / 2)]!;
    const again = await readEvents(`${s.url}/v1/runs/${runId}/events`, tok, { lastEventId: mid.id, until: finished });
    expect(again.map((e) => e.id)).toEqual(events.slice(events.indexOf(mid) + 1).map((e) => e.id));
    // The stream of all runs carries the same events.
    const all = await readEvents(`${s.url}/v1/events`, tok, { until: finished });
    expect(all.map((e) => e.id)).toEqual(events.map((e) => e.id));

    const got = await call('GET', `/v1/runs/${runId}`);
    const inspected = await runCli(['inspect', runId, '--json'], { cwd: dir });
    expect(got.status).toBe(200);
    expect(got.json).toEqual(JSON.parse(inspected.stdout));
    const list = await call('GET', '/v1/runs');
    const runs = await runCli(['runs', '--json'], { cwd: dir });
    const cliRows = (JSON.parse(runs.stdout) as { runs: Record<string, unknown>[] }).runs.map(({ db: _db, ...r }) => r);
    expect(list.json['runs']).toEqual(cliRows);
    expect(await call('GET', '/v1/runs/run_0000000000000000')).toEqual({ status: 404, json: { error: 'no run run_0000000000000000', error_code: 'not_found' } });
    expect((await call('POST', `/v1/runs/${runId}/cancel`)).status).toBe(409);
    expect((await call('POST', `/v1/runs/${runId}/approve`, { all: true })).json['error_code']).toBe('refused');
    expect((await call('DELETE', '/v1/runs')).status).toBe(405);
    // A malformed escape in the path is the client's error.
    expect(await call('GET', '/v1/runs/%E0')).toEqual({ status: 400, json: { error: 'the path is not valid percent-encoding', error_code: 'usage' } });
    expect((await fetch(`${s.url}/webhooks/%E0%A4`, { method: 'POST', body: '{}' })).status).toBe(400);
  });

  it('refuses a port already in use in one line, exit 2, with no stack trace', async () => {
    const { dir } = project();
    const holder = createServer();
    await new Promise<void>((done) => holder.listen(0, '127.0.0.1', done));
    const port = (holder.address() as AddressInfo).port;
    try {
      const r = await runCli(['serve', '--port', String(port)], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`cannot listen on 127.0.0.1:${port}: the address is already in use; pick another --port or --host`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await new Promise<void>((done) => holder.close(() => done()));
    }
  });

  it('SIGHUP reloads the config, keeping the old one when the new one is invalid; SIGTERM drains and exits 0', async () => {
    const { dir } = project();
    const tok = await createToken(dir);
    const s = await serve(dir);
    const hcl = join(dir, 'mission.hcl');
    const good = readFileSync(hcl, 'utf8');
    writeFileSync(hcl, `${good}\nmission "broken" {\n`);
    s.child.kill('SIGHUP');
    const refused = await s.waitForLog((l) => l['msg'] === 'config reload refused; keeping the previous config');
    expect(String(refused['error'])).toMatch(/mission\.hcl/);
    const kept = await api(s, tok)('POST', '/v1/runs', { inputs: { topic: 'tide pools' } });
    expect(kept.status).toBe(202);
    writeFileSync(hcl, good.replace('mission "quickstart"', 'mission "quickstart2"'));
    s.child.kill('SIGHUP');
    await s.waitForLog((l) => l['msg'] === 'config reloaded');
    const renamed = await api(s, tok)('POST', '/v1/runs', { mission: 'quickstart2', inputs: { topic: 'tide pools' } });
    expect(renamed.status).toBe(202);
    await readEvents(`${s.url}/v1/runs/${renamed.json['run_id'] as string}/events`, tok, { until: finished });
    s.child.kill('SIGTERM');
    expect(await s.exited).toEqual({ code: 0, signal: null });
    expect(s.logs.find((l) => l['msg'] === 'draining')).toMatchObject({ signal: 'SIGTERM' });
    expect(s.logs.find((l) => l['msg'] === 'stopped')).toMatchObject({ runs_left_to_resume: 0 });
  });

  it('a server killed with SIGKILL mid-run: the next one resumes the run by itself, and no tool call is done twice', async () => {
    const { dir, db } = project();
    const tok = await createToken(dir);
    const doomed = await startServe([dir], { cwd: dir, env: { NODE_OPTIONS: `--import ${CRASH_HOOK}`, SQUADRON_TEST_CRASH_AFTER: 'tool_calls:3' } });
    started.push(doomed);
    void api(doomed, tok)('POST', '/v1/runs', { inputs: { topic: 'tide pools' } }).catch(() => undefined);
    expect((await doomed.exited).signal).toBe('SIGKILL');
    const before = new Database(db, { readonly: true });
    const run = before.prepare('SELECT id, status FROM runs').get() as { id: string; status: string };
    before.close();
    expect(run.status).toBe('running');

    const s = await serve(dir);
    await s.waitForLog((l) => l['msg'] === 'run resumed' && l['run_id'] === run.id);
    await readEvents(`${s.url}/v1/runs/${run.id}/events`, tok, { until: (e) => finished(e) && e.data['data'] !== undefined && (e.data['data'] as Record<string, unknown>)['status'] === 'completed' });
    const got = await api(s, tok)('GET', `/v1/runs/${run.id}`);
    expect((got.json['run'] as Record<string, unknown>)['status']).toBe('completed');
    const after = new Database(db, { readonly: true });
    const calls = after.prepare('SELECT t.call_id, t.status FROM tool_calls t JOIN sessions s ON s.id = t.session_id WHERE s.run_id = ?').all(run.id) as { call_id: string; status: string }[];
    after.close();
    expect(calls.length).toBeGreaterThan(0);
    expect(new Set(calls.map((c) => c.call_id)).size).toBe(calls.length);
    expect(calls.every((c) => c.status === 'completed')).toBe(true);
  });

  it('a signed webhook starts a run (202 at once); bad, stale and replayed signatures, oversized bodies and bad inputs are refused; a redelivery is idempotent', async () => {
    const secret = 'whsec-0123456789abcdef';
    const { dir } = triggeredProject(secret);
    const tok = await createToken(dir);
    // The server's clock is injected: signatures are checked against 2031-03-04, not the real time.
    const clock = Date.parse('2031-03-04T07:00:00Z');
    const s = await serve(dir, { SQUADRON_CLOCK: new Date(clock).toISOString() });
    const t = Math.floor(clock / 1000);
    const sign = signer(secret, t);
    const post = webhookPoster(s, 'facts/new');
    const body = JSON.stringify({ topic: 'tide pools' });

    const first = await post(body, { 'x-squadron-signature': sign(body), 'idempotency-key': 'delivery-1' });
    expect(first.status).toBe(202);
    const runId = first.json['run_id'] as string;
    expect(runId).toMatch(/^run_/);
    const events = await readEvents(`${s.url}/v1/runs/${runId}/events`, tok, { until: finished });
    expect(events.at(-1)!.data['data']).toMatchObject({ status: 'completed' });

    // A redelivery (signed again, one second later) with the same key answers the same run.
    const again = await post(body, { 'x-squadron-signature': sign(body, t + 1), 'idempotency-key': 'delivery-1' });
    expect(again).toEqual({ status: 200, json: { run_id: runId, duplicate: true } });
    // The very same signed request again is a replay.
    expect((await post(body, { 'x-squadron-signature': sign(body) })).json['error_code']).toBe('replayed');
    expect((await post(body, { 'x-squadron-signature': sign(body) })).status).toBe(409);

    expect((await post(body, { 'x-squadron-signature': sign(body, t, 'whsec-wrong-wrong-wrong') })).status).toBe(401);
    expect((await post(body, { 'x-squadron-signature': sign(body.replace('tide', 'rock')) })).status).toBe(401);
    const stale = await post(body, { 'x-squadron-signature': sign(body, t - 301) });
    expect(stale).toEqual({ status: 401, json: { error: 'signature timestamp outside the 5-minute tolerance', error_code: 'unauthorized' } });
    expect((await post(body, { 'x-squadron-signature': sign(body, Math.floor(Date.now() / 1000)) })).status).toBe(401);
    expect((await post(body, {})).status).toBe(401);
    // Go's plain header is refused unless the trigger opts in with signature = "shared_secret".
    expect((await post(body, { 'x-webhook-secret': secret })).status).toBe(401);

    const big = JSON.stringify({ topic: 'x'.repeat(2 * 1024 * 1024) });
    expect((await post(big, { 'x-squadron-signature': sign(big) })).status).toBe(413);
    const wrong = JSON.stringify({ topic: 'tide pools', colour: 'red' });
    const refused = await post(wrong, { 'x-squadron-signature': sign(wrong) });
    expect(refused.status).toBe(422);
    expect(String(refused.json['error'])).toContain('colour');
    expect((await post('[1]', { 'x-squadron-signature': sign('[1]') })).status).toBe(422);
    expect((await fetch(`${s.url}/webhooks/nope`, { method: 'POST', body: '{}' })).status).toBe(404);

    const runs = (await api(s, tok)('GET', '/v1/runs')).json['runs'] as unknown[];
    // One run from the first delivery: the redelivery and every refused request started nothing.
    expect(runs.length).toBe(1);
    expect(s.stderr()).not.toContain(secret);
  });

  it('deliveries arriving together are answered each on its own: a replay or a repeated key among them spoils none of the others', async () => {
    const secret = 'whsec-0123456789abcdef';
    const { dir } = triggeredProject(secret);
    const tok = await createToken(dir);
    const s = await serve(dir);
    const sign = signer(secret, Math.floor(Date.now() / 1000));
    const post = webhookPoster(s, 'facts/new');
    // The same inputs, a distinct raw body (so a distinct signature) each.
    const body = (n: number): string => `${JSON.stringify({ topic: 'tide pools' })}${' '.repeat(n)}`;
    const [distinct, replays, sameKey] = await Promise.all([
      Promise.all(Array.from({ length: 12 }, (_, n) => post(body(n), { 'x-squadron-signature': sign(body(n)), 'idempotency-key': `k-${n}` }))),
      Promise.all([0, 1].map(() => post(body(20), { 'x-squadron-signature': sign(body(20)) }))),
      Promise.all([21, 22].map((n) => post(body(n), { 'x-squadron-signature': sign(body(n)), 'idempotency-key': 'same-key' }))),
    ]);
    expect(distinct.map((r) => r.status)).toEqual(Array(12).fill(202));
    expect(new Set(distinct.map((r) => r.json['run_id'])).size).toBe(12);
    expect(replays.map((r) => r.status).sort()).toEqual([202, 409]);
    const first = sameKey.find((r) => r.status === 202)!;
    expect(sameKey.find((r) => r.status !== 202)).toEqual({ status: 200, json: { run_id: first.json['run_id'], duplicate: true } });
    const runIds = [...distinct, replays.find((r) => r.status === 202)!, first].map((r) => String(r.json['run_id'])).sort();

    // Every run answered is stored and completes; nothing else started.
    const call = api(s, tok);
    const deadline = Date.now() + 120_000;
    let runs: Array<{ id: string; status: string }> = [];
    while (Date.now() < deadline) {
      runs = (await call('GET', '/v1/runs?limit=100')).json['runs'] as typeof runs;
      if (runs.length >= runIds.length && runs.every((r) => r.status === 'completed')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(runs.map((r) => r.id).sort()).toEqual(runIds);
    expect(runs.every((r) => r.status === 'completed')).toBe(true);
    const outcomes = dbRows<{ outcome: string; n: number }>(dir, 'SELECT outcome, count(*) AS n FROM webhook_log GROUP BY outcome ORDER BY outcome');
    expect(outcomes).toEqual([{ outcome: 'accepted', n: 14 }, { outcome: 'duplicate', n: 1 }, { outcome: 'replayed', n: 1 }]);
  });

  it('notification blocks: the run\'s ending is POSTed signed, retried with backoff after a refusal', async () => {
    const received: { type: string; signature: string; body: string; status: number }[] = [];
    let arrived: () => void = () => undefined;
    const delivered = new Promise<void>((done) => (arrived = done));
    const receiver = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (d: string) => (body += d));
      req.on('end', () => {
        // The first delivery is refused: the server must try again.
        const status = received.length === 0 ? 503 : 200;
        received.push({ type: String(req.headers['x-squadron-event']), signature: String(req.headers['x-squadron-signature']), body, status });
        res.writeHead(status).end();
        if (status === 200) arrived();
      });
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    try {
      const secret = 'notify-0123456789abcdef';
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const { dir } = project(`  notification {\n    url    = "${url}"\n    secret = "${secret}"\n    events = ["run.completed", "run.failed"]\n  }\n`);
      const tok = await createToken(dir);
      const s = await serve(dir, { SQUADRON_NOTIFY_BASE_MS: '50' });
      const runId = (await api(s, tok)('POST', '/v1/runs', { inputs: { topic: 'tide pools' } })).json['run_id'] as string;
      await delivered;
      expect(received.map((r) => [r.type, r.status])).toEqual([
        ['run.completed', 503],
        ['run.completed', 200],
      ]);
      const last = received[1]!;
      expect(JSON.parse(last.body)).toMatchObject({ type: 'run.completed', run_id: runId, mission: 'quickstart', data: { status: 'completed' } });
      const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(last.signature)!;
      expect(last.signature).toBe(webhookSignature(secret, Number(m[1]), last.body));
      expect(s.logs.filter((l) => l['msg'] === 'notification attempt failed').map((l) => l['status'])).toEqual([503]);
    } finally {
      receiver.close();
    }
  });
});
