// The console in Chromium on a waiting run and on a run with a budget (`squadron ui`, fake model
// server): a question typed into the inbox is answered, the run resumes in the console's process
// and completes with the answer; a budget's bars show the spent fraction of each limit that the
// stored turns add up to.

import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { launchBrowser, startUi, type UiProcess } from '../support/consoleBrowser.js';
import { ANTHROPIC_MODEL, commanderOf, fakeModelBlock, openRunDb, removeProjects, workerOf, writeProject } from '../support/e2eProject.js';
import { type FakeRequest, withFakeModelServer } from '../support/fakeModelServer.js';
import { callAgent, lastToolResult, taskComplete, toolCall, turnScript } from '../support/turnScript.js';

let browser: Browser;
const uis: UiProcess[] = [];
beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(async () => {
  for (const ui of uis.splice(0)) await ui.stop();
});
afterAll(async () => {
  await browser?.close();
  removeProjects();
});

async function openConsole(dir: string): Promise<Page> {
  const ui = await startUi([dir], { cwd: dir });
  uis.push(ui);
  const page = await (await browser.newContext()).newPage();
  await page.goto(ui.loginUrl);
  await page.locator('h1', { hasText: 'Runs' }).waitFor();
  return page;
}

function runIdOf(dir: string): string {
  const db = openRunDb(dir);
  try {
    return db.prepare('SELECT id FROM runs').pluck().get() as string;
  } finally {
    db.close();
  }
}

describe('the console answers questions and shows budgets', () => {
  it('a question typed into the inbox is answered: the run resumes and completes with the answer', async () => {
    const turns = turnScript({
      [commanderOf('name')]: [callAgent('worker', 'Name the shed'), (req: FakeRequest) => taskComplete(`named: ${lastToolResult(req)}`)],
      [workerOf('name')]: [toolCall('builtins_human_ask', { question: 'What should the shed be called?' }), (req: FakeRequest) => ({ text: `heard ${lastToolResult(req)}` })],
    });
    await withFakeModelServer(turns.respond, async (server) => {
      const dir = writeProject({
        'main.hcl': `${fakeModelBlock(server)}
mission "shed" {
  commander { model = ${ANTHROPIC_MODEL} }
  task "name" {
    objective = "Name the shed."
    tools     = [builtins.human.ask]
  }
}
`,
      });
      const first = await runCli(['run', dir], { cwd: dir, timeoutMs: 120_000 });
      expect(first.code, first.stderr).toBe(4);
      const runId = runIdOf(dir);
      const page = await openConsole(dir);
      expect(await page.locator(`tr[data-run="${runId}"]`).textContent()).toContain('waiting');

      await page.locator('nav a', { hasText: 'Inbox' }).click();
      const question = page.locator('.inbox-run .request');
      await question.waitFor();
      expect(await question.textContent()).toContain('What should the shed be called?');
      // Nothing typed: nothing to send.
      expect(await question.locator('button.answer').isDisabled()).toBe(true);
      await question.locator('input').fill('Bluebell Cottage');
      await question.locator('button.answer').click();
      // Answered and resumed from the page: the inbox empties, and the run completes in the console's process.
      await page.locator('p.muted', { hasText: 'Nothing waits for you.' }).waitFor({ timeout: 60_000 });
      await page.goto(`${new URL(page.url()).origin}/#/run/${runId}`);
      await page.locator('#run-status', { hasText: 'completed' }).waitFor({ timeout: 120_000 });
      await page.locator('svg.dag g.node[data-task="name"][data-status="completed"]').waitFor();
      expect(turns.problems).toEqual([]);

      const inspected = JSON.parse((await runCli(['inspect', runId, '--json'], { cwd: dir })).stdout) as {
        run: { status: string };
        tasks: { name: string; summary: string }[];
        operator_requests: { kind: string; status: string; decided_by: string; answer: unknown }[];
      };
      expect(inspected.run.status).toBe('completed');
      expect(inspected.operator_requests).toMatchObject([{ kind: 'question', status: 'answered', decided_by: 'api:console', answer: { text: 'Bluebell Cottage' } }]);
      // The worker was given the typed answer, and the commander its reply.
      expect(inspected.tasks[0]!.summary).toContain('Bluebell Cottage');
    });
  });

  it("a run's budget bars show the spent fraction of each limit as the stored turns add up", async () => {
    // Two turns of known size: 63,000 tokens of a 100,000 limit, and their price of a $0.50 limit.
    const usage = { inputTokens: 30_000, outputTokens: 1_500, cacheReadTokens: 0, cacheWriteTokens: 0 };
    const turns = turnScript({
      [commanderOf('plan')]: [{ ...taskComplete('planned'), usage }],
      [commanderOf('write')]: [{ ...taskComplete('written'), usage }],
    });
    await withFakeModelServer(turns.respond, async (server) => {
      const dir = writeProject({
        'main.hcl': `${fakeModelBlock(server)}
mission "essay" {
  budget {
    tokens  = 100000
    dollars = 0.5
  }
  commander { model = ${ANTHROPIC_MODEL} }
  task "plan" {
    objective = "Plan the essay."
    tools     = [builtins.files.write]
  }
  task "write" {
    objective  = "Write the essay."
    depends_on = [tasks.plan]
    tools      = [builtins.files.write]
  }
}
`,
      });
      const ran = await runCli(['run', dir], { cwd: dir, timeoutMs: 120_000 });
      expect(ran.code, ran.stderr).toBe(0);
      expect(turns.problems).toEqual([]);
      const runId = runIdOf(dir);
      const db = openRunDb(dir);
      const spent = db.prepare('SELECT SUM(input_tokens + output_tokens + cache_read_tokens + cache_write_tokens) AS tokens, SUM(cost_usd) AS dollars FROM model_turns WHERE run_id = ?').get(runId) as { tokens: number; dollars: number };
      db.close();
      expect(spent.tokens).toBe(63_000);
      expect(spent.dollars).toBeGreaterThan(0);

      const page = await openConsole(dir);
      await page.goto(`${new URL(page.url()).origin}/#/run/${runId}`);
      const budget = page.locator('.budget');
      await budget.waitFor();
      expect(await budget.locator('.muted').textContent()).toBe('budget · mission');
      const shown = async (name: string): Promise<{ fraction: number; label: string }> => {
        const row = budget.locator('.bar-row', { has: page.locator(`span:text-is("${name}")`) });
        const bar = (await row.locator('.bar').boundingBox())!;
        const fill = (await row.locator('.fill').boundingBox())!;
        return { fraction: fill.width / bar.width, label: (await row.locator('span').last().textContent())! };
      };
      const tokens = await shown('tokens');
      expect(tokens.fraction).toBeCloseTo(63_000 / 100_000, 2);
      expect(tokens.label).toBe('63.0k / 100.0k');
      const dollars = await shown('dollars');
      expect(dollars.fraction).toBeCloseTo(spent.dollars / 0.5, 2);
      expect(dollars.label).toBe(`$${spent.dollars.toFixed(4)} / $0.5000`);
      // No duration limit: no bar for it.
      expect(await budget.locator('.bar-row').count()).toBe(2);
    });
  });
});
