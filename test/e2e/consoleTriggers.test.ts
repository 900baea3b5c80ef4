// The console's triggers page in Chromium against `squadron serve`: deliveries POSTed to a mission's
// trigger are listed with what became of each (started, duplicate, replayed, refused) and a link to
// the run they started; no signature, idempotency key or secret reaches the page.

import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/consoleBrowser.js';
import { ANTHROPIC_MODEL, commanderOf, fakeModelBlock, removeProjects, writeProject } from '../support/e2eProject.js';
import { withFakeModelServer } from '../support/fakeModelServer.js';
import { createToken, killStillRunning, type ServeProcess, startServe, webhookPoster, webhookSignature } from '../support/serveProcess.js';
import { taskComplete, turnScript } from '../support/turnScript.js';

let browser: Browser;
const servers: ServeProcess[] = [];
beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(() => killStillRunning(servers));
afterAll(async () => {
  await browser?.close();
  removeProjects();
});

const SECRET = 'whsec-console-0123456789';

describe('the console lists webhook deliveries', () => {
  it('shows each delivery to a trigger with its fate and a link to its run, never its signature or key', async () => {
    const turns = turnScript({ [commanderOf('tidy')]: [taskComplete('tidied')] });
    await withFakeModelServer(turns.respond, async (server) => {
      const dir = writeProject({
        'main.hcl': `${fakeModelBlock(server)}
mission "tidying" {
  commander { model = ${ANTHROPIC_MODEL} }
  trigger {
    webhook_path = "rooms/tidy"
    secret       = "${SECRET}"
  }
  input "room" {
    type = "string"
  }
  task "tidy" {
    objective = "Tidy the \${inputs.room}."
    tools     = [builtins.files.write]
  }
}
`,
      });
      const tok = await createToken(dir, 'ops');
      const s = await startServe([dir], { cwd: dir });
      servers.push(s);
      const t = Math.floor(Date.now() / 1000);
      const sign = (body: string, at = t): string => webhookSignature(SECRET, at, body);
      const post = webhookPoster(s, 'rooms/tidy');
      const body = JSON.stringify({ room: 'attic' });
      const signature = sign(body);
      const first = await post(body, { 'x-squadron-signature': signature, 'idempotency-key': 'attic-key-1' });
      expect(first.status).toBe(202);
      const runId = first.json['run_id'] as string;
      await s.waitForLog((l) => l['msg'] === 'run ended' && l['run_id'] === runId, 120_000);
      // A redelivery with the same key, the same signed request again, inputs the mission refuses,
      // and a request that does not prove itself (not listed: anyone may send one).
      expect((await post(body, { 'x-squadron-signature': sign(body, t + 1), 'idempotency-key': 'attic-key-1' })).status).toBe(200);
      expect((await post(body, { 'x-squadron-signature': signature })).status).toBe(409);
      const wrong = JSON.stringify({ room: 'cellar', colour: 'red' });
      expect((await post(wrong, { 'x-squadron-signature': sign(wrong) })).status).toBe(422);
      expect((await post(body, { 'x-squadron-signature': 't=1,v1=00' })).status).toBe(401);

      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      await page.goto(s.url + '/login');
      await page.fill('input[name=token]', tok);
      await page.click('button[type=submit]');
      await page.locator('h1', { hasText: 'Runs' }).waitFor();
      await page.locator('nav a', { hasText: 'Schedules' }).click();
      const trigger = page.locator('section.trigger[data-trigger="rooms/tidy"]');
      await trigger.locator('table.deliveries').waitFor();
      expect(await trigger.locator('h3').textContent()).toBe('POST /webhooks/rooms/tidy → tidying');
      const rows = trigger.locator('tbody tr');
      await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(4);
      // Newest first: the refused inputs, the replay, the duplicate, the delivery that started the run.
      expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-delivery')))).toEqual(['refused', 'replayed', 'duplicate', 'started']);
      expect(await rows.nth(0).textContent()).toContain('colour');
      for (const i of [1, 2, 3]) expect(await rows.nth(i).locator('a').textContent()).toBe(runId);
      expect(await rows.nth(3).textContent()).toContain('completed');
      expect(await rows.nth(3).textContent()).toContain('tidying');
      const shown = await page.content();
      for (const hidden of [SECRET, signature.split('v1=')[1]!, 'attic-key-1']) expect(shown).not.toContain(hidden);
      // The link opens the run the delivery started.
      await rows.nth(3).locator('a').click();
      await page.locator('#run-status', { hasText: 'completed' }).waitFor();
      expect(new URL(page.url()).hash).toBe(`#/run/${runId}`);
      await page.locator('svg.dag g.node[data-task="tidy"][data-status="completed"]').waitFor();
      // The route answers only the config's triggers, and only with a session.
      expect((await page.request.get(`${s.url}/console/api/deliveries?path=nope`)).status()).toBe(404);
      expect((await fetch(`${s.url}/console/api/deliveries?path=rooms%2Ftidy`)).status).toBe(401);
      expect(turns.problems).toEqual([]);
      await ctx.close();
    });
  });
});
