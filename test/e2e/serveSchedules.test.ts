// Schedules under `squadron serve`, on an injected clock (SQUADRON_CLOCK: the server's time starts
// there and runs at the real pace, so a fire due 3 seconds later happens 3 seconds later): a fire at
// its time in its time zone with its inputs, a missed fire made up once inside catchup_window (and
// not again by the next server), the overlap policies, pause and resume through the API.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentProject, boardWorker } from '../support/agentMissions.js';
import { runCli } from '../support/cli.js';
import { fakeModelBlock } from '../support/e2eProject.js';
import { startFakeModelServer } from '../support/fakeModelServer.js';
import { startCounter } from '../support/localServer.js';
import { createToken, killStillRunning, quickstartWith, readEvents, type ServeProcess, startServe } from '../support/serveProcess.js';

const started: ServeProcess[] = [];
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  killStillRunning(started);
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

async function setup(schedules: string): Promise<{ dir: string; tok: string }> {
  const dir = quickstartWith(schedules, 'squadron-sched-');
  return { dir, tok: await createToken(dir) };
}

async function serve(dir: string, clock: string): Promise<ServeProcess> {
  const s = await startServe([dir], { cwd: dir, env: { SQUADRON_CLOCK: clock } });
  started.push(s);
  return s;
}

async function call(s: ServeProcess, tok: string, method: string, path: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(s.url + path, { method, headers: { authorization: `Bearer ${tok}` } });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const finished = (e: { event: string }): boolean => e.event === 'run.finished';

describe('schedules under squadron serve', () => {
  it('fires at its time in its time zone with its inputs, and lists its next three fires', async () => {
    const { dir, tok } = await setup('  schedule {\n    at       = ["07:00"]\n    timezone = "Europe/Paris"\n    inputs   = { topic = "tide pools" }\n  }\n');
    // 07:00 in Paris on 4 March 2031 is 06:00 UTC: three seconds after the injected start.
    const s = await serve(dir, '2031-03-04T05:59:57Z');
    const listed = await call(s, tok, 'GET', '/v1/schedules');
    const [schedule] = listed.json['schedules'] as Record<string, unknown>[];
    expect(schedule).toMatchObject({ id: 'quickstart.0', spec: 'at 07:00', cron: '0 7 * * *', timezone: 'Europe/Paris', overlap: 'skip', paused: false, last_fire: null });
    expect((schedule!['next_fires'] as { local: string }[]).map((f) => f.local)).toEqual(['2031-03-04 07:00 (Europe/Paris)', '2031-03-05 07:00 (Europe/Paris)', '2031-03-06 07:00 (Europe/Paris)']);
    const fired = await s.waitForLog((l) => l['msg'] === 'schedule fired');
    expect(fired).toMatchObject({ schedule: 'quickstart.0', fire_at: '2031-03-04T06:00:00.000Z', why: 'schedule' });
    const ran = await s.waitForLog((l) => l['msg'] === 'run started');
    const events = await readEvents(`${s.url}/v1/runs/${ran['run_id'] as string}/events`, tok, { until: finished });
    expect(events.at(-1)!.data['data']).toMatchObject({ status: 'completed' });
    const after = (await call(s, tok, 'GET', '/v1/schedules')).json['schedules'] as Record<string, unknown>[];
    expect(after[0]!['last_fire']).toEqual({ at: '2031-03-04T06:00:00.000Z', run_id: ran['run_id'] });
  });

  it('makes up a missed fire once when inside catchup_window, not outside it, and never twice across restarts', async () => {
    const { dir, tok } = await setup(
      '  schedule {\n    at             = ["07:00"]\n    catchup_window = "30m"\n  }\n  schedule {\n    at = ["07:00"]\n  }\n  schedule {\n    at             = ["06:00"]\n    catchup_window = "30m"\n  }\n',
    );
    // 07:10: the 07:00 fire was missed ten minutes ago; the 06:00 one seventy minutes ago.
    const s = await serve(dir, '2031-03-04T07:10:00Z');
    const fired = await s.waitForLog((l) => l['msg'] === 'schedule fired');
    expect(fired).toMatchObject({ schedule: 'quickstart.0', fire_at: '2031-03-04T07:00:00.000Z', why: 'catch-up' });
    const ran = await s.waitForLog((l) => l['msg'] === 'run ended');
    expect(ran['status']).toBe('completed');
    s.child.kill('SIGTERM');
    await s.exited;
    const again = await serve(dir, '2031-03-04T07:11:00Z');
    const runs = (await call(again, tok, 'GET', '/v1/runs')).json['runs'] as unknown[];
    expect(runs.length).toBe(1);
    // A pass of the scheduler has run once the schedules answer with a computed next fire.
    await call(again, tok, 'GET', '/v1/schedules');
    expect(again.logs.filter((l) => l['msg'] === 'schedule fired')).toEqual([]);
    expect(s.logs.filter((l) => l['msg'] === 'schedule fired').map((l) => l['schedule'])).toEqual(['quickstart.0']);
  });

  it('a fire claimed as the server drains, before its run could start, is made up by the next server inside catchup_window', async () => {
    const board = await startCounter();
    const model = await startFakeModelServer({ respond: boardWorker(board.url) });
    closers.push(board.close, () => model.close());
    const dir = agentProject(fakeModelBlock(model));
    const hcl = join(dir, 'main.hcl');
    const publish = 'description = "Post a note to the board."';
    writeFileSync(hcl, readFileSync(hcl, 'utf8').replace(publish, `${publish}\n  schedule {\n    at             = ["07:00"]\n    catchup_window = "30m"\n    inputs         = { note = "daily" }\n  }`));
    const tok = await createToken(dir);
    // One run slot, taken by a run whose model does not answer when the 07:00 fire comes: the fire waits
    // for the slot. The server's clock starts 10 s before the fire: time for the run to take the slot first.
    const s = await startServe([dir, '--max-runs', '1', '--drain-timeout', '1'], { cwd: dir, env: { SQUADRON_CLOCK: '2031-03-04T06:59:50Z' } });
    started.push(s);
    const slow = await fetch(`${s.url}/v1/runs`, { method: 'POST', headers: { authorization: `Bearer ${tok}`, 'content-type': 'application/json' }, body: JSON.stringify({ mission: 'slow', inputs: { note: 'hold' } }) });
    expect(slow.status).toBeLessThan(300);
    expect(s.logs.filter((l) => l['msg'] === 'schedule fired')).toEqual([]);
    expect(await s.waitForLog((l) => l['msg'] === 'schedule fired')).toMatchObject({ schedule: 'publish.0', fire_at: '2031-03-04T07:00:00.000Z' });
    s.child.kill('SIGTERM');
    await s.exited;
    expect(s.logs.find((l) => l['msg'] === 'schedule fire left for the next server: this one is shutting down')).toMatchObject({ schedule: 'publish.0', fire_at: '2031-03-04T07:00:00.000Z' });
    expect(s.logs.filter((l) => l['msg'] === 'run started')).toHaveLength(1);

    const again = await serve(dir, '2031-03-04T07:01:00Z');
    expect(await again.waitForLog((l) => l['msg'] === 'schedule fired')).toMatchObject({ schedule: 'publish.0', fire_at: '2031-03-04T07:00:00.000Z', why: 'catch-up' });
    type Fire = { at: string; run_id: string | null } | null;
    const lastFire = async (): Promise<Fire> => ((await call(again, tok, 'GET', '/v1/schedules')).json['schedules'] as Array<{ id: string; last_fire: Fire }>).find((x) => x.id === 'publish.0')!.last_fire;
    const deadline = Date.now() + 60_000;
    let last = await lastFire();
    while (!last?.run_id && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      last = await lastFire();
    }
    expect(last).toMatchObject({ at: '2031-03-04T07:00:00.000Z', run_id: expect.stringMatching(/^run_/) });
    const ran = await again.waitForLog((l) => l['msg'] === 'run ended' && l['run_id'] === last!.run_id);
    expect(ran['status']).toBe('completed');
  });

  it('overlap: skip refuses a fire while a run of the schedule goes, buffer_one keeps one for later; pause and resume', async () => {
    const { dir, tok } = await setup('  schedule {\n    every = "1h"\n  }\n  schedule {\n    every   = "1h"\n    overlap = "buffer_one"\n  }\n');
    const s = await serve(dir, '2031-03-04T07:10:00Z');
    const skip = await Promise.all([call(s, tok, 'POST', '/v1/schedules/quickstart.0/trigger'), call(s, tok, 'POST', '/v1/schedules/quickstart.0/trigger')]);
    expect(skip.map((r) => r.status).sort()).toEqual([202, 409]);
    expect(skip.find((r) => r.status === 409)!.json['error_code']).toBe('overlap');
    const buffer = await Promise.all([0, 1, 2].map(() => call(s, tok, 'POST', '/v1/schedules/quickstart.1/trigger')));
    expect(buffer.map((r) => (r.status === 202 ? (r.json['run_id'] ? 'run' : 'buffered') : r.json['error_code'])).sort()).toEqual(['buffered', 'overlap', 'run']);
    // The buffered fire starts when the running one ends: three runs in all.
    await s.waitForLog((l) => l['msg'] === 'schedule fired' && l['why'] === 'buffered');
    for (let n = 0; n < 3; n += 1) await s.waitForLog((l) => l['msg'] === 'run ended' && s.logs.filter((x) => x['msg'] === 'run ended').length >= n + 1);
    const runs = (await call(s, tok, 'GET', '/v1/runs')).json['runs'] as unknown[];
    expect(runs.length).toBe(3);

    expect((await call(s, tok, 'POST', '/v1/schedules/quickstart.0/pause')).json).toEqual({ id: 'quickstart.0', paused: true });
    const listed = (await call(s, tok, 'GET', '/v1/schedules')).json['schedules'] as Record<string, unknown>[];
    expect(listed.map((x) => x['paused'])).toEqual([true, false]);
    expect((await call(s, tok, 'POST', '/v1/schedules/quickstart.0/resume')).json).toEqual({ id: 'quickstart.0', paused: false });
    expect((await call(s, tok, 'POST', '/v1/schedules/quickstart.9/pause')).status).toBe(404);
  });

  it('validate reports a wrong schedule at its position with Go\'s rule', async () => {
    const { dir } = await setup('  schedule {\n    every = "7m"\n  }\n  schedule {\n    at   = ["7:00"]\n    cron = "0 7 * * *"\n  }\n');
    const r = await runCli(['validate', dir], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/mission\.hcl:\d+:\d+: error\[SCH013\]: mission "quickstart" schedule\[0\]: 'every' interval "7m" must divide evenly into 60 minutes/);
    expect(r.stderr).toMatch(/mission\.hcl:\d+:\d+: error\[SCH003\]: mission "quickstart" schedule\[1\]: exactly one of 'at', 'every', or 'cron' must be set/);
  });

  it('validate and plan show each schedule\'s next three fire times in its time zone (exactly the listed times, on the listed days)', async () => {
    const { dir } = await setup('  schedule {\n    at       = ["07:00", "19:30"]\n    weekdays = ["mon", "fri"]\n    timezone = "America/New_York"\n    overlap  = "buffer_one"\n  }\n');
    const env = { SQUADRON_CLOCK: '2031-03-04T05:00:00Z' }; // a Tuesday
    const line = 'schedule quickstart.0: at 07:00, 19:30 (America/New_York, overlap buffer_one) · next 2031-03-07 07:00, 2031-03-07 19:30, 2031-03-10 07:00';
    const v = await runCli(['validate', dir], { cwd: dir, env });
    expect(v.code).toBe(0);
    expect(v.stdout).toContain(`  ${line}\n`);
    const p = await runCli(['plan', dir], { cwd: dir, env });
    expect(p.code).toBe(0);
    expect(p.stdout).toContain(`\n${line}\n`);
  });
});
