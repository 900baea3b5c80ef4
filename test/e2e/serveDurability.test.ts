// `squadron serve` when it stops at a bad moment: a webhook delivery answered 202 whose server dies
// before the run is stored is started by the next server, once; SIGTERM with a run in flight exits 0
// after its grace period and the next server finishes the run with each side effect once; Go's
// trigger defaults (webhook_path = the mission's name, no secret) load unchanged.

import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, tempDir } from '../support/cli.js';
import { latestRunId } from '../support/crashDb.js';
import { CRASH_HOOK } from '../support/crashRun.js';
import { type CrashWorld, startCrashWorld } from '../support/crashRun.js';
import { JOURNAL, journalLinePrefix } from '../support/crashMission.js';
import { createToken, killStillRunning, readEvents, type ServeProcess, startServe, webhookSignature } from '../support/serveProcess.js';

const started: ServeProcess[] = [];
const dirs: string[] = [];
const worlds: CrashWorld[] = [];
afterEach(() => killStillRunning(started));
afterAll(async () => {
  for (const w of worlds) await w.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function quickstart(edit: (hcl: string) => string = (h) => h): string {
  const dir = tempDir('squadron-serve-');
  dirs.push(dir);
  cpSync(join(REPO_ROOT, 'examples', 'quickstart'), dir, { recursive: true, filter: (src) => !src.endsWith('/.squadron') });
  const hcl = join(dir, 'mission.hcl');
  writeFileSync(hcl, edit(readFileSync(hcl, 'utf8')));
  return dir;
}

async function serve(args: string[], cwd: string, env: Record<string, string> = {}): Promise<ServeProcess> {
  const s = await startServe(args, { cwd, env: { SQUADRON_SERVE_RECOVER_MS: '300', ...env } });
  started.push(s);
  return s;
}

const SECRET = 'whsec-0123456789abcdef';
const sign = (body: string, secret = SECRET): string => {
  return webhookSignature(secret, Math.floor(Date.now() / 1000), body);
};
const completed = (e: { event: string; data: Record<string, unknown> }): boolean => e.event === 'run.finished' && (e.data['data'] as Record<string, unknown> | undefined)?.['status'] === 'completed';

async function until(check: () => boolean, what: string, timeoutMs = 90_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('serve: a webhook delivery is stored before its 202', () => {
  it('a server killed after answering 202 but before the run was stored: the next server starts that run, once', async () => {
    const dir = quickstart((h) => h.replace('mission "quickstart" {', `mission "quickstart" {\n  trigger {\n    secret = "${SECRET}"\n  }\n`));
    const db = join(dir, '.squadron', 'squadron.db');
    const tok = await createToken(dir);
    // Killed just before the run's row is written: after the 202 went out, before anything of the run was stored.
    const doomed = await serve([dir], dir, { NODE_OPTIONS: `--import ${CRASH_HOOK}`, SQUADRON_TEST_CRASH_AFTER: 'runs:1:before' });
    const body = JSON.stringify({ topic: 'tide pools' });
    // Go's default path: the mission's name.
    const res = await fetch(`${doomed.url}/webhooks/quickstart`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-squadron-signature': sign(body), 'idempotency-key': 'd-1' }, body });
    expect(res.status).toBe(202);
    const runId = ((await res.json()) as { run_id: string }).run_id;
    expect(runId).toMatch(/^run_/);
    expect((await doomed.exited).signal).toBe('SIGKILL');
    const before = new Database(db, { readonly: true });
    expect(before.prepare('SELECT count(*) AS n FROM runs').get()).toEqual({ n: 0 });
    expect(before.prepare('SELECT run_id, mission FROM webhook_runs').all()).toEqual([{ run_id: runId, mission: 'quickstart' }]);
    before.close();

    const s = await serve([dir], dir);
    await s.waitForLog((l) => l['msg'] === 'starting an accepted webhook delivery left by a stopped server' && l['run_id'] === runId);
    await readEvents(`${s.url}/v1/runs/${runId}/events`, tok, { until: completed });
    // A redelivery of the same key answers that run; nothing started twice.
    const again = await fetch(`${s.url}/webhooks/quickstart`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-squadron-signature': sign(body), 'idempotency-key': 'd-1' }, body });
    expect(await again.json()).toEqual({ run_id: runId, duplicate: true });
    const after = new Database(db, { readonly: true });
    expect(after.prepare('SELECT id, status FROM runs').all()).toEqual([{ id: runId, status: 'completed' }]);
    expect(after.prepare('SELECT count(*) AS n FROM webhook_runs').get()).toEqual({ n: 0 });
    after.close();
  });
});

describe("serve: Go's trigger defaults", () => {
  it('a trigger without a secret loads with GO013 and its deliveries are refused; two missions on one path are SCH008', async () => {
    const dir = quickstart((h) => h.replace('mission "quickstart" {', 'mission "quickstart" {\n  trigger {}\n'));
    const v = await runCli(['validate', '.'], { cwd: dir });
    expect(v.code, v.stderr).toBe(0);
    expect(v.stderr + v.stdout).toContain('GO013');
    const s = await serve([dir], dir);
    const body = '{"topic":"tide pools"}';
    const res = await fetch(`${s.url}/webhooks/quickstart`, { method: 'POST', headers: { 'x-squadron-signature': sign(body) }, body });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toContain('has no secret');

    const hcl = join(dir, 'mission.hcl');
    const text = readFileSync(hcl, 'utf8').replace('trigger {}', 'trigger {\n    webhook_path = "/shared"\n    secret = "x-0123456789abcdef"\n  }');
    const second = /mission "quickstart" \{[\s\S]*\n\}\n/.exec(text)![0].replace('mission "quickstart"', 'mission "other"');
    writeFileSync(hcl, `${text}\n${second}`);
    const dup = await runCli(['validate', '.'], { cwd: dir });
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/mission\.hcl:\d+:\d+: error\[SCH008\]: mission "other" trigger: webhook_path "\/shared" conflicts with mission "quickstart"/);
  });
});

describe('serve: SIGTERM with a run in flight', () => {
  it('stops taking work, exits 0 after the grace period, and the next server finishes the run with each side effect once', async () => {
    const world = await startCrashWorld();
    worlds.push(world);
    const tok = await createToken(world.dir, 'ci', '--db', world.dbPath);
    // The worker's second request of alpha (after its POST /record) is held while the server drains.
    let release!: () => void;
    world.hold(3, new Promise<void>((r) => (release = r)), 'drop');
    const first = await serve([world.dir, '--db', world.dbPath, '--drain-timeout', '1'], world.dir);
    const startedRun = await fetch(`${first.url}/v1/runs`, { method: 'POST', headers: { authorization: `Bearer ${tok}`, 'content-type': 'application/json' }, body: '{}' });
    expect(startedRun.status).toBe(202);
    const runId = ((await startedRun.json()) as { run_id: string }).run_id;
    await until(() => world.server.requests.length >= 3, 'the held model request');
    expect(world.sink.records.map((r) => r.item)).toEqual(['alpha']);
    first.child.kill('SIGTERM');
    expect(await first.exited).toEqual({ code: 0, signal: null });
    release();
    expect(first.logs.find((l) => l['msg'] === 'draining')).toMatchObject({ signal: 'SIGTERM', runs: 1 });
    expect(first.logs.find((l) => l['msg'] === 'stopped')).toMatchObject({ runs_left_to_resume: 1 });
    const mid = new Database(world.dbPath, { readonly: true });
    expect(mid.prepare('SELECT status FROM runs WHERE id = ?').get(runId)).toEqual({ status: 'running' });
    mid.close();

    const second = await serve([world.dir, '--db', world.dbPath], world.dir);
    await second.waitForLog((l) => l['msg'] === 'run resumed' && l['run_id'] === runId);
    await readEvents(`${second.url}/v1/runs/${runId}/events`, tok, { until: completed });
    expect(world.script.problems).toEqual([]);
    // Each side effect once: one record per item at the service, one journal line per item.
    expect(world.sink.records.map((r) => r.item).sort()).toEqual(['alpha', 'gamma']);
    const ws = new Database(world.dbPath, { readonly: true });
    const options = JSON.parse((ws.prepare('SELECT options_json FROM runs WHERE id = ?').get(runId) as { options_json: string }).options_json) as { workspaceDir: string };
    ws.close();
    const journal = readFileSync(join(options.workspaceDir, JOURNAL), 'utf8');
    expect(journal.split('\n').filter((l) => l.startsWith(journalLinePrefix('beta')))).toHaveLength(1);
    expect(journal.split('\n').filter((l) => l.startsWith(journalLinePrefix('delta')))).toHaveLength(1);
  });
});

describe('serve: cancel reaches a run another process drives', () => {
  it('a run of `squadron run` stops as interrupted when the server is asked to cancel it, and resumes to its end', async () => {
    const world = await startCrashWorld();
    worlds.push(world);
    const tok = await createToken(world.dir, 'ci', '--db', world.dbPath);
    let release!: () => void;
    world.hold(3, new Promise<void>((r) => (release = r)), 'answer');
    const s = await serve([world.dir, '--db', world.dbPath], world.dir);
    const running = runCli(['run', world.dir, '--db', world.dbPath, '--json'], { cwd: world.dir, timeoutMs: 200_000 });
    await until(() => world.server.requests.length >= 3, 'the held model request');
    const runId = latestRunId(world.dbPath)!;
    const cancel = await fetch(`${s.url}/v1/runs/${runId}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${tok}` } });
    expect(cancel.status).toBe(202);
    expect(await cancel.json()).toEqual({ run_id: runId, status: 'stopping' });
    const stopped = await running;
    release();
    expect(stopped.code, stopped.stderr).toBe(130);
    expect((JSON.parse(stopped.stdout) as { status: string }).status).toBe('interrupted');
    // A person stopped it: the server does not take it up by itself; resume continues it, each side effect once.
    expect(s.logs.some((l) => l['msg'] === 'run resumed' && l['run_id'] === runId)).toBe(false);
    const resumed = await runCli(['resume', runId, '--db', world.dbPath, '--json'], { cwd: world.dir, timeoutMs: 200_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(world.sink.records.map((r) => r.item).sort()).toEqual(['alpha', 'gamma']);
  });
});
