// Iterated tasks at scale, through the real CLI against the fake model server (real Anthropic wire
// format over 127.0.0.1). Each item's commander takes one model turn (submit_output + task_complete).
//
// 1. Fan-out: N items (default 1,000), concurrency_limit = max_parallel = 50, fixed model latency
//    (default 100 ms). Ideal wall = ceil(N / 50) × latency (each item's critical path is one turn);
//    prints the run wall (runs.started_at → finished_at), its ratio to the ideal, and the scheduler +
//    store overhead per item: (wall − ideal) × 50 / N, the slot time each item costs beyond its turn.
// 2. Downstream digest: a report task after the iterated one; the bytes of its commander's first
//    request (the JSON body sent) at 10 / 100 / 1,000 items, zero latency. It should stay flat.
// 3. Resume: kill -9 once half the items have been asked for, then `squadron resume`: how many items
//    that had completed before the kill were asked again (must be 0), and the resume's wall time.
// 4. Tool work (--only work): the fan-out of 1., but each item needs one tool call and an answer, with
//    a realistic objective (a ticket of ~90 words): with a commander, it delegates to the worker
//    (call_agent), the worker calls the tool and answers, the commander submits the output and
//    completes (4 model requests an item); with --direct (`direct = true` on the task) the worker
//    calls the tool, then submits the output and completes (2). Prints requests, CPU, wall ÷ ideal
//    (ideal = ceil(N / 50) × requests on an item's path × latency), tokens per item (as the fake server
//    counts them: request bytes ÷ 4), and the bytes of the first requests an item sends.
//
// Prints figures only; nothing is asserted. Run after building:
//   npm run build && node bench/iteration.mjs [--items 1000] [--latency-ms 100] [--only fanout|digest|resume|work] [--direct] [--cpu-prof DIR]

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startFakeModelServer } from '../dist/test/support/fakeModelServer.js';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../dist/cli/main.cjs', import.meta.url));

/** The CLI as a child process: its exit code and output; `onSpawn` gets the child (to kill it). */
function runCli(args, { cwd, onSpawn } = {}) {
  return new Promise((resolve) => {
    const profile = CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROF] : [];
    const child = spawn(process.execPath, [...profile, CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    onSpawn?.(child);
    // The child's CPU time (user + system), sampled from /proc while it runs (Linux only; the last
    // sample is at most 50 ms before its exit).
    let cpuMs;
    const sample = setInterval(() => {
      try {
        const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
        cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
      } catch {}
    }, 50);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code, signal) => {
      clearInterval(sample);
      resolve({ code, signal, stdout, stderr, cpuMs });
    });
  });
}

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
};
const ITEMS = Number(arg('items', '1000'));
const LATENCY = Number(arg('latency-ms', '100'));
const ONLY = arg('only', '');
const CONCURRENCY = 50;
// --cpu-prof DIR: each CLI process writes a V8 CPU profile there (open it in Chrome's DevTools).
const CPU_PROF = arg('cpu-prof', '');
const CLOCK_TICKS = 100;
// --direct: the tool-work section's task runs its worker alone (direct = true).
const DIRECT = process.argv.includes('--direct');

function missionHcl(server, { report = false } = {}) {
  return `model "fake" {
  provider = "anthropic"
  base_url = "${server.anthropicBaseURL}"
  api_key  = "bench-key-not-secret"
}
mission "bench" {
  max_parallel = ${CONCURRENCY}
  commander { model = models.fake.claude_haiku_4_5 }
  input "tickets" {
    type = "list"
  }
  dataset "tickets" {
    bind_to = inputs.tickets
    schema = {
      id      = integer("id", true)
      subject = string("subject", true)
    }
  }
  task "triage" {
    objective = "Triage ticket \${item.id}: \${item.subject}"
    tools     = [builtins.files.read]
    output = {
      priority = string("high, normal or low", true)
      team     = string("owning team", true)
    }
    iterator {
      dataset           = datasets.tickets
      parallel          = true
      concurrency_limit = ${CONCURRENCY}
    }
  }
${report ? `  task "report" {
    depends_on = [tasks.triage]
    objective  = "How many tickets are high priority?"
    tools      = [builtins.files.read]
  }
` : ''}}
`;
}

const itemReply = (latency) => (req) => {
  const text = req.canonical.messages[0]?.parts.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? '';
  const id = Number(/ticket (\d+)/.exec(text)?.[1] ?? 0);
  return {
    delayMs: latency,
    toolCalls: [
      { name: 'submit_output', input: { output: { priority: id % 3 === 0 ? 'high' : 'normal', team: ['billing', 'accounts', 'platform'][id % 3] } } },
      { name: 'task_complete', input: { summary: `ticket ${id} triaged` } },
    ],
  };
};
const reportReply = (req) =>
  req.canonical.messages.length === 1
    ? { toolCalls: [{ name: 'query_task_output', input: { task: 'triage', count: true, where: [{ field: 'priority', value: 'high' }] } }] }
    : { toolCalls: [{ name: 'task_complete', input: { summary: 'counted' } }] };

function project(server, n, opts) {
  const dir = mkdtempSync(join(tmpdir(), 'squadron-bench-iter-'));
  writeFileSync(join(dir, 'main.hcl'), missionHcl(server, opts));
  writeFileSync(join(dir, 'tickets.json'), JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: i, subject: `Ticket number ${i} about something` }))));
  return dir;
}

/** Items by status, and the first errors of those that failed. */
function itemStates(dir) {
  const db = new Database(join(dir, '.squadron', 'squadron.db'), { readonly: true });
  try {
    const counts = db.prepare("SELECT status, count(*) AS n FROM task_items WHERE task = 'triage' GROUP BY status").all().map((r) => `${r.status} ${r.n}`).join(', ');
    const errors = db.prepare("SELECT idx, error FROM task_items WHERE status = 'failed' LIMIT 3").all().map((r) => `[${r.idx}] ${r.error}`);
    return `${counts}${errors.length > 0 ? ` · ${errors.join(' · ')}` : ''}`;
  } finally {
    db.close();
  }
}

function runWall(dir) {
  const db = new Database(join(dir, '.squadron', 'squadron.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT started_at, finished_at FROM runs').get();
    return Date.parse(row.finished_at) - Date.parse(row.started_at);
  } finally {
    db.close();
  }
}

const isItem = (req) => req.canonical.system.includes('commander of task "triage[');
const itemOf = (req) => Number(/commander of task "triage\[(\d+)\]"/.exec(req.canonical.system)?.[1] ?? -1);

async function fanout() {
  const server = await startFakeModelServer({ respond: itemReply(LATENCY) });
  try {
    const dir = project(server, ITEMS);
    const serverCpu = process.cpuUsage();
    const r = await runCli(['run', dir, '-i', 'tickets=@tickets.json'], { cwd: dir, timeoutMs: 3_600_000 });
    if (r.code !== 0) throw new Error(`run failed: ${r.stderr}`);
    const { user, system } = process.cpuUsage(serverCpu);
    const wall = runWall(dir);
    const ideal = Math.ceil(ITEMS / CONCURRENCY) * LATENCY;
    console.log(`fan-out: ${ITEMS} items, concurrency ${CONCURRENCY}, ${LATENCY} ms latency`);
    console.log(`  run wall ${wall} ms · ideal ${ideal} ms · ratio ${(wall / ideal).toFixed(2)} · overhead per item ${(((wall - ideal) * CONCURRENCY) / ITEMS).toFixed(1)} ms · ${server.requests.length} model requests`);
    const perItem = (ms) => (ms === undefined ? '?' : (ms / ITEMS).toFixed(2));
    console.log(`  CPU per item: run process ${perItem(r.cpuMs)} ms (incl. start-up) · fake model server ${perItem((user + system) / 1000)} ms`);
    console.log(`  items: ${itemStates(dir)} · load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores`);
    rmSync(dir, { recursive: true, force: true });
  } finally {
    await server.close();
  }
}

async function digest() {
  console.log('downstream first request (bytes of the JSON body):');
  for (const n of [10, 100, 1000]) {
    const server = await startFakeModelServer({ respond: (req) => (isItem(req) ? itemReply(0)(req) : reportReply(req)) });
    try {
      const dir = project(server, n, { report: true });
      const r = await runCli(['run', dir, '-i', 'tickets=@tickets.json'], { cwd: dir, timeoutMs: 3_600_000 });
      if (r.code !== 0) throw new Error(`run failed: ${r.stderr}`);
      const first = server.requests.find((q) => q.canonical.system.includes('commander of task "report"'));
      const bytes = Buffer.byteLength(JSON.stringify(first.body));
      const system = Buffer.byteLength(first.canonical.system);
      console.log(`  ${String(n).padStart(5)} items: ${bytes} bytes (system prompt ${system})`);
      rmSync(dir, { recursive: true, force: true });
    } finally {
      await server.close();
    }
  }
}

async function resume() {
  let child;
  let asked = 0;
  let killed = false;
  let completedAtKill = new Set();
  let dir = '';
  const afterKill = [];
  const server = await startFakeModelServer({
    respond: (req) => {
      if (!isItem(req)) return { status: 400 };
      if (killed) afterKill.push(itemOf(req));
      else if (++asked >= ITEMS / 2) {
        killed = true;
        const db = new Database(join(dir, '.squadron', 'squadron.db'), { readonly: true });
        completedAtKill = new Set(db.prepare("SELECT idx FROM task_items WHERE status = 'completed'").pluck().all());
        db.close();
        child.kill('SIGKILL');
        return { text: 'never read', delayMs: 10_000 };
      }
      return itemReply(0)(req);
    },
  });
  try {
    dir = project(server, ITEMS);
    await runCli(['run', dir, '-i', 'tickets=@tickets.json'], { cwd: dir, timeoutMs: 3_600_000, onSpawn: (c) => (child = c) });
    const db = new Database(join(dir, '.squadron', 'squadron.db'), { readonly: true });
    const runId = db.prepare('SELECT id FROM runs').pluck().get();
    db.close();
    const started = performance.now();
    const r = await runCli(['resume', runId, '--db', dir], { cwd: dir, timeoutMs: 3_600_000 });
    const took = performance.now() - started;
    const rerun = afterKill.filter((i) => completedAtKill.has(i)).length;
    console.log(`resume after kill -9 at ${ITEMS / 2} of ${ITEMS} items asked: ${completedAtKill.size} completed at the kill`);
    console.log(`  exit ${r.code} · completed items asked again: ${rerun} · items asked on resume: ${afterKill.length} · resume wall ${took.toFixed(0)} ms (process, incl. start-up)`);
    rmSync(dir, { recursive: true, force: true });
  } finally {
    await server.close();
  }
}

// A ticket as a support desk writes it: the objective of each item (~90 words).
const TICKET_BODY =
  'The customer reports that since the last invoice run their monthly statement shows two charges for the same ' +
  'subscription period, one on the first and one on the third of the month. They attached a screenshot of the ' +
  'billing page and say the second charge also appears on their card. They ask for a refund of the duplicate ' +
  'amount and want to know whether the next invoice will be correct. The account is on the annual plan, paid ' +
  'monthly, and was migrated from the legacy billing system in the spring.';

function workHcl(server) {
  return `model "fake" {
  provider = "anthropic"
  base_url = "${server.anthropicBaseURL}"
  api_key  = "bench-key-not-secret"
}
mission "bench" {
  description  = "Triage the support desk's open tickets: set a priority and the owning team for each."
  max_parallel = ${CONCURRENCY}
  commander { model = models.fake.claude_haiku_4_5 }
  input "tickets" {
    type = "list"
  }
  dataset "tickets" {
    bind_to = inputs.tickets
    schema = {
      id      = integer("id", true)
      subject = string("subject", true)
      body    = string("the customer's message", true)
    }
  }
  task "triage" {${DIRECT ? '\n    direct    = true' : ''}
    objective = <<-EOT
      Triage support ticket \${item.id}. Read the current time first (the desk's SLA clock), then decide
      the priority (high, normal or low) and the team that owns it (billing, accounts or platform).
      Subject: \${item.subject}
      Message: \${item.body}
    EOT
    tools     = [builtins.utils.current_time]
    output = {
      priority = string("high, normal or low", true)
      team     = string("owning team", true)
    }
    iterator {
      dataset           = datasets.tickets
      parallel          = true
      concurrency_limit = ${CONCURRENCY}
    }
  }
}
`;
}

const lastText = (req) => {
  const last = req.canonical.messages.at(-1);
  return last?.parts.map((p) => (p.type === 'text' ? p.text : p.type === 'tool_result' ? JSON.stringify(p.content) : '')).join('') ?? '';
};
const ticketOf = (req) => Number(/ticket (\d+)/.exec(req.canonical.messages[0]?.parts.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? '')?.[1] ?? 0);
const finish = (id) => [
  { name: 'submit_output', input: { output: { priority: id % 3 === 0 ? 'high' : 'normal', team: ['billing', 'accounts', 'platform'][id % 3] } } },
  { name: 'task_complete', input: { summary: `ticket ${id} triaged` } },
];

/** One tool call and an answer per item: relayed by a commander (4 requests) or direct (2). */
const workReply = (latency) => (req) => {
  const system = req.canonical.system;
  const turn = req.canonical.messages.filter((m) => m.role === 'assistant').length;
  if (system.includes('commander of task "triage[')) {
    const id = Number(/triage\[(\d+)\]/.exec(system)?.[1] ?? 0);
    if (turn === 0) return { delayMs: latency, toolCalls: [{ name: 'call_agent', input: { name: 'worker', task: `Triage ticket ${id} as the objective says: read the current time, then give the priority and the owning team.` } }] };
    return { delayMs: latency, toolCalls: finish(id) };
  }
  const id = Number(/triage\[(\d+)\]/.exec(system)?.[1] ?? 0);
  if (turn === 0) return { delayMs: latency, toolCalls: [{ name: 'builtins_utils_current_time', input: {} }] };
  if (DIRECT) return { delayMs: latency, toolCalls: finish(id) };
  return { delayMs: latency, text: `Ticket ${id}: priority ${id % 3 === 0 ? 'high' : 'normal'}, team ${['billing', 'accounts', 'platform'][id % 3]} (read at ${lastText(req).slice(0, 40)}).` };
};

function tokensPerItem(dir) {
  const db = new Database(join(dir, '.squadron', 'squadron.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT sum(input_tokens) AS i, sum(output_tokens) AS o FROM model_turns').get();
    return { input: row.i / ITEMS, output: row.o / ITEMS };
  } finally {
    db.close();
  }
}

async function work() {
  const server = await startFakeModelServer({ respond: workReply(LATENCY) });
  try {
    const dir = mkdtempSync(join(tmpdir(), 'squadron-bench-work-'));
    writeFileSync(join(dir, 'main.hcl'), workHcl(server));
    writeFileSync(join(dir, 'tickets.json'), JSON.stringify(Array.from({ length: ITEMS }, (_, i) => ({ id: i, subject: `Charged twice for the same period (account ${1000 + i})`, body: TICKET_BODY }))));
    const serverCpu = process.cpuUsage();
    const r = await runCli(['run', dir, '-i', 'tickets=@tickets.json'], { cwd: dir, timeoutMs: 3_600_000 });
    if (r.code !== 0) throw new Error(`run failed: ${r.stderr}`);
    const { user, system } = process.cpuUsage(serverCpu);
    const wall = runWall(dir);
    const path = DIRECT ? 2 : 4;
    const ideal = Math.ceil(ITEMS / CONCURRENCY) * path * LATENCY;
    const tokens = tokensPerItem(dir);
    console.log(`tool work (${DIRECT ? 'direct = true' : 'with a commander'}): ${ITEMS} items, concurrency ${CONCURRENCY}, ${LATENCY} ms latency`);
    console.log(`  ${server.requests.length} model requests (${(server.requests.length / ITEMS).toFixed(2)} per item) · run wall ${wall} ms · ideal ${ideal} ms (${path} turns an item) · ratio ${(wall / ideal).toFixed(2)}`);
    const perItem = (ms) => (ms === undefined ? '?' : (ms / ITEMS).toFixed(2));
    console.log(`  CPU per item: run process ${perItem(r.cpuMs)} ms (incl. start-up) · fake model server ${perItem((user + system) / 1000)} ms`);
    console.log(`  tokens per item: ${tokens.input.toFixed(0)} input + ${tokens.output.toFixed(0)} output (request bytes ÷ 4, as the fake server counts)`);
    const firstOf = (needle) => server.requests.find((q) => q.canonical.system.includes(needle) && q.canonical.messages.length === 1);
    const bytesOf = (q) => (q === undefined ? 0 : Buffer.byteLength(JSON.stringify(q.body)));
    const commander = bytesOf(firstOf('commander of task "triage[0]"'));
    const worker = bytesOf(firstOf('worker agent of task "triage[0]"'));
    console.log(`  first requests of item 0 (JSON body bytes): ${DIRECT ? `direct worker ${worker}` : `commander ${commander} + worker ${worker} = ${commander + worker}`}`);
    console.log(`  items: ${itemStates(dir)} · load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores`);
    rmSync(dir, { recursive: true, force: true });
  } finally {
    await server.close();
  }
}

if (ONLY === 'work') await work();
if (!ONLY || ONLY === 'fanout') await fanout();
if (!ONLY || ONLY === 'digest') await digest();
if (!ONLY || ONLY === 'resume') await resume();
