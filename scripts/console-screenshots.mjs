// Screenshots of the web console's main pages for docs/images/ (referenced by the README and
// docs/concepts/console.md), taken in the real browser (scripts/install-browser.sh) from a real
// `squadron ui` over a copy of the offline quickstart: two runs, then the runs page, a run's task
// graph, a task's transcript and the ledger.
//   npm run build --silent && node scripts/console-screenshots.mjs

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.cjs');
const OUT = join(ROOT, 'docs', 'images');

const dir = mkdtempSync(join(tmpdir(), 'squadron-screenshots-'));
cpSync(join(ROOT, 'examples', 'quickstart'), dir, { recursive: true, filter: (src) => !src.endsWith('/.squadron') });
for (const topic of ['tide pools', 'tide pools']) {
  const r = spawnSync(process.execPath, [CLI, 'run', dir, '-i', `topic=${topic}`], { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`the quickstart run failed:\n${r.stderr}`);
}
const ui = spawn(process.execPath, [CLI, 'ui', dir, '--port', '0'], { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] });
const login = await new Promise((done) => {
  let out = '';
  ui.stdout.setEncoding('utf8').on('data', (d) => {
    out += d;
    const m = /(http:\/\/\S+\/login\?token=\S+)/.exec(out);
    if (m) done(m[1]);
  });
});
const base = login.slice(0, login.indexOf('/login'));
const executablePath = execFileSync(join(ROOT, 'scripts', 'install-browser.sh'), ['--check'], { encoding: 'utf8' }).trim();
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
mkdirSync(OUT, { recursive: true });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(`${base}/login`);
  await page.screenshot({ path: join(OUT, 'console-login.png') });
  await page.goto(login);
  await page.locator('tr[data-run] a').first().waitFor();
  await page.screenshot({ path: join(OUT, 'console-runs.png') });
  await page.locator('tr[data-run] a').first().click();
  await page.locator('svg.dag g.node').first().waitFor();
  await page.screenshot({ path: join(OUT, 'console-run.png') });
  await page.locator('svg.dag g.node[data-task="research"]').click();
  await page.locator('.tool-call').first().waitFor();
  await page.locator('.sessions button', { hasText: 'worker' }).click();
  await page.locator('.tool-call[data-tool^="builtins_files"]').first().waitFor();
  await page.screenshot({ path: join(OUT, 'console-task.png') });
  await page.goBack();
  await page.locator('a', { hasText: 'ledger' }).click();
  await page.locator('table tbody tr').first().waitFor();
  await page.screenshot({ path: join(OUT, 'console-ledger.png') });
  console.log(`wrote ${['login', 'runs', 'run', 'task', 'ledger'].map((n) => `docs/images/console-${n}.png`).join(', ')}`);
} finally {
  await browser.close();
  ui.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
