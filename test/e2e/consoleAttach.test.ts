// `squadron ui --db <file>` started where no config is: the console of that database alone. The
// run's config is deleted first; the runs page lists the run and its page draws the task graph the
// run recorded when it started (tasks, depends_on edges, statuses), and a task's transcript opens.
// A waiting run approved there resumes from the config its run stored, as `squadron resume` does.

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { launchBrowser, startUi, type UiProcess } from '../support/consoleBrowser.js';
import { ANTHROPIC_MODEL, commanderOf, fakeModelBlock, removeProjects, workerOf, writeProject } from '../support/e2eProject.js';
import { type FakeRequest, withFakeModelServer } from '../support/fakeModelServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

let browser: Browser;
const uis: UiProcess[] = [];
const dirs: string[] = [];
beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(async () => {
  for (const ui of uis.splice(0)) await ui.stop();
});
afterAll(async () => {
  await browser?.close();
  removeProjects();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('squadron ui --db without a config', () => {
  it('attaches to the database alone from an empty folder: the run, its recorded task graph and a transcript, with the config gone', async () => {
    const turns = turnScript({
      [commanderOf('gather')]: [taskComplete('gathered')],
      [commanderOf('draft')]: [taskComplete('drafted')],
      [commanderOf('review')]: [taskComplete('reviewed')],
    });
    let dir = '';
    let runId = '';
    await withFakeModelServer(turns.respond, async (server) => {
      dir = writeProject({
        'main.hcl': `${fakeModelBlock(server)}
mission "newsletter" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "gather" {
    objective = "Gather the news."
    tools     = [builtins.files.write]
  }
  task "draft" {
    objective  = "Draft the letter."
    depends_on = [tasks.gather]
    tools      = [builtins.files.write]
  }
  task "review" {
    objective  = "Review the draft."
    depends_on = [tasks.draft, tasks.gather]
    tools      = [builtins.files.write]
  }
}
`,
      });
      const ran = await runCli(['run', dir, '--json'], { cwd: dir, timeoutMs: 120_000 });
      expect(ran.code, ran.stderr).toBe(0);
      runId = (JSON.parse(ran.stdout) as { run_id: string }).run_id;
      expect(turns.problems).toEqual([]);
    });
    // The config is gone; the console starts in a folder holding nothing.
    rmSync(join(dir, 'main.hcl'));
    const empty = mkdtempSync(join(tmpdir(), 'squadron-ui-alone-'));
    dirs.push(empty);
    const db = join(dir, '.squadron', 'squadron.db');
    // Without --db an empty folder is still a missing config (exit 2), as before.
    const refused = await runCli(['ui', '--port', '0'], { cwd: empty });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('error[FIL005]');

    // A --db that names no database is said so; no empty database is made there.
    const missing = join(empty, 'nowhere.db');
    const typo = await runCli(['ui', '--port', '0', '--db', missing], { cwd: empty });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('no database at nowhere.db');
    expect(typo.stderr).not.toContain('showing the database alone');
    expect(existsSync(missing)).toBe(false);

    const ui = await startUi(['--db', db], { cwd: empty });
    uis.push(ui);
    expect(ui.stderr()).toContain('no config here: showing the database alone');
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(ui.loginUrl);
    const row = page.locator(`tr[data-run="${runId}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('newsletter');
    expect(await row.textContent()).toContain('completed');
    await row.locator('a').first().click();
    await page.locator('#run-status', { hasText: 'completed' }).waitFor();
    // The graph the run recorded: three tasks, completed, joined by their three depends_on edges.
    const nodes = page.locator('svg.dag g.node');
    await expect.poll(() => nodes.count()).toBe(3);
    expect(await nodes.evaluateAll((gs) => gs.map((g) => [g.getAttribute('data-task'), g.getAttribute('data-status')]))).toEqual([
      ['gather', 'completed'],
      ['draft', 'completed'],
      ['review', 'completed'],
    ]);
    expect(await page.locator('svg.dag path.edge.depends').count()).toBe(3);
    expect(await page.locator('svg.dag path.edge.depends title').allTextContents()).toEqual(
      expect.arrayContaining(['draft depends on gather', 'review depends on draft', 'review depends on gather']),
    );
    // A task's transcript, from the store alone.
    await page.locator('svg.dag g.node[data-task="draft"]').click();
    await page.locator('.tool-call[data-tool="task_complete"]').waitFor();
    expect(await page.locator('.tool-call[data-tool="task_complete"]').first().textContent()).toContain('drafted');
    await ctx.close();
    // Without a config the run threads load none: nothing to report as an error.
    expect(ui.stdout() + ui.stderr()).not.toContain('could not load the config');
  });

  it('resumes a run approved from the inbox with the config the run stored, though the console has none', async () => {
    const turns = turnScript({
      [commanderOf('label')]: [callAgent('worker', 'Write the label'), (req: FakeRequest) => taskComplete(`done: ${lastToolResult(req)}`)],
      [workerOf('label')]: [toolCall('builtins_files_write', { path: 'label.txt', content: 'jam' }), (req: FakeRequest) => ({ text: `wrote: ${lastToolResult(req)}` })],
    });
    await withFakeModelServer(turns.respond, async (server) => {
      const dir = writeProject({
        'main.hcl': `${fakeModelBlock(server)}
mission "jars" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "label" {
    objective = "Label the jar."
    tools     = [builtins.files.write]
    approval  = [builtins.files.write]
  }
}
`,
      });
      const first = await runCli(['run', dir], { cwd: dir, timeoutMs: 120_000 });
      expect(first.code, first.stderr).toBe(4);
      const runId = /squadron approve (run_\w+)/.exec(first.stdout)![1]!;
      const empty = mkdtempSync(join(tmpdir(), 'squadron-ui-alone-'));
      dirs.push(empty);
      const ui = await startUi(['--db', join(dir, '.squadron', 'squadron.db')], { cwd: empty });
      uis.push(ui);
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      await page.goto(ui.loginUrl);
      await page.locator('nav a', { hasText: 'Inbox' }).click();
      await page.locator('.inbox-run .request button.approve').click();
      await page.goto(`${ui.url}/#/run/${runId}`);
      await page.locator('#run-status', { hasText: 'completed' }).waitFor({ timeout: 120_000 });
      expect(readFileSync(join(dir, '.squadron', 'workspaces', runId, 'label.txt'), 'utf8')).toBe('jam');
      expect(turns.problems).toEqual([]);
      await ctx.close();
    });
  });
});
