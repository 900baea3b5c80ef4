// Runtime overhead: runs a 50-task mission (root → 10 parallel chains of 4 → join → 7 parallel
// tasks → final; each task = commander call_agent → worker one tool call → worker answer →
// commander task_complete, so 4 model turns) through the real CLI (`node dist/cli/main.cjs run`)
// against the fake model server (real Anthropic/OpenAI wire format over 127.0.0.1), and prints:
//
// 1. Zero model latency, max_parallel = 1 (so model turns never overlap and time adds up):
//    - non-model time per model turn = (run wall − Σ model_turns.duration_ms) / turns, where the run
//      wall is runs.started_at → runs.finished_at and duration_ms is the runtime's own measure of
//      each model call (request built → response parsed, i.e. SDK + HTTP + fake server). It is then
//      split into worker/bookkeeping tool calls (Σ tool_calls finished_at − started_at, leaving out
//      call_agent/ask_agent whose span contains the worker's whole session) and the rest (prompt
//      rendering, SQLite writes, events, scheduling).
//    - the model call itself split into the fake server's own handling time (measured in this
//      process with the `http.server.request.start` / `http.server.response.finish` diagnostics
//      channels: headers received → last byte written) and the client side (Σ duration_ms − server).
//    - per tool call: the ledger span (started_at → finished_at: ledger write, tool.started event,
//      execution, ledger write) and the runtime's tool.finished durationMs (execution only), by tool.
//    - process overhead outside the run (spawn → runs.started_at: Node start-up, module loading,
//      config load, database open; runs.finished_at → exit) and the CLI's CPU time per turn after
//      its first model request, all threads and the main (event-loop) thread alone (from a preload,
//      bench/fixtures/overhead-cpu-preload.mjs, so the CLI itself is untouched; the main thread's
//      share comes from /proc, 10 ms ticks, Linux only). CPU time is the figure to trust on a busy machine: wall times there
//      include waiting for a core.
//    All SQLite times have 1 ms resolution; sums over ~200 turns make the per-turn means good to
//    about ±0.05 ms, but single tool spans of 0–1 ms are coarse.
// 2. 200 ms model latency (`delayMs` on every reply): wall time ÷ critical-path time, where the
//    critical path is the heaviest dependency chain of the loaded MissionGraph (depends_on, send_to
//    and router edges), each task weighted by its model turns in this run × the latency. Run at a
//    max_parallel wider than the mission (parallelism is not the limit; target ≤ 1.15) and at the
//    default 4 for contrast. The ratio is given for the run wall and for the whole process. Each
//    run's wall is then taken apart along the chain that actually decided it (walking back from the
//    last task to finish through the dependency that finished last): ideal model time, the model
//    calls' excess over the latency (client side, and replies waiting for a busy event loop while
//    parallel sessions are processed), in-task non-model time, dependency→dependent start gaps, and
//    the run's start and finish outside any task. Every reply has the same latency, so the parallel
//    sessions' replies arrive together and queue on the one JS thread: the worst case for overhead.
//    It also times bare streamed SDK calls to the fake server (bench/fixtures/overhead-calibrate.mjs):
//    the chain's turns × that time is the floor with no runtime at all (SDK, loopback HTTP and the
//    fake server's timer already cost something per call), so run wall ÷ floor is the runtime's share.
//    Section 1 prints the same bare call at zero latency beside the runtime's model call time.
//
// Prints figures only; nothing is asserted. Run after building:
//   npm run build && node bench/runtime-overhead.mjs [--runs 3] [--api anthropic|openai]
//     [--latency-ms 200] [--max-parallel 64,4] [--only zero|latency|none] [--profile DIR]
// 3. --profile DIR: one more zero-latency run under `node --cpu-prof` (profile kept in DIR), printing
//    where the CLI's time goes, start-up and run apart: by origin, and our functions by self and
//    inclusive time, mapped to the .ts sources (bench/fixtures/overhead-profile.mjs).

import { spawn } from 'node:child_process';
import diagnosticsChannel from 'node:diagnostics_channel';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { loadConfig } from '../dist/config/load.js';
import { startFakeModelServer } from '../dist/test/support/fakeModelServer.js';
import { bareCallTimes } from './fixtures/overhead-calibrate.mjs';
import { missionHcl, overheadScript, TURNS_PER_TASK } from './fixtures/overhead-mission.mjs';
import { summarizeProfile } from './fixtures/overhead-profile.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(repo, 'dist', 'cli', 'main.cjs');
const preload = pathToFileURL(join(repo, 'bench', 'fixtures', 'overhead-cpu-preload.mjs')).href;

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const RUNS = Number(option('--runs', '3'));
const API = option('--api', 'anthropic');
const LATENCY_MS = Number(option('--latency-ms', '200'));
const ONLY = option('--only', 'all');
const PROFILE_DIR = option('--profile', undefined);
const WIDE = 64; // wider than any level of the mission (10)
const WIDTHS = option('--max-parallel', `${WIDE},4`).split(',').map(Number);
/** Orchestration tools whose ledger span contains a whole agent session (model turns included). */
const NESTING_TOOLS = new Set(['call_agent', 'ask_agent']);

// ---- the fake server's own handling time, measured in this process -------------------------------
const serverTiming = { starts: new WeakMap(), totalMs: 0, count: 0 };
diagnosticsChannel.subscribe('http.server.request.start', ({ response }) => serverTiming.starts.set(response, performance.now()));
diagnosticsChannel.subscribe('http.server.response.finish', ({ response }) => {
  const start = serverTiming.starts.get(response);
  if (start === undefined) return;
  serverTiming.totalMs += performance.now() - start;
  serverTiming.count++;
});

const root = mkdtempSync(join(tmpdir(), 'squadron-overhead-'));
const epochNow = () => performance.timeOrigin + performance.now();

/** One `squadron run` of the bench mission; returns what the run's records and the server say. */
async function runOnce({ latencyMs, maxParallel, profileDir }) {
  const script = overheadScript({ delayMs: latencyMs });
  const server = await startFakeModelServer({ respond: script.respond });
  const dir = mkdtempSync(join(root, 'run-'));
  const baseUrl = API === 'anthropic' ? server.anthropicBaseURL : server.openaiBaseURL;
  writeFileSync(join(dir, 'mission.hcl'), missionHcl({ baseUrl, api: API, maxParallel }));
  const cpuFile = join(dir, 'cpu.json');
  const nodeArgs = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-interval', '200'] : [];
  const env = { ...process.env, NO_COLOR: '1', NODE_OPTIONS: `--import ${preload}`, SQUADRON_BENCH_CPU_FILE: cpuFile };

  serverTiming.totalMs = 0;
  serverTiming.count = 0;
  const benchCpuBefore = process.cpuUsage();
  const spawnedAt = epochNow();
  const child = spawn(process.execPath, [...nodeArgs, cli, 'run', dir, '--json'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  const exitedAt = await new Promise((resolveExit, reject) => {
    child.on('error', reject);
    child.on('exit', () => resolveExit(epochNow()));
  });
  await new Promise((r) => (child.stdout.readableEnded ? r() : child.stdout.on('end', r)));
  const benchCpu = process.cpuUsage(benchCpuBefore);
  const serverMs = serverTiming.totalMs;
  const serverCount = serverTiming.count;
  const maxInFlight = server.maxInFlight;
  await server.close();

  let doc;
  try {
    doc = JSON.parse(stdout);
  } catch {
    throw new Error(`squadron run printed no JSON (exit ${child.exitCode})\n${stderr.slice(-3000)}`);
  }
  if (doc.status !== 'completed' || script.problems.length > 0) {
    throw new Error(`run ${doc.run_id} ended ${doc.status}; script problems: ${script.problems.slice(0, 3).join('; ')}\n${stderr.slice(-3000)}`);
  }

  const db = new Database(join(dir, '.squadron', 'squadron.db'), { readonly: true });
  const run = db.prepare('SELECT started_at, finished_at FROM runs WHERE id = ?').get(doc.run_id);
  const turns = db.prepare('SELECT task_name, duration_ms FROM model_turns WHERE run_id = ? ORDER BY id').all(doc.run_id);
  const taskRows = db.prepare('SELECT name, started_at, finished_at FROM tasks WHERE run_id = ?').all(doc.run_id);
  const calls = db
    .prepare('SELECT c.tool_ref, c.started_at, c.finished_at FROM tool_calls c JOIN sessions s ON s.id = c.session_id WHERE s.run_id = ?')
    .all(doc.run_id);
  const finishedEvents = db
    .prepare("SELECT data_json FROM events WHERE run_id = ? AND type = 'tool.finished'")
    .all(doc.run_id)
    .map((r) => JSON.parse(r.data_json));
  db.close();
  const cpu = JSON.parse(readFileSync(cpuFile, 'utf8'));

  const runStart = Date.parse(run.started_at);
  const runEnd = Date.parse(run.finished_at);
  const turnsByTask = new Map();
  const modelMsByTask = new Map();
  for (const t of turns) {
    turnsByTask.set(t.task_name, (turnsByTask.get(t.task_name) ?? 0) + 1);
    modelMsByTask.set(t.task_name, (modelMsByTask.get(t.task_name) ?? 0) + t.duration_ms);
  }
  const taskTimes = new Map(taskRows.map((t) => [t.name, { start: Date.parse(t.started_at), end: Date.parse(t.finished_at) }]));
  const tools = new Map();
  for (const c of calls) {
    const entry = tools.get(c.tool_ref) ?? { count: 0, ledgerMs: 0, execMs: 0 };
    entry.count++;
    entry.ledgerMs += Date.parse(c.finished_at) - Date.parse(c.started_at);
    tools.set(c.tool_ref, entry);
  }
  for (const e of finishedEvents) {
    const entry = tools.get(e.tool);
    if (entry) entry.execMs += e.durationMs;
  }
  const toolMs = [...tools.entries()].filter(([ref]) => !NESTING_TOOLS.has(ref)).reduce((sum, [, t]) => sum + t.ledgerMs, 0);
  return {
    dir,
    runWallMs: runEnd - runStart,
    processWallMs: exitedAt - spawnedAt,
    startupMs: runStart - spawnedAt,
    shutdownMs: exitedAt - runEnd,
    turns: turns.length,
    modelMs: turns.reduce((sum, t) => sum + t.duration_ms, 0),
    firstTurnMs: turns[0]?.duration_ms ?? NaN,
    serverMs,
    serverCount,
    toolMs,
    tools,
    runStart,
    runEnd,
    turnsByTask,
    modelMsByTask,
    taskTimes,
    cliCpuMs: cpu.atExit.allMs,
    cliStartupCpuMs: cpu.atFirstRequest?.allMs ?? NaN,
    cliMainCpuMs: cpu.atExit.mainMs ?? NaN,
    cliMainStartupCpuMs: cpu.atFirstRequest?.mainMs ?? NaN,
    benchCpuMs: (benchCpu.user + benchCpu.system) / 1000,
    maxInFlight,
  };
}

/** The loaded mission's tasks with their edges (depends_on, and send_to / router targets). */
function missionShape(dir) {
  const { graph, diagnostics } = loadConfig(join(dir, 'mission.hcl'), { env: {} });
  if (!graph) throw new Error(`bench mission does not load: ${diagnostics.map((d) => d.message).join('; ')}`);
  const mission = graph.missions[0];
  const successors = new Map(mission.tasks.map((t) => [t.name, []]));
  const predecessors = new Map(mission.tasks.map((t) => [t.name, []]));
  const edge = (from, to) => {
    successors.get(from).push(to);
    predecessors.get(to).push(from);
  };
  for (const task of mission.tasks) {
    for (const dep of task.dependsOn) edge(dep, task.name);
    for (const target of [...task.sendTo, ...task.router.map((r) => r.target)]) edge(task.name, target);
  }
  return { names: mission.tasks.map((t) => t.name), successors, predecessors };
}

/** The heaviest dependency chain of the mission: Σ turns(task) × latency along it. */
function criticalPath(shape, turnsByTask, latencyMs) {
  const best = new Map(); // task → { weight, path } of the heaviest chain starting there
  const visit = (name) => {
    if (best.has(name)) return best.get(name);
    const own = turnsByTask.get(name) ?? TURNS_PER_TASK;
    let tail = { weight: 0, path: [] };
    for (const next of shape.successors.get(name)) {
      const candidate = visit(next);
      if (candidate.weight > tail.weight) tail = candidate;
    }
    const result = { weight: own + tail.weight, path: [name, ...tail.path] };
    best.set(name, result);
    return result;
  };
  let top = { weight: 0, path: [] };
  for (const name of shape.names) {
    const candidate = visit(name);
    if (candidate.weight > top.weight) top = candidate;
  }
  return { tasks: shape.names.length, chain: top.path, turns: top.weight, ms: top.weight * latencyMs };
}

/**
 * Where the run wall went along the chain that actually decided it (from the last task to finish,
 * back through the dependency that finished last): ideal model time (turns × latency), model calls'
 * excess over the latency (client side, and replies waiting for a busy event loop), in-task
 * non-model time, gaps between a dependency finishing and its dependent starting, and the run's
 * start and finish outside any task. The parts add up to the run wall.
 */
function explainRunWall(shape, r, latencyMs) {
  let current = [...r.taskTimes.entries()].sort((a, b) => b[1].end - a[1].end)[0][0];
  const path = [];
  while (current !== undefined) {
    path.unshift(current);
    const deps = shape.predecessors.get(current).filter((d) => r.taskTimes.has(d));
    current = deps.sort((a, b) => r.taskTimes.get(b).end - r.taskTimes.get(a).end)[0];
  }
  const parts = { ideal: 0, modelExcess: 0, inTask: 0, gaps: 0, edges: 0 };
  let previousEnd = r.runStart;
  for (const [i, name] of path.entries()) {
    const t = r.taskTimes.get(name);
    const model = r.modelMsByTask.get(name) ?? 0;
    const ideal = (r.turnsByTask.get(name) ?? 0) * latencyMs;
    parts.ideal += ideal;
    parts.modelExcess += model - ideal;
    parts.inTask += t.end - t.start - model;
    if (i === 0) parts.edges += t.start - previousEnd;
    else parts.gaps += t.start - previousEnd;
    previousEnd = t.end;
  }
  parts.edges += r.runEnd - previousEnd;
  return { path, parts };
}

// ---- formatting ---------------------------------------------------------------------------------
const f1 = (x) => x.toFixed(1);
const f2 = (x) => x.toFixed(2);
const f3 = (x) => x.toFixed(3);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const pad = (s, n) => String(s).padStart(n);

function zeroLatencyFigures(r) {
  const perTurn = (ms) => ms / r.turns;
  return {
    nonModel: perTurn(r.runWallMs - r.modelMs),
    tools: perTurn(r.toolMs),
    rest: perTurn(r.runWallMs - r.modelMs - r.toolMs),
    model: perTurn(r.modelMs),
    server: r.serverCount ? r.serverMs / r.serverCount : 0,
    client: perTurn(r.modelMs - r.serverMs),
    cpu: perTurn(r.cliCpuMs - r.cliStartupCpuMs),
    mainCpu: perTurn(r.cliMainCpuMs - r.cliMainStartupCpuMs),
  };
}

async function zeroLatency() {
  console.log(`\n1. Zero model latency, max_parallel 1 (${API} wire format, ${RUNS} runs)\n`);
  console.log(
    '   run  turns  run wall  process  start-up  non-model/turn = tools + rest   model call/turn = server + client   CLI CPU/turn after start-up: all threads, main',
  );
  const rows = [];
  const toolTotals = new Map();
  for (let i = 1; i <= RUNS; i++) {
    const r = await runOnce({ latencyMs: 0, maxParallel: 1 });
    const z = zeroLatencyFigures(r);
    rows.push({ r, z });
    for (const [ref, t] of r.tools) {
      const agg = toolTotals.get(ref) ?? { count: 0, ledgerMs: 0, execMs: 0 };
      agg.count += t.count;
      agg.ledgerMs += t.ledgerMs;
      agg.execMs += t.execMs;
      toolTotals.set(ref, agg);
    }
    console.log(
      `   ${pad(i, 3)}  ${pad(r.turns, 5)}  ${pad(f1(r.runWallMs), 6)} ms  ${pad(f1(r.processWallMs), 5)} ms  ${pad(f1(r.startupMs), 5)} ms` +
        `  ${pad(f2(z.nonModel), 8)} ms = ${f2(z.tools)} + ${f2(z.rest)}` +
        `        ${pad(f2(z.model), 6)} ms = ${f2(z.server)} + ${f2(z.client)}        ${pad(f2(z.cpu), 6)} ms, ${f2(z.mainCpu)} ms`,
    );
  }
  const med = (pick) => median(rows.map(pick));
  console.log(`\n   median non-model time per model turn: ${f2(med((x) => x.z.nonModel))} ms` +
    ` (tool calls ${f2(med((x) => x.z.tools))} ms, runtime bookkeeping ${f2(med((x) => x.z.rest))} ms)`);
  console.log(`   median model call as the runtime sees it: ${f2(med((x) => x.z.model))} ms per turn` +
    ` (fake server handling ${f2(med((x) => x.z.server))} ms, client side: SDK + adapter + loopback ${f2(med((x) => x.z.client))} ms)`);
  const bare = await bareCallTimes({ api: API, latencyMs: 0, calls: 60, warmup: 20 });
  console.log(`   for comparison, a bare streamed SDK call to the fake server (no runtime): median ${f2(bare.median)} ms (p25 ${f2(bare.p25)}, p75 ${f2(bare.p75)})`);
  console.log(`   median process start-up before the run: ${f1(med((x) => x.r.startupMs))} ms; after the run to exit: ${f1(med((x) => x.r.shutdownMs))} ms`);
  console.log(`   median CLI CPU: ${f1(med((x) => x.r.cliCpuMs))} ms in all, ${f1(med((x) => x.r.cliStartupCpuMs))} ms before the first model request,` +
    ` ${f2(med((x) => x.z.cpu))} ms per turn after it (every thread: main, GC, libuv), of which the main thread ${f2(med((x) => x.z.mainCpu))} ms;` +
    ` bench + fake server CPU: ${f1(med((x) => x.r.benchCpuMs))} ms`);
  console.log('\n   per tool call (all runs)          calls  ledger span (ms)  execution (ms, tool.finished)');
  for (const [ref, t] of [...toolTotals.entries()].sort()) {
    const note = NESTING_TOOLS.has(ref) ? '  (contains the worker session)' : '';
    console.log(`   ${ref.padEnd(32)} ${pad(t.count, 5)}  ${pad(f3(t.ledgerMs / t.count), 16)}  ${pad(f3(t.execMs / t.count), 12)}${note}`);
  }
}

async function withLatency() {
  console.log(`\n2. ${LATENCY_MS} ms model latency on every reply (${API} wire format, ${RUNS} runs each)\n`);
  const bare = await bareCallTimes({ api: API, latencyMs: LATENCY_MS });
  let floorMs;
  for (const [index, maxParallel] of WIDTHS.entries()) {
    const ratios = [];
    for (let i = 1; i <= RUNS; i++) {
      const r = await runOnce({ latencyMs: LATENCY_MS, maxParallel });
      const shape = missionShape(r.dir);
      const cp = criticalPath(shape, r.turnsByTask, LATENCY_MS);
      const why = explainRunWall(shape, r, LATENCY_MS);
      if (i === 1 && index === 0) {
        console.log(`   mission: ${cp.tasks} tasks; heaviest chain ${cp.chain.length} tasks (${cp.chain.join(' → ')})`);
        console.log(`   critical path = ${cp.turns} model turns × ${LATENCY_MS} ms = ${cp.ms} ms`);
        floorMs = cp.turns * bare.median;
        console.log(
          `   a bare streamed SDK call at ${LATENCY_MS} ms latency takes ${f1(bare.median)} ms (median; p25 ${f1(bare.p25)}, p75 ${f1(bare.p75)}),` +
            ` so with no runtime at all the chain would take ${cp.turns} × ${f1(bare.median)} = ${f1(floorMs)} ms (${f3(floorMs / cp.ms)} × critical path)\n`,
        );
      }
      const runRatio = r.runWallMs / cp.ms;
      const procRatio = r.processWallMs / cp.ms;
      ratios.push({ runRatio, procRatio, floorRatio: r.runWallMs / floorMs });
      console.log(
        `   max_parallel ${pad(maxParallel, 2)} run ${i}: run wall ${pad(f1(r.runWallMs), 7)} ms → ${f3(runRatio)} × critical path;` +
          ` process ${pad(f1(r.processWallMs), 7)} ms → ${f3(procRatio)}; max in flight ${r.maxInFlight};` +
          ` CLI CPU/turn ${f2((r.cliCpuMs - r.cliStartupCpuMs) / r.turns)} ms, main thread ${f2((r.cliMainCpuMs - r.cliMainStartupCpuMs) / r.turns)} ms`,
      );
      const p = why.parts;
      console.log(
        `        deciding chain ${why.path.length} tasks: ideal ${p.ideal} + model-call excess ${p.modelExcess} + in-task non-model ${p.inTask}` +
          ` + dependency gaps ${p.gaps} + run start/finish ${p.edges} = ${p.ideal + p.modelExcess + p.inTask + p.gaps + p.edges} ms`,
      );
      console.log(
        `        every turn: model call ${f1(r.modelMs / r.turns)} ms as the runtime measures it, of which the fake server ${f1(r.serverMs / r.serverCount)} ms` +
          ` (request headers in → last byte out); the run's first model call ${r.firstTurnMs} ms`,
      );
    }
    const runMed = median(ratios.map((x) => x.runRatio));
    const target = maxParallel >= 10 ? (runMed <= 1.15 ? '  (target ≤ 1.15: met)' : '  (target ≤ 1.15: NOT met)') : '';
    console.log(`   max_parallel ${pad(maxParallel, 2)} median: run wall / critical path ${f3(runMed)}, process / critical path ${f3(median(ratios.map((x) => x.procRatio)))}${target}`);
    console.log(`   max_parallel ${pad(maxParallel, 2)} median: run wall / bare-SDK floor ${f3(median(ratios.map((x) => x.floorRatio)))}\n`);
  }
}

async function profileRun(dir) {
  mkdirSync(dir, { recursive: true });
  const before = new Set(readdirSync(dir));
  const r = await runOnce({ latencyMs: 0, maxParallel: 1, profileDir: resolve(dir) });
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile') && !before.has(f));
  if (!file) throw new Error(`no .cpuprofile appeared in ${dir}`);
  const s = summarizeProfile(join(dir, file), repo);
  const perTurn = (ms) => `${f2(ms / r.turns)} ms/turn`;
  console.log(`\n3. CPU profile of one zero-latency run (max_parallel 1): ${join(dir, file)}`);
  console.log(`   process wall ${f1(r.processWallMs)} ms (spawn → run start ${f1(r.startupMs)} ms, run ${f1(r.runWallMs)} ms), ${r.turns} turns`);
  console.log(`\n   start-up (until the scheduler first runs): ${f1(s.startup.totalMs)} ms sampled, self time by origin`);
  for (const o of s.startup.origins.slice(0, 8)) console.log(`   ${pad(f1(o.ms), 8)} ms  ${o.name}`);
  console.log(`\n   the run: ${f1(s.run.totalMs)} ms sampled, self time by origin`);
  for (const o of s.run.origins.slice(0, 16)) console.log(`   ${pad(f1(o.ms), 8)} ms  ${pad(perTurn(o.ms), 15)}  ${o.name}`);
  console.log('\n   the run, our code by self time');
  for (const o of s.run.selfTop.slice(0, 20)) console.log(`   ${pad(f1(o.ms), 8)} ms  ${o.name}`);
  console.log('\n   the run, our code by inclusive time (callees included, SDK and SQLite too)');
  for (const o of s.run.totalTop.slice(0, 30)) console.log(`   ${pad(f1(o.ms), 8)} ms  ${o.name}`);
}

console.log(`runtime overhead bench — node ${process.version}, ${cpus().length} CPUs, load average ${loadavg().map(f2).join(' ')}`);
try {
  if (ONLY === 'all' || ONLY === 'zero') await zeroLatency();
  if (ONLY === 'all' || ONLY === 'latency') await withLatency();
  if (PROFILE_DIR) await profileRun(PROFILE_DIR);
} finally {
  rmSync(root, { recursive: true, force: true });
}
