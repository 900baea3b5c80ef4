// The web console on a big store, in a real browser (Chromium through playwright-core, found by
// scripts/install-browser.sh --check) against a whole `squadron ui` process: time from navigation to
// the runs page showing its first page over 10,000 stored runs; to a run of a 1,000-item task showing
// its graph and progress; to a transcript of 10,000 messages showing its first page, and how many
// messages the page holds after scrolling (it reads 100 at a time, never all). Prints figures only.
//   npm run build --silent && node bench/console.mjs [--runs 10000] [--items 1000] [--messages 10000] [--repeat 5]

import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { openStore } from '../dist/store/index.js';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.cjs');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const RUNS = option('--runs', 10_000);
const ITEMS = option('--items', 1000);
const MESSAGES = option('--messages', 10_000);
const REPEAT = option('--repeat', 5);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const graph = [
  { name: 'prepare', dependsOn: [], routes: [], sendTo: [] },
  { name: 'fanout', dependsOn: ['prepare'], routes: [], sendTo: [] },
  { name: 'report', dependsOn: ['fanout'], routes: [], sendTo: [] },
];

async function seed(dir) {
  const store = openStore(join(dir, '.squadron', 'squadron.db'));
  const t0 = performance.now();
  let big;
  let session;
  await store.transaction(async (tx) => {
    for (let i = 0; i < RUNS - 1; i += 1) {
      const r = await tx.runs.create({ mission: i % 3 === 0 ? 'quickstart' : `mission_${i % 7}`, configPath: dir, inputs: { topic: `t${i}` }, options: { taskGraph: graph } });
      await tx.runs.setStatus(r.id, i % 11 === 0 ? 'failed' : 'completed');
    }
    const run = await tx.runs.create({ mission: 'quickstart', configPath: dir, inputs: { topic: 'big' }, options: { taskGraph: graph } });
    big = run.id;
    await tx.tasks.ensure(run.id, 'prepare');
    await tx.tasks.complete(run.id, 'prepare', { summary: 'ready' });
    await tx.tasks.ensure(run.id, 'fanout');
    await tx.tasks.markRunning(run.id, 'fanout');
    await tx.items.ensure(run.id, 'fanout', ITEMS);
    for (let i = 0; i < ITEMS; i += 1) {
      if (i % 100 === 7) await tx.items.fail(run.id, 'fanout', i, `item ${i} failed: HTTP 503`);
      else if (i < ITEMS - 10) await tx.items.complete(run.id, 'fanout', i, { summary: `item ${i} done` });
    }
    await tx.tasks.ensure(run.id, 'report');
    const s = await tx.sessions.open({ runId: run.id, task: 'report', agent: 'commander', role: 'commander', model: 'claude-haiku-4-5', systemPrompt: 'You are the commander of task "report".', tools: [], skills: [] });
    session = s.id;
    for (let i = 0; i < MESSAGES; i += 2) {
      await tx.messages.append(s.id, { role: 'assistant', turn: i / 2 + 1, parts: [{ type: 'text', text: `Step ${i}: reading the next file.` }, { type: 'tool_use', id: `call_${i}`, name: 'builtins_files_read', input: { path: `notes/${i}.md` } }] });
      await tx.messages.append(s.id, { role: 'user', turn: i / 2 + 1, kind: 'tool_results', parts: [{ type: 'tool_result', toolUseId: `call_${i}`, isError: false, content: [{ type: 'text', text: `contents of notes/${i}.md `.repeat(20) }] }] });
    }
  });
  await store.close();
  return { big, session, seededMs: performance.now() - t0 };
}

function startUi(dir) {
  const child = spawn(process.execPath, [CLI, 'ui', dir, '--port', '0'], { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((done) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const login = /(http:\/\/\S+\/login\?token=\S+)/.exec(out)?.[1];
      if (login) done({ child, login, url: login.slice(0, login.indexOf('/login')) });
    });
  });
}

/**
 * Records in the page, on its own clock (ms since its navigation started), the first DOM change after
 * which the page shows what it is for: a driver's round trips on two busy cores are not counted.
 */
function recordReady() {
  const shows = {
    runs: () => document.querySelectorAll('tr[data-run]').length === 100 && /runs 1–100/.test(document.getElementById('shown')?.textContent ?? ''),
    run: () => document.querySelector('svg.dag g.node[data-task="fanout"]') !== null && document.querySelector('tr[data-task-row="fanout"] .progress') !== null,
    task: () => document.querySelector('.transcript .msg') !== null,
  };
  const which = /\/task\//.test(location.hash) ? 'task' : /^#\/run\//.test(location.hash) ? 'run' : 'runs';
  const check = () => {
    if (window.readyAt === undefined && shows[which]()) window.readyAt = performance.now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
}

/** Per load: when the page showed it (its clock), and the whole round seen by the driver. REPEAT fresh loads. */
async function timed(page, url) {
  const inPage = [];
  const driver = [];
  const api = [];
  for (let i = 0; i < REPEAT; i += 1) {
    await page.goto('about:blank');
    const t0 = performance.now();
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.readyAt !== undefined, null, { timeout: 60_000 });
    driver.push(performance.now() - t0);
    inPage.push(await page.evaluate(() => window.readyAt));
    // The data's round trip (request to last byte) as the page's resource timing saw it.
    api.push(await page.evaluate(() => Math.max(0, ...performance.getEntriesByType('resource').filter((e) => /\/console\/api\/|\/v1\/runs\/[^/]+$/.test(e.name)).map((e) => e.responseEnd - e.requestStart))));
  }
  return { inPage, driver, api };
}

const figures = (t) => `median ${median(t.inPage).toFixed(0)} ms in the page (min ${Math.min(...t.inPage).toFixed(0)}, max ${Math.max(...t.inPage).toFixed(0)}), ${median(t.driver).toFixed(0)} ms seen by the driver, ${median(t.api).toFixed(0)} ms of it the data's round trip; ${REPEAT} loads`;

const dir = mkdtempSync(join(tmpdir(), 'squadron-bench-console-'));
cpSync(join(ROOT, 'examples', 'quickstart'), dir, { recursive: true, filter: (src) => !src.endsWith('/.squadron') });
const { big, seededMs } = await seed(dir);
console.log(`load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} on ${availableParallelism()} cores`);
console.log(`seeded ${RUNS} runs, one with a ${ITEMS}-item task and a ${MESSAGES}-message session, in ${(seededMs / 1000).toFixed(1)} s`);
const ui = await startUi(dir);
// The server's request log is left out (stderr ignored): figures only.
const executablePath = execFileSync(join(ROOT, 'scripts', 'install-browser.sh'), ['--check'], { encoding: 'utf8' }).trim();
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.addInitScript(recordReady);
  await page.goto(ui.login);

  const runs = await timed(page, `${ui.url}/#/`);
  console.log(`runs page, first 100 of ${RUNS} runs shown: ${figures(runs)}`);

  const run = await timed(page, `${ui.url}/#/run/${big}`);
  const shown = await page.locator('tr[data-task-row="fanout"] .progress').textContent();
  console.log(`run page, a ${ITEMS}-item task (graph and progress ${shown} shown): ${figures(run)}`);

  const task = await timed(page, `${ui.url}/#/run/${big}/task/report`);
  const first = await page.locator('.transcript .msg').count();
  for (let i = 0; i < 3; i += 1) {
    const before = await page.locator('.transcript .msg').count();
    await page.locator('.sentinel').scrollIntoViewIfNeeded();
    await page.waitForFunction((n) => document.querySelectorAll('.transcript .msg').length > n, before);
  }
  const after = await page.locator('.transcript .msg').count();
  console.log(`transcript of ${MESSAGES} messages, first page shown: ${figures(task)}; ${first} messages in the page at first, ${after} after scrolling to the end three times`);
} finally {
  await browser.close();
  ui.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
