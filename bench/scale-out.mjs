// Many runners on one PostgreSQL database, measured through the real CLI: M missions of T independent
// tasks are queued with `squadron run --detach`, then executed by 1, 2 and 4 `squadron worker`
// processes against the fake model server with a fixed latency per reply. Each task is four model
// replies (commander → worker → a POST to a counting server → worker answer → task_complete).
// Prints, per runner count: wall time, tasks per second, queue overhead per task (enqueue → claim,
// p50/p99). Then with 4 runners, one killed with SIGKILL when about half the tasks are done: tasks
// lost, side effects repeated, and the time from the kill until its units were claimed again.
// Fan-out: one mission whose parallel iterated task has N items (--items, default 200; each item one
// model reply), max_parallel = concurrency_limit = 2 × --concurrency, queued with --detach and executed
// by 1 and 2 workers (--fanout-runners): wall time, items per second, and how many runners ran items.
// Prints figures only; nothing here is asserted. Run after building:
//   npm run build --silent && node bench/scale-out.mjs [--missions 10] [--tasks 20] [--latency 100] [--concurrency 4] [--runners 1,2,4]
//     [--items 200] [--fanout-runners 1,2] [--only tasks|fanout] [--cpu-prof DIR]
// The embedded PostgreSQL runs with fsync off (test settings); --durable keeps fsync on.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { startFakeModelServer } from '../dist/test/support/fakeModelServer.js';
import { closeServer, listenLocal, readBody } from '../dist/test/support/localServer.js';
import { startPostgres } from '../dist/test/support/postgres.js';
import { callAgent, firstUserMessage, lastToolResult, taskComplete, toolCall, turnScript } from '../dist/test/support/turnScript.js';

const CLI = resolve(import.meta.dirname, '..', 'dist', 'cli', 'main.cjs');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const MISSIONS = Number(option('--missions', '10'));
const TASKS = Number(option('--tasks', '20'));
const LATENCY = Number(option('--latency', '100'));
const CONCURRENCY = Number(option('--concurrency', '4'));
const RUNNERS = option('--runners', '1,2,4').split(',').map(Number);
const taskNames = Array.from({ length: TASKS }, (_, i) => `t${i + 1}`);
const ITEMS = Number(option('--items', '200'));
const FANOUT_RUNNERS = option('--fanout-runners', '1,2').split(',').map(Number);
const ONLY = option('--only', '');
// --cpu-prof DIR: each worker writes a V8 CPU profile there when it stops (open it in Chrome's DevTools).
const CPU_PROF = option('--cpu-prof', '');

const marks = new Map();
const counter = createServer((req, res) => {
  void readBody(req).then((body) => {
    marks.set(body, (marks.get(body) ?? 0) + 1);
    res.end('marked');
  });
});
const counterUrl = await listenLocal(counter);

const runKey = (req) => /run-key (\w+)/.exec(firstUserMessage(req))?.[1] ?? '?';
const rules = {};
for (const t of taskNames) {
  // The commander passes the mission's key (from its objective) to the worker, whose POST names the
  // mission and the task, so repeats are counted per task of each run.
  rules[`commander of task "${t}"`] = [(req) => callAgent('worker', `Mark ${t} (run-key ${runKey(req)})`), (req) => taskComplete(`${t}: ${lastToolResult(req).slice(0, 20)}`)];
  rules[`worker agent of task "${t}"`] = [(req) => toolCall('builtins_http_post', { url: `${counterUrl}/mark`, body: `${runKey(req)}/${t}`, content_type: 'text' }), { text: 'marked' }];
}
// An item's commander (task "fan[i]") completes in one reply.
rules['commander of task "fan['] = [taskComplete('done')];
const script = turnScript(rules);
const models = await startFakeModelServer({ respond: (req) => ({ ...script.respond(req), delayMs: LATENCY }) });
const server = await startPostgres({ durable: args.includes('--durable') });
// Stopped early (Ctrl-C, a timeout): take the workers and the server down with the bench.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of live) child.kill('SIGKILL');
    void Promise.allSettled([models.close(), closeServer(counter), server.stop()]).then(() => process.exit(130));
  });
}

function project(index) {
  const dir = mkdtempSync(join(tmpdir(), 'squadron-bench-scale-'));
  const tasks = taskNames.map((t) => `  task "${t}" {\n    objective = "Mark ${t} (run-key m${index})."\n    tools     = [builtins.http.post]\n  }\n`).join('');
  writeFileSync(
    join(dir, 'main.hcl'),
    `model "fake" {\n  provider = "anthropic"\n  base_url = "${models.anthropicBaseURL}"\n  api_key  = "k"\n}\nmission "m${index}" {\n  max_parallel = ${TASKS}\n  commander { model = models.fake.claude_sonnet_4_6 }\n${tasks}}\n`,
  );
  return dir;
}

function cli(argv, cwd) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...argv], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => (code === 0 ? done(out) : fail(new Error(`squadron ${argv[0]} exited ${code}: ${out}`))));
  });
}

const live = new Set();
function startWorkers(n, url, cwd) {
  return Array.from({ length: n }, () => {
    const profile = CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROF] : [];
    const child = spawn(process.execPath, [...profile, CLI, 'worker', '--db', url, '--concurrency', String(CONCURRENCY)], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(child);
    child.on('close', () => live.delete(child));
    child.stdout.resume();
    child.stderr.resume();
    return { child, exited: new Promise((done) => child.on('close', done)) };
  });
}

async function query(url, text, values = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Queues the missions, starts `n` workers, optionally kills one mid-way; returns the figures. */
async function scenario(n, kill) {
  const url = await server.createDatabase();
  marks.clear();
  const dirs = Array.from({ length: MISSIONS }, (_, i) => project(i));
  for (const dir of dirs) await cli(['run', dir, '--db', url, '--detach'], dir);
  const total = MISSIONS * TASKS;
  const started = Date.now();
  const workers = startWorkers(n, url, dirs[0]);
  let killedAt;
  for (;;) {
    const [done] = await query(url, "SELECT count(*)::int AS tasks, (SELECT count(*)::int FROM runs WHERE status IN ('completed', 'failed')) AS runs FROM tasks WHERE status = 'completed'");
    if (kill && killedAt === undefined && done.tasks >= total / 2) {
      workers[0].child.kill('SIGKILL');
      await workers[0].exited;
      killedAt = Date.now();
    }
    if (done.runs === MISSIONS) break;
    if (Date.now() - started > 20 * 60_000) throw new Error('the runs did not finish within 20 minutes');
    await sleep(50);
  }
  const wallMs = Date.now() - started;
  for (const w of workers) w.child.kill('SIGTERM');
  await Promise.all(workers.map((w) => w.exited));
  const units = await query(url, "SELECT extract(epoch FROM claimed_at - enqueued_at) * 1000 AS wait_ms, claims, extract(epoch FROM claimed_at) * 1000 AS claimed_ms FROM work_units WHERE kind = 'task'");
  const waits = units.filter((u) => Number(u.claims) === 1).map((u) => Number(u.wait_ms)).sort((a, b) => a - b);
  const [{ completed }] = await query(url, "SELECT count(*)::int AS completed FROM tasks WHERE status = 'completed'");
  const retaken = units.filter((u) => Number(u.claims) > 1);
  const recoverMs = killedAt === undefined || retaken.length === 0 ? NaN : Math.max(...retaken.map((u) => Number(u.claimed_ms) - killedAt));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  return {
    runners: n,
    wallMs,
    tasksPerSecond: (total / wallMs) * 1000,
    waitP50: pct(waits, 50),
    waitP99: pct(waits, 99),
    lost: total - completed,
    repeated: [...marks.values()].filter((c) => c > 1).length,
    missingEffects: total - marks.size,
    retaken: retaken.length,
    recoverMs,
  };
}

function fanoutProject() {
  const dir = mkdtempSync(join(tmpdir(), 'squadron-bench-fanout-'));
  const items = Array.from({ length: ITEMS }, (_, i) => `{ n = ${i} }`).join(', ');
  const slots = 2 * CONCURRENCY;
  writeFileSync(
    join(dir, 'main.hcl'),
    `model "fake" {\n  provider = "anthropic"\n  base_url = "${models.anthropicBaseURL}"\n  api_key  = "k"\n}\nmission "fanout" {\n  max_parallel = ${slots}\n  commander { model = models.fake.claude_sonnet_4_6 }\n  dataset "things" {\n    items  = [${items}]\n    schema = {\n      n = integer("n", true)\n    }\n  }\n  task "fan" {\n    objective = "Thing \${item.n}."\n    tools     = [builtins.http.post]\n    iterator {\n      dataset           = datasets.things\n      parallel          = true\n      concurrency_limit = ${slots}\n    }\n  }\n}\n`,
  );
  return dir;
}

/** One run of ITEMS items queued with --detach, executed by `n` workers. */
async function fanout(n) {
  const url = await server.createDatabase();
  const dir = fanoutProject();
  const out = await cli(['run', dir, '--db', url, '--detach'], dir);
  const runId = /run (run_\w+)/.exec(out)?.[1];
  const started = Date.now();
  const workers = startWorkers(n, url, dir);
  for (;;) {
    const [run] = await query(url, 'SELECT status FROM runs WHERE id = $1', [runId]);
    if (run.status === 'completed' || run.status === 'failed') break;
    if (Date.now() - started > 20 * 60_000) throw new Error('the fan-out did not finish within 20 minutes');
    await sleep(50);
  }
  const wallMs = Date.now() - started;
  for (const w of workers) w.child.kill('SIGTERM');
  await Promise.all(workers.map((w) => w.exited));
  const [{ completed }] = await query(url, "SELECT count(*)::int AS completed FROM task_items WHERE run_id = $1 AND status = 'completed'", [runId]);
  const [{ runners }] = await query(url, "SELECT count(DISTINCT pid)::int AS runners FROM work_units WHERE run_id = $1 AND task LIKE 'fan[%'", [runId]);
  rmSync(dir, { recursive: true, force: true });
  return { runners: n, wallMs, completed, ran: runners, itemsPerSecond: (ITEMS / wallMs) * 1000 };
}

try {
  console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} CPUs`);
  if (ONLY !== 'tasks') {
    console.log(`fan-out: 1 run, ${ITEMS} items of one parallel iterated task, ${LATENCY} ms per model reply (1 reply per item), max_parallel = concurrency_limit = ${2 * CONCURRENCY}, --concurrency ${CONCURRENCY} per worker`);
    console.log('runners  wall s  items/s  completed  runners that ran items');
    for (const n of FANOUT_RUNNERS) {
      const r = await fanout(n);
      console.log(`${String(n).padStart(7)}  ${(r.wallMs / 1000).toFixed(1).padStart(6)}  ${r.itemsPerSecond.toFixed(2).padStart(7)}  ${String(r.completed).padStart(9)}  ${String(r.ran).padStart(22)}`);
    }
  }
  if (ONLY !== 'fanout') await taskScenarios();
} finally {
  await models.close();
  await closeServer(counter);
  await server.stop();
}

async function taskScenarios() {
  console.log(`scale-out: ${MISSIONS} missions × ${TASKS} tasks, ${LATENCY} ms per model reply (4 replies per task), --concurrency ${CONCURRENCY} per worker`);
  console.log('runners  wall s  tasks/s  enqueue→claim p50 ms  p99 ms');
  for (const n of RUNNERS) {
    const r = await scenario(n, false);
    console.log(`${String(n).padStart(7)}  ${(r.wallMs / 1000).toFixed(1).padStart(6)}  ${r.tasksPerSecond.toFixed(2).padStart(7)}  ${r.waitP50.toFixed(0).padStart(20)}  ${r.waitP99.toFixed(0).padStart(6)}`);
  }
  const k = await scenario(4, true);
  console.log(`kill -9 of 1 of 4 runners at half-way: tasks lost ${k.lost}, side effects repeated ${k.repeated} (missing ${k.missingEffects}), units taken over ${k.retaken}, kill → last takeover ${Number.isNaN(k.recoverMs) ? 'n/a' : `${k.recoverMs.toFixed(0)} ms`}, wall ${(k.wallMs / 1000).toFixed(1)} s`);
}
