// Budgets: what a dollar cap lets through when 20 tasks run in parallel, and what a reservation costs.
//
// 1. 20 parallel tasks (max_parallel = 20; each task = commander call_agent → worker answer →
//    commander task_complete, 3 model turns) under a mission budget of `dollars = CAP`, through the
//    real CLI against the fake model server. Priced like the end-to-end test: $1,000 per million
//    output tokens, input almost free, max_output_tokens = 1000, so each call reserves a little over
//    $1.00; each reply reports a random usage (seeded: 0–1000 output tokens, 0–2000 input) and a
//    random 0–40 ms latency, so the tasks interleave differently per seed. Per seed: what was spent
//    (from model_turns), spent ÷ cap (must never pass 1.0: the property), the run's status, the calls
//    sent. "Usable fraction" is spent ÷ cap: how close to the cap a run gets before the next call's
//    upper bound no longer fits.
// 2. Reservation overhead per model call, in process: the upper-bound estimate (request bytes) plus
//    reserve and settle on the ledger, for a request of ~4 kB and one of ~28 kB (a long conversation);
//    each message's size is measured once, so the usual call pays only for its new messages.
//
// Prints figures only. Run after building:
//   npm run build --silent && node bench/budget.mjs [--seeds 8] [--caps 5,20] [--tasks 20]

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { startFakeModelServer } from '../dist/test/support/fakeModelServer.js';
import { turnScript, callAgent, taskComplete, lastToolResult } from '../dist/test/support/turnScript.js';
import { BudgetLedger } from '../dist/runtime/budget/ledger.js';
import { reserveCall } from '../dist/runtime/budget/gate.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.cjs');

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}
const SEEDS = Number(arg('seeds', '8'));
const CAPS = arg('caps', '5,20').split(',').map(Number);
const TASKS = Number(arg('tasks', '20'));

function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function runCli(args, cwd) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.on('close', (code) => done(code));
  });
}

async function oneRun(cap, seed) {
  const next = random(seed);
  const rules = {};
  for (let i = 0; i < TASKS; i++) {
    rules[`commander of task "t${i}"`] = [() => callAgent('worker', 'Answer'), (req) => taskComplete(lastToolResult(req))];
    rules[`worker agent of task "t${i}"`] = [() => ({ text: `answer ${i}` })];
  }
  const script = turnScript(rules);
  const server = await startFakeModelServer({
    respond: (req) => ({ ...script.respond(req), usage: { inputTokens: Math.floor(next() * 2000), outputTokens: Math.floor(next() * 1001) }, delayMs: Math.floor(next() * 40) }),
  });
  const dir = mkdtempSync(join(tmpdir(), 'squadron-bench-budget-'));
  try {
    const tasks = Array.from({ length: TASKS }, (_, i) => `  task "t${i}" {\n    objective = "Answer ${i}."\n    tools     = [builtins.utils.current_time]\n  }`).join('\n');
    writeFileSync(
      join(dir, 'main.hcl'),
      `model "fake" {
  provider          = "anthropic"
  base_url          = "${server.anthropicBaseURL}"
  api_key           = "bench-key-123"
  max_output_tokens = 1000
  pricing "claude_sonnet_4_6" {
    input       = 0.001
    output      = 1000
    cache_read  = 0.001
    cache_write = 0.001
  }
}
mission "m" {
  max_parallel = ${TASKS}
  budget {
    dollars = ${cap}
  }
  commander { model = models.fake.claude_sonnet_4_6 }
${tasks}
}
`,
    );
    const code = await runCli(['run', dir], dir);
    const db = new Database(join(dir, '.squadron', 'squadron.db'), { readonly: true });
    const spent = db.prepare('SELECT COALESCE(SUM(cost_usd), 0) FROM model_turns').pluck().get();
    const turns = db.prepare('SELECT COUNT(*) FROM model_turns').pluck().get();
    const status = db.prepare('SELECT status FROM runs').pluck().get();
    const completed = db.prepare("SELECT COUNT(*) FROM tasks WHERE status = 'completed'").pluck().get();
    db.close();
    return { code, spent, turns, status, completed, sent: server.requests.length };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`1. ${TASKS} parallel tasks under a dollar cap (each call reserves ≈ $1.00, settles at $0–1.00), ${SEEDS} seeds per cap`);
for (const cap of CAPS) {
  const fractions = [];
  for (let seed = 1; seed <= SEEDS; seed++) {
    const r = await oneRun(cap, seed);
    fractions.push(r.spent / cap);
    console.log(
      `   cap $${cap} seed ${seed}: spent $${r.spent.toFixed(4)} = ${(r.spent / cap).toFixed(3)} of the cap · ${r.status} (exit ${r.code}) · ${r.sent} calls sent, ${r.turns} stored · ${r.completed}/${TASKS} tasks completed`,
    );
  }
  const max = Math.max(...fractions);
  const mean = fractions.reduce((a, b) => a + b, 0) / fractions.length;
  console.log(`   cap $${cap}: max spent/cap ${max.toFixed(4)} (${max <= 1 + 1e-9 ? 'never over the cap' : 'OVER THE CAP'}) · usable fraction mean ${mean.toFixed(3)}, min ${Math.min(...fractions).toFixed(3)}`);
}

console.log('\n2. Reservation overhead per model call (estimate from the request bytes + reserve + settle), in process');
for (const [label, turns] of [['~4 kB request (3 messages)', 1], ['~28 kB request (41 messages)', 20]]) {
  const messages = [];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: 'user', parts: [{ type: 'text', text: 'Fetch the page and summarise what it says about owls. '.repeat(20) }] });
    messages.push({ role: 'assistant', parts: [{ type: 'tool_use', id: `toolu_${i}`, name: 'builtins_http_get', input: { url: `https://example.com/owls/${i}` } }] });
  }
  messages.push({ role: 'user', parts: [{ type: 'tool_result', toolUseId: 'toolu_x', isError: false, content: [{ type: 'text', text: 'Owls are birds. '.repeat(80) }] }] });
  const request = {
    model: 'claude-sonnet-4-6',
    system: 'You are the worker agent of task "t". '.repeat(40),
    messages,
    tools: [{ name: 'builtins_http_get', description: 'GET a URL', inputSchema: { type: 'object', properties: { url: { type: 'string' } } } }],
    maxOutputTokens: 1000,
    trace: { task: 't', agent: 'worker', turn: 1 },
  };
  const bytes = Buffer.byteLength(JSON.stringify(request));
  const ledger = new BudgetLedger({ limits: new Map([['mission', { dollars: 1e12 }], ['t', { tokens: 1e15 }]]), settled: new Map(), elapsedBefore: new Map(), warned: new Set() }, () => {});
  const model = { pricing: { input: 3, output: 15 } };
  const N = 20_000;
  for (let i = 0; i < 2000; i++) (await reserveCall(ledger, 't', 'worker', request, model)).settle({ tokens: 100, dollars: 0.001 });
  const t0 = performance.now();
  for (let i = 0; i < N; i++) (await reserveCall(ledger, 't', 'worker', request, model)).settle({ tokens: 100, dollars: 0.001 });
  const us = ((performance.now() - t0) * 1000) / N;
  // A new conversation each call: nothing measured before (the first call of a session, or a resume).
  const fresh = () => ({ ...request, messages: request.messages.map((m) => ({ role: m.role, parts: structuredClone(m.parts) })) });
  const copies = Array.from({ length: 2000 }, fresh);
  const t1 = performance.now();
  for (const r of copies) (await reserveCall(ledger, 't', 'worker', r, model)).settle({ tokens: 100, dollars: 0.001 });
  const coldUs = ((performance.now() - t1) * 1000) / copies.length;
  console.log(`   ${label}, ${(bytes / 1024).toFixed(1)} KiB as JSON: ${us.toFixed(1)} µs per call (two budgets; messages measured before), ${coldUs.toFixed(1)} µs when every message is new`);
}
