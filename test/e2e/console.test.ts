// The web console in a real browser (Chromium through playwright-core) against `squadron ui` and
// `squadron serve` on a real database, with a run waiting for approval (fake model server): what a
// person sees. The one-time login link opens an HTTP-only session and cannot be used twice; without a
// session only the login page is served; the task graph shows each task's status and follows the run
// live; an approval clicked through resumes the run; a transcript shows a tool call.

import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { launchBrowser, startUi, type UiProcess } from '../support/consoleBrowser.js';
import { ANTHROPIC_MODEL, LOCAL_HTTP, commanderOf, fakeModelBlock, removeProjects, workerOf, writeProject } from '../support/e2eProject.js';
import { type FakeModelServer, type FakeRequest, withFakeModelServer } from '../support/fakeModelServer.js';
import { startServe, type ServeProcess } from '../support/serveProcess.js';
import { closeServer, listenLocal } from '../support/localServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

let browser: Browser;
const processes: (UiProcess | ServeProcess)[] = [];
beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(async () => {
  for (const p of processes.splice(0)) {
    if ('stop' in p) await p.stop();
    else if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  }
});
afterAll(async () => {
  await browser?.close();
  removeProjects();
});

// A page too large for a model's context: stored whole, the transcript shows its handle.
const BIG = `${'tide pool line\n'.repeat(10_000)}THE MIDDLE OF THE BIG PAGE\n${'tide pool line\n'.repeat(10_000)}`;
let pages: Server | undefined;
let pageUrl = '';
beforeAll(async () => {
  pages = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(BIG));
  pageUrl = `${await listenLocal(pages)}/big.txt`;
});
afterAll(async () => {
  if (pages) await closeServer(pages);
});

function project(server: FakeModelServer, schedule = ''): string {
  return writeProject({
    'main.hcl': `${LOCAL_HTTP}${fakeModelBlock(server)}
mission "publishing" {
  commander { model = ${ANTHROPIC_MODEL} }
  ${schedule}
  task "prepare" {
    objective = "Get ready."
    tools     = [builtins.http.get]
  }
  task "publish" {
    objective  = "Write the note."
    depends_on = [tasks.prepare]
    tools      = [builtins.files.write]
    approval   = [builtins.files.write]
  }
}
`,
  });
}

function script() {
  return turnScript({
    [commanderOf('prepare')]: [callAgent('worker', 'Fetch the page'), taskComplete('ready')],
    [workerOf('prepare')]: [toolCall('builtins_http_get', { url: pageUrl }), { text: 'fetched' }],
    [commanderOf('publish')]: [callAgent('worker', 'Write the note'), (req: FakeRequest) => taskComplete(`worker said: ${lastToolResult(req)}`)],
    [workerOf('publish')]: [
      toolCall('builtins_files_write', { path: 'note.txt', content: 'hello' }),
      toolCall('builtins_files_write', { path: 'more.txt', content: 'again' }),
      (req: FakeRequest) => ({ text: `result: ${lastToolResult(req)}` }),
    ],
  });
}

describe('the web console in Chromium', () => {
  it('logs in once with the printed link; follows a waiting run in the task graph; an approval clicked through resumes it live; a transcript shows the tool call', async () => {
    const turns = script();
    await withFakeModelServer(turns.respond, async (server) => {
      const dir = project(server);
      const first = await runCli(['run', dir], { cwd: dir, timeoutMs: 120_000 });
      expect(first.code, first.stderr).toBe(4);
      const runId = /squadron approve (run_\w+)/.exec(first.stdout)![1]!;
      const ui = await startUi([dir], { cwd: dir });
      processes.push(ui);
      expect(ui.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

      // Without a session: only the login page, whatever the address; the API and the assets refuse.
      const stranger = await browser.newContext();
      const s = await stranger.newPage();
      for (const path of ['/', `/#/run/${runId}`, '/console/index.html']) {
        await s.goto(ui.url + path);
        expect(new URL(s.url()).pathname, path).toBe('/login');
        expect(await s.locator('form#login').count()).toBe(1);
        expect(await s.locator('#app').count()).toBe(0);
      }
      for (const path of ['/console/api/runs', `/v1/runs/${runId}`, `/v1/runs/${runId}/events`, '/v1/events']) {
        expect((await s.request.get(ui.url + path)).status(), path).toBe(401);
      }

      // The printed link logs in: an HTTP-only, SameSite=Strict cookie scripts cannot read.
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      await page.goto(ui.loginUrl);
      expect(new URL(page.url()).pathname).toBe('/');
      const cookies = await ctx.cookies();
      expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite])).toEqual([['squadron_session', true, 'Strict']]);
      expect(await page.evaluate(() => document.cookie)).toBe('');
      expect(ui.stderr()).not.toContain(new URL(ui.loginUrl).searchParams.get('token')!);

      // The link works once: a second browser given it lands on the login page with no session.
      await s.goto(ui.loginUrl);
      expect(new URL(s.url()).pathname).toBe('/login');
      await s.locator('[role=alert]', { hasText: 'used already' }).waitFor();
      expect(await stranger.cookies()).toEqual([]);
      await s.goto(ui.url + '/');
      expect(new URL(s.url()).pathname).toBe('/login');

      // Runs: the waiting run and what it waits for.
      const row = page.locator(`tr[data-run="${runId}"]`);
      await row.waitFor();
      expect(await row.textContent()).toContain('waiting');
      expect(await row.textContent()).toContain('approval · publish · builtins.files.write');

      // Filters are the server's: by status and mission.
      const listed = async (query: string): Promise<string[]> => ((await (await page.request.get(`${ui.url}/console/api/runs?${query}`)).json()) as { runs: { id: string }[] }).runs.map((r) => r.id);
      expect(await listed('status=waiting')).toEqual([runId]);
      expect(await listed('status=completed')).toEqual([]);
      expect(await listed('mission=publishing&since=2000-01-01')).toEqual([runId]);
      expect(await listed('mission=other')).toEqual([]);
      // The inbox lists what the run waits for.
      await page.locator('nav a', { hasText: 'Inbox' }).click();
      const pending = page.locator('.inbox-run .request');
      await pending.waitFor();
      expect(await pending.textContent()).toContain('builtins.files.write');
      expect(await pending.textContent()).toContain('"content": "hello"');
      await page.locator('nav a', { hasText: 'Runs' }).click();

      // The run: prepare done, publish waiting, joined by its depends_on edge.
      await row.locator('a').click();
      await page.locator('svg.dag g.node[data-task="publish"]').waitFor();
      expect(await page.locator('svg.dag g.node[data-task="prepare"]').getAttribute('data-status')).toBe('completed');
      expect(await page.locator('svg.dag g.node[data-task="publish"]').getAttribute('data-status')).toBe('waiting');
      expect(await page.locator('svg.dag path.edge.depends').count()).toBe(1);
      // Approve from the page: the run resumes, writes the note, and asks for the next write.
      await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
      await page.locator('.request button.approve').click();
      await page.locator('.request', { hasText: 'more.txt' }).waitFor({ timeout: 120_000 });
      expect(readFileSync(join(dir, '.squadron', 'workspaces', runId, 'note.txt'), 'utf8')).toBe('hello');
      // Decided and resumed elsewhere (the CLI, another process): the page, left alone, follows the
      // run from its event stream until the graph and the status say completed.
      expect((await runCli(['approve', runId, '--all'], { cwd: dir })).code).toBe(0);
      const resumed = await runCli(['resume', runId], { cwd: dir, timeoutMs: 120_000 });
      expect(resumed.code, resumed.stderr).toBe(0);
      await page.locator('svg.dag g.node[data-task="publish"][data-status="completed"]').waitFor({ timeout: 120_000 });
      await page.locator('#run-status', { hasText: 'completed' }).waitFor({ timeout: 120_000 });
      expect(await page.locator('.request').count()).toBe(0);
      // Tokens and cost per model: the one model of this config, used by both tasks.
      const model = page.locator('table.models tbody tr');
      await expect.poll(() => model.count(), { timeout: 30_000 }).toBe(1);
      expect(await model.getAttribute('data-model')).toMatch(/claude/);
      expect(await model.locator('td').nth(1).textContent()).toBe('prepare, publish');
      expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
      expect(turns.problems).toEqual([]);
      const inspected = JSON.parse((await runCli(['inspect', runId, '--json'], { cwd: dir })).stdout) as { run: { status: string }; operator_requests: { status: string; decided_by: string }[] };
      expect(inspected.run.status).toBe('completed');
      expect(inspected.operator_requests.map((r) => [r.status, r.decided_by.startsWith('api:') ? r.decided_by : 'cli'])).toEqual([
        ['approved', 'api:console'],
        ['approved', 'cli'],
      ]);

      // A large result: the transcript shows its preview; the whole is fetched when asked for.
      await page.goto(`${ui.url}/#/run/${runId}/task/prepare`);
      await page.locator('.sessions button', { hasText: 'worker' }).click();
      const load = page.locator('.stored-result button');
      await load.waitFor();
      expect(await page.locator('.tool-result').first().textContent()).not.toContain('THE MIDDLE OF THE BIG PAGE');
      await load.click();
      await page.locator('details.large summary').last().click();
      await page.locator('pre.stored', { hasText: 'THE MIDDLE OF THE BIG PAGE' }).waitFor();
      await page.goto(`${ui.url}/#/run/${runId}`);

      // A task's transcript: the commander's call to its worker, then the worker's file write.
      await page.locator('svg.dag g.node[data-task="publish"]').click();
      await page.locator('.tool-call[data-tool="call_agent"]').waitFor();
      await page.locator('.sessions button', { hasText: 'worker' }).click();
      const write = page.locator('.tool-call[data-tool="builtins_files_write"]').first();
      await write.waitFor();
      expect(await page.locator('.tool-call[data-tool="builtins_files_write"]').count()).toBe(2);
      expect(await write.textContent()).toContain('"path": "note.txt"');
      expect(await write.textContent()).toContain('completed');
      expect(await page.locator('.tool-result').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('Wrote 5 bytes to note.txt')]));
      // A transcript is read a window at a time.
      const sessions = ((await (await page.request.get(`${ui.url}/console/api/runs/${runId}/sessions?task=publish`)).json()) as { sessions: { id: string; agent: string; messages: number }[] }).sessions;
      const worker = sessions.find((x) => x.agent === 'worker')!;
      expect(worker.messages).toBeGreaterThanOrEqual(6);
      const windowed = (await (await page.request.get(`${ui.url}/console/api/runs/${runId}/transcript/${worker.id}?from=2&limit=2`)).json()) as { total: number; messages: { seq: number }[] };
      expect(windowed.total).toBe(worker.messages);
      expect(windowed.messages.map((m) => m.seq)).toEqual([2, 3]);
      expect((await page.request.get(`${ui.url}/console/api/runs/run_0000000000000000/transcript/${worker.id}`)).status()).toBe(404);
      // A malformed escape in the path is the client's error, not the server's.
      expect((await page.request.get(`${ui.url}/console/api/runs/%E0/sessions`)).status()).toBe(400);
      expect(((await (await page.request.get(`${ui.url}/console/api/inbox`)).json()) as { runs: unknown[] }).runs).toEqual([]);
      await ctx.close();
      await stranger.close();
    });
  });

  it('under serve, an API token entered on the login page opens a session (a wrong one is refused); the schedules page pauses a schedule', async () => {
    const turns = script();
    await withFakeModelServer(turns.respond, async (server) => {
      const dir = project(server, 'schedule {\n    at       = ["07:00"]\n    timezone = "Europe/Paris"\n  }');
      const made = await runCli(['token', 'create', 'alice'], { cwd: dir });
      expect(made.code).toBe(0);
      // The server's clock hours before the schedule's time: nothing fires during the test.
      const s = await startServe([dir], { cwd: dir, env: { SQUADRON_CLOCK: '2031-03-04T03:00:00Z' } });
      processes.push(s);
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      await page.goto(s.url + '/');
      expect(new URL(page.url()).pathname).toBe('/login');
      await page.fill('input[name=token]', 'sqd_not-a-token');
      await page.click('button[type=submit]');
      await page.locator('[role=alert]', { hasText: 'Unknown, revoked or used token' }).waitFor();
      expect(await ctx.cookies()).toEqual([]);
      await page.fill('input[name=token]', made.stdout.trim());
      await page.click('button[type=submit]');
      await page.locator('h1', { hasText: 'Runs' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/');
      expect((await ctx.cookies()).map((c) => c.httpOnly)).toEqual([true]);
      // Schedules: the next fires; pausing from the page pauses it for the server.
      await page.locator('nav a', { hasText: 'Schedules' }).click();
      const schedule = page.locator('tr', { hasText: 'publishing.0' });
      await schedule.waitFor();
      expect(await schedule.textContent()).toContain('2031-03-04 07:00 (Europe/Paris)');
      await schedule.locator('button', { hasText: 'Pause' }).click();
      await schedule.locator('.badge', { hasText: 'paused' }).waitFor();
      const listed = (await (await page.request.get(s.url + '/v1/schedules')).json()) as { schedules: { id: string; paused: boolean }[] };
      expect(listed.schedules).toMatchObject([{ id: 'publishing.0', paused: true }]);
      // The session opens the API too, and only from the console's own origin for changes.
      expect((await page.request.get(s.url + '/v1/runs')).status()).toBe(200);
      expect((await page.request.post(s.url + '/v1/runs', { data: {}, headers: { origin: 'http://evil.example' } })).status()).toBe(403);
      // Revoking the token ends the session made from it.
      await page.close();
      expect((await runCli(['token', 'revoke', 'alice'], { cwd: dir })).code).toBe(0);
      const after = await ctx.newPage();
      await after.goto(s.url + '/');
      expect(new URL(after.url()).pathname).toBe('/login');
      expect((await after.request.get(s.url + '/v1/runs')).status()).toBe(401);
      await ctx.close();
    });
  });
});
