// Persistence figures for the SQLite store: event and message write rates, the cost of making one
// model turn durable as the runtime does it (synchronous=NORMAL vs FULL, commits counted in the
// write-ahead log), and the time to load a long session. Every row also shows its time as a ratio to
// `node -e 0` measured at the start of the same run, so figures from a busy machine can be compared.
// Prints figures only; nothing here is asserted. Run after building:
//   npm run build && node bench/persistence.mjs
// Options: --dir <folder> (default: the OS temp folder; use a real disk, fsync cost is the point);
// --only <group> runs one group of rows: events, messages, turn, load, resume or readback;
// --cli <other/dist/cli/main.cjs> (repeatable): the resume rows also time that build of the CLI, in the
// same rounds (e.g. a copy of an earlier build, to compare before/after on a busy machine);
// --cpu-prof <folder>: every `squadron resume` process of the resume rows writes a V8 CPU profile
// there (named after its row and round; open in Chrome DevTools or summarise with bench/cpuprofile.mjs).

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { AgentSession } from '../dist/runtime/session/session.js';
import { Toolbox } from '../dist/runtime/tools/toolbox.js';
import { DEFAULT_TOOL_RESPONSE_MAX_TOKENS } from '../dist/config/stages/toolResponse.js';
import { contextPolicy } from '../dist/runtime/context/policy.js';
import { SessionContext } from '../dist/runtime/context/sessionContext.js';
import { EventBus } from '../dist/runtime/kernel/events.js';
import { gatedClient } from '../dist/runtime/model/modelCall.js';
import { createSecretRedactor, openStore } from '../dist/store/index.js';
import { startFakeModelServer } from '../dist/test/support/fakeModelServer.js';
import { walCommits, walSalt } from '../dist/test/support/walCommits.js';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli', 'main.cjs');

const args = process.argv.slice(2);
const baseDir = args.includes('--dir') ? args[args.indexOf('--dir') + 1] : tmpdir();
const root = mkdtempSync(join(baseDir, 'squadron-bench-'));
let dbCounter = 0;
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const wanted = (group) => only === undefined || only === group;
const otherClis = args.flatMap((a, i) => (a === '--cli' ? [args[i + 1]] : []));
const cpuProfDir = args.includes('--cpu-prof') ? args[args.indexOf('--cpu-prof') + 1] : undefined;
if (cpuProfDir) mkdirSync(cpuProfDir, { recursive: true });

const SECRETS = [
  { name: 'vars.api_key', value: 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789' },
  { name: 'vars.github_token', value: 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB' },
];

function freshStore({ synchronous = 'NORMAL', redact = false, checkpointPages = undefined } = {}) {
  const path = join(root, `bench-${++dbCounter}.db`);
  return openStore(path, { synchronous, redactor: redact ? createSecretRedactor(SECRETS) : undefined, checkpointPages });
}

async function seed(store) {
  const run = await store.runs.create({ mission: 'bench', configPath: '/bench/mission.hcl', inputs: { topic: 'owls' } });
  await store.tasks.ensure(run.id, 'research');
  const session = await store.sessions.open({
    runId: run.id,
    task: 'research',
    agent: 'worker',
    role: 'agent',
    model: 'claude-sonnet-4',
    systemPrompt: 'You are a worker. '.repeat(100),
    tools: ['builtins.http.get', 'builtins.file.read'],
    skills: [],
  });
  return { runId: run.id, sessionId: session.id };
}

const lorem = (n) => 'The quick brown fox jumps over the lazy dog; '.repeat(Math.ceil(n / 45)).slice(0, n);

/** An assistant message of about 2 KB of JSON: reasoning text plus a tool call. */
function assistantParts(i) {
  return [
    { type: 'text', text: lorem(1300) },
    {
      type: 'tool_use',
      id: `toolu_${i}`,
      name: 'builtins_http_get',
      input: { url: `https://example.com/articles/${i}`, headers: { accept: 'text/html' }, note: lorem(500) },
    },
  ];
}

function toolResultParts(i) {
  return [{ type: 'tool_result', toolUseId: `toolu_${i}`, isError: false, content: [{ type: 'text', text: lorem(1900) }] }];
}

async function timeIt(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const fmtRate = (n, ms) => `${Math.round((n / ms) * 1000).toLocaleString('en-US')}/s`;
const fmtMs = (ms) => `${ms.toFixed(ms < 1 ? 3 : 1)} ms`;

// ---- the yardstick: every row's time as a ratio to `node -e 0` measured in this run

/** Median wall time of `node -e 0` (a bare process start), spawned `runs` times after one warm-up. */
function measureNodeFloor(runs = 7) {
  const samples = [];
  for (let i = 0; i <= runs; i++) {
    const start = performance.now();
    spawnSync(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    if (i > 0) samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

let nodeFloorMs = NaN;
const ratio = (ms) => `${(ms / nodeFloorMs).toFixed(ms / nodeFloorMs < 0.1 ? 4 : 2)}× node -e 0`;
const results = [];
/** One row; `ms` is the time the figure stands for, shown as a ratio to `node -e 0`. */
function report(name, value, detail = '', ms = undefined) {
  results.push({ name, value, detail, ms });
  const shown = ms === undefined ? detail : `${detail}${detail ? '; ' : ''}${ratio(ms)}`;
  console.log(`${name.padEnd(58)} ${value.padStart(14)}  ${shown}`);
}

// ---- events

async function benchEvents() {
  const store = freshStore();
  const { runId, sessionId } = await seed(store);
  const data = { tool: 'builtins.http.get', callId: 'toolu_1', durationMs: 123, isError: false };
  const single = 5000;
  const ms = await timeIt(async () => {
    for (let i = 0; i < single; i++) await store.events.append({ runId, type: 'tool.finished', task: 'research', sessionId, data });
  });
  report('events: append, one commit each', fmtRate(single, ms), `${single} events`, ms);

  const batches = 200;
  const batchSize = 100;
  const batch = Array.from({ length: batchSize }, () => ({ runId, type: 'tool.finished', task: 'research', sessionId, data }));
  const msBatched = await timeIt(async () => {
    for (let b = 0; b < batches; b++) await store.events.appendMany(batch);
  });
  report('events: appendMany, 100 per transaction', fmtRate(batches * batchSize, msBatched), `${batches * batchSize} events`, msBatched);
  await store.close();
}

// ---- messages

async function benchMessages(redact) {
  const store = freshStore({ redact });
  const { sessionId } = await seed(store);
  const n = 3000;
  const payload = JSON.stringify(assistantParts(0)).length;
  for (let i = 0; i < 300; i++) await store.messages.append(sessionId, { role: 'assistant', parts: assistantParts(i), turn: 1 }); // warm-up
  const ms = await timeIt(async () => {
    for (let i = 0; i < n; i++) await store.messages.append(sessionId, { role: 'assistant', parts: assistantParts(i), turn: i + 1 });
  });
  report(`messages: append ~${(payload / 1024).toFixed(1)} KB parts${redact ? ', with redactor' : ''}`, fmtRate(n, ms), `${n} messages`, ms);
  await store.close();
}

// ---- one model turn, made durable by the runtime itself

const TURN_CALLS = 3;

/**
 * The tool of the turns: answers at once, so a sample is the runtime's own work (idempotent, like a
 * read). Each page differs, as fetched pages do, so the no-progress guard sees progress.
 */
const instantGet = {
  ref: 'builtins.http.get',
  definition: { name: 'builtins_http_get', description: 'Fetch a URL.', inputSchema: { type: 'object', properties: { url: { type: 'string' } } } },
  onInterrupted: 'rerun',
  execute: async ({ input }) => ({ content: [{ type: 'text', text: `${input.url}\n${lorem(600)}` }], isError: false }),
};

/**
 * Drives a real AgentSession (the runtime's session loop, model turn and tool execution) against the
 * store for `turns` model turns of `TURN_CALLS` tool calls each, then a final answer. The model is a
 * client answering at once; the run's event sink is wired as the runtime wires it. `onTurn(n)` is
 * called as the model is asked for turn n (n ≥ 2), i.e. once turn n − 1 is durable and its results
 * stored; it returns nothing and its own time is not the turn's.
 */
async function driveTurns(store, runId, sessionId, turns, onTurn) {
  const bus = new EventBus();
  // As the run's store sink does: an event of a durable step is written in that step's transaction.
  bus.subscribe('store', (event, scope) => {
    const row = { runId, type: event.type, data: event };
    if (typeof event.task === 'string') row.task = event.task;
    if (typeof event.sessionId === 'string') row.sessionId = event.sessionId;
    const written = (scope?.store ?? store).events.append(row);
    if (scope) scope.writes.push(written);
  });
  let asked = 0;
  const client = {
    async complete() {
      asked += 1;
      if (asked >= 2) onTurn(asked);
      const last = asked > turns;
      const calls = Array.from({ length: last ? 0 : TURN_CALLS }, (_, c) => ({
        type: 'tool_use',
        id: `toolu_${asked}_${c}`,
        name: 'builtins_http_get',
        input: { url: `https://example.com/articles/${asked}/${c}`, headers: { accept: 'text/html' }, note: lorem(150) },
      }));
      return {
        message: { role: 'assistant', parts: [{ type: 'text', text: last ? 'All fetched.' : lorem(1300) }, ...calls] },
        usage: { inputTokens: 1200, outputTokens: 350, cacheReadTokens: 9000, cacheWriteTokens: 0 },
        stopReason: last ? 'end_turn' : 'tool_use',
      };
    },
  };
  const session = await AgentSession.restore(
    {
      store,
      bus,
      // As a run hands it out: gated (no budget here), the event barrier before each request.
      client: gatedClient(client, { pricing: undefined }, { budget: () => undefined, barrier: () => bus.barrier() }),
      runId,
      task: 'research',
      agent: 'worker',
      sessionId,
      model: { apiModel: 'claude-sonnet-4', label: 'fake.claude_sonnet_4', maxOutputTokens: 4096, contextWindow: 200_000, contextWindowVia: 'catalog' },
      systemPrompt: 'You are a worker.',
      toolbox: new Toolbox([instantGet]),
      // The default context policy of a 200k-token model, as a run opens it: nothing is cut here.
      context: await SessionContext.open(store, sessionId, contextPolicy({ via: 'agent_defaults' }, { contextWindow: 200_000, contextWindowVia: 'catalog', maxOutputTokens: 4096 })),
      maxTurns: turns + 10,
      resultMaxTokens: DEFAULT_TOOL_RESPONSE_MAX_TOKENS,
      signal: new AbortController().signal,
      requireToolCall: false,
      // As the agent pool opens an agent's session: with the loop guards, at their defaults.
      loopGuard: {},
    },
    [],
  );
  await session.appendInstruction([{ type: 'text', text: 'Fetch every article.' }]);
  const outcome = await session.run();
  if (outcome.kind !== 'answer') throw new Error(`the bench session ended with ${JSON.stringify(outcome)}`);
}

/**
 * The noise floor of the turn rows: a fixed ~1 ms of pure computation, timed like a turn. On an idle
 * machine its p99 is close to its p50; on a busy one, the gap is what preemption adds to any p99.
 */
function benchControl() {
  const samples = [];
  let sink = 0;
  for (let i = 0; i < 520; i++) {
    const start = performance.now();
    for (let j = 0; j < 200_000; j++) sink += Math.sqrt(j);
    if (i >= 20) samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  report('control: fixed computation, no I/O', fmtMs(percentile(samples, 50)), `p50; p99 ${fmtMs(percentile(samples, 99))} over ${samples.length} runs${sink < 0 ? '' : ''}`, percentile(samples, 99));
}

/** Commits per turn, counted as commit frames in the write-ahead log over a few turns after the first. */
async function commitsPerTurn(synchronous) {
  const store = freshStore({ synchronous });
  const { runId, sessionId } = await seed(store);
  const counts = new Map();
  await driveTurns(store, runId, sessionId, 12, (n) => counts.set(n, walCommits(store.path)));
  await store.close();
  const [from, to] = [counts.get(3), counts.get(13)];
  if (from.salt !== to.salt) throw new Error('the write-ahead log was restarted while counting commits');
  return { commits: (to.commits - from.commits) / 10, pages: (to.frames - from.frames) / 10 };
}

/** The calling thread's time on a CPU and waiting for one (ms), from Linux's schedstat; undefined elsewhere. */
const threadSchedstat = existsSync('/proc/thread-self/schedstat')
  ? () => {
      const [onCpu, runQueue] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ');
      return { onCpu: Number(onCpu) / 1e6, runQueue: Number(runQueue) / 1e6 };
    }
  : () => undefined;

async function benchTurn({ synchronous = 'NORMAL', redact = false, checkpointPages = undefined } = {}) {
  const store = freshStore({ synchronous, redact, checkpointPages });
  const { runId, sessionId } = await seed(store);
  // Time spent in the store's writes (outermost call only, from the call until its promise settles),
  // inside the runtime's real sequence: what makes the turn durable (encoding, redaction, SQL,
  // commits), without the rest of the loop. A transaction's own calls go through its `tx`. Where
  // Linux tells, the main thread's share of it on a CPU and waiting for one (preempted) is kept too.
  const zero = () => ({ wall: 0, cpu: 0, onCpu: 0, runQueue: 0 });
  let inCommits = zero();
  let depth = 0;
  const timed = (target, method) => {
    const original = target[method];
    target[method] = async (...args) => {
      if (depth > 0) return original(...args);
      depth += 1;
      const sched = threadSchedstat();
      const wall = performance.now();
      const cpu = process.cpuUsage();
      try {
        return await original(...args);
      } finally {
        depth -= 1;
        const used = process.cpuUsage(cpu);
        inCommits.wall += performance.now() - wall;
        inCommits.cpu += (used.user + used.system) / 1000;
        const after = threadSchedstat();
        if (sched && after) {
          inCommits.onCpu += after.onCpu - sched.onCpu;
          inCommits.runQueue += after.runQueue - sched.runQueue;
        }
      }
    };
  };
  timed(store, 'transaction');
  timed(store.messages, 'append');
  timed(store.turns, 'record');
  timed(store.ledger, 'recordStarted');
  timed(store.ledger, 'recordCompleted');
  timed(store.events, 'append');
  const gcPauses = [];
  const noteGc = (entries) => gcPauses.push(...entries.map((e) => ({ start: e.startTime, end: e.startTime + e.duration })));
  const gcObserver = new PerformanceObserver((list) => noteGc(list.getEntries()));
  gcObserver.observe({ entryTypes: ['gc'] });
  const warmUp = 20;
  const turns = [];
  let mark;
  let salt = walSalt(store.path);
  // A turn runs from the model's reply to the next request: the reply stored, its tool calls started,
  // run and their results stored, the next request built.
  await driveTurns(store, runId, sessionId, warmUp + 500, (n) => {
    const now = performance.now();
    const saltNow = walSalt(store.path);
    if (mark && n > warmUp + 1) turns.push({ ...inCommits, loop: now - mark, start: mark, end: now, logRestarted: saltNow !== salt });
    salt = saltNow;
    inCommits = zero();
    mark = performance.now();
  });
  // What one checkpoint of the log costs (a turn pays it when its commit crosses the threshold).
  const checkpointMs = await timeIt(() => store.checkpoint());
  await store.close();
  // GC entries are delivered from a later turn of the event loop (the turns themselves never leave it).
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 0));
  noteGc(gcObserver.takeRecords());
  gcObserver.disconnect();
  const sorted = (key, from = 0, to = turns.length) => turns.slice(from, to).map((t) => t[key]).sort((a, b) => a - b);
  const durable = sorted('wall');
  const durableCpu = sorted('cpu');
  const loop = sorted('loop');
  const { commits, pages } = await commitsPerTurn(synchronous);
  const checkpoints = `SQLite's checkpoint every ${Math.round((checkpointPages ?? 10_000) / pages)} turns on the committing thread`;
  const variant = [`synchronous=${synchronous}`, redact ? 'with redactor' : '', checkpointPages ? `checkpoint at ${checkpointPages} pages` : ''].filter(Boolean).join(', ');
  report(
    `model turn made durable, ${variant}`,
    fmtMs(percentile(durable, 50)),
    `p50; p99 ${fmtMs(percentile(durable, 99))}, max ${fmtMs(durable.at(-1))} (CPU p50 ${fmtMs(percentile(durableCpu, 50))}, p99 ${fmtMs(percentile(durableCpu, 99))}); ` +
      `${durable.length} turns of ${TURN_CALLS} calls, ${commits} commits (${pages} pages) each; ${checkpoints}, the rest of the log at the end ${fmtMs(checkpointMs)}; ` +
      `whole turn loop p50 ${fmtMs(percentile(loop, 50))}, p99 ${fmtMs(percentile(loop, 99))} (p50 of its first 100 turns ${fmtMs(percentile(sorted('loop', 0, 100), 50))}, of its last 100 ${fmtMs(percentile(sorted('loop', -100), 50))})`,
    percentile(durable, 99),
  );
  // What the slowest 1% of turns spent their time on (see docs/concepts/persistence.md).
  const slowest = [...turns].sort((a, b) => b.wall - a.wall).slice(0, Math.ceil(turns.length / 100));
  const withGc = slowest.filter((t) => gcPauses.some((g) => g.start < t.end && g.end > t.start)).length;
  const atCheckpoint = slowest.filter((t) => t.logRestarted || turns[turns.indexOf(t) + 1]?.logRestarted).length;
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const split = threadSchedstat()
    ? `; main thread in their store calls (median): on a CPU ${fmtMs(median(slowest.map((t) => t.onCpu)))}, waiting for a CPU ${fmtMs(median(slowest.map((t) => t.runQueue)))}, ` +
      `neither (I/O, GC helper threads) ${fmtMs(median(slowest.map((t) => Math.max(0, t.wall - t.onCpu - t.runQueue))))}; main-thread on-CPU p99 of all turns ${fmtMs(percentile(sorted('onCpu'), 99))}`
    : '';
  report(
    `  its slowest 1% of turns`,
    fmtMs(slowest.at(-1)?.wall ?? NaN),
    `and up; ${slowest.length} turns: ${withGc} with a GC pause, ${atCheckpoint} at a checkpoint of the log${split}`,
  );
}

// ---- loading a long session

async function benchLoad(redact) {
  const store = freshStore({ redact });
  const { sessionId } = await seed(store);
  const n = 10_000;
  await store.transaction(async (tx) => {
    for (let i = 0; i < n; i += 2) {
      await tx.messages.append(sessionId, { role: 'assistant', parts: assistantParts(i), turn: i / 2 + 1 });
      await tx.messages.append(sessionId, { role: 'user', parts: toolResultParts(i), turn: i / 2 + 1, kind: 'tool_results' });
    }
  });
  await store.messages.list(sessionId); // warm the page cache and the statement
  // Parts are parsed when first read: the list alone, the list with every part read (what building a
  // request over the whole session costs), and the heads a resume finds its place with.
  const median = async (fn) => {
    const samples = [];
    for (let k = 0; k < 3; k++) samples.push(await timeIt(fn));
    return samples.sort((a, b) => a - b)[1];
  };
  const label = `load a session of ${n.toLocaleString('en-US')} messages${redact ? ', with redactor' : ''}`;
  const listed = await median(() => store.messages.list(sessionId));
  report(label, fmtMs(listed), 'median of 3: list (checksums proven, parts parsed when read)', listed);
  const parsed = await median(async () => {
    for (const m of await store.messages.list(sessionId)) if (m.parts.length < 0) throw new Error('unreachable');
  });
  report(`${label}, every part read`, fmtMs(parsed), 'median of 3: list + restore + parse', parsed);
  const heads = await median(() => store.messages.heads(sessionId));
  report(`${label}, heads only`, fmtMs(heads), 'median of 3: what resume reads to find its place', heads);
  if (!redact) await benchLoadFloor(store.path, sessionId);
  await store.close();
}

/**
 * The floor under the load rows: the same rows read by better-sqlite3 alone on a second connection,
 * none of the store's code — SQLite reading the pages plus the addon making a JS string of every
 * column — and the pages alone (a column after parts_json, no string made of it).
 */
async function benchLoadFloor(path, sessionId) {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path, { readonly: true });
  try {
    const median = (stmt) => {
      const samples = [];
      for (let k = 0; k < 4; k++) samples.push(timeItSync(() => stmt.all(sessionId)));
      return samples.sort((a, b) => a - b).slice(1)[1];
    };
    const rows = median(db.prepare('SELECT * FROM messages WHERE session_id = ? AND seq >= 1 ORDER BY seq'));
    report('  floor: the same rows, better-sqlite3 alone', fmtMs(rows), 'median of 3: SELECT * (the list\'s query), rows made, nothing parsed', rows);
    const pages = median(db.prepare('SELECT length(parts_json) FROM messages WHERE session_id = ? AND seq >= 1 ORDER BY seq'));
    report('  floor: the same pages read, no strings made', fmtMs(pages), 'median of 3: SELECT length(parts_json)', pages);
  } finally {
    db.close();
  }
}

function timeItSync(fn) {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

// ---- resume (store part, then the runtime: `squadron resume` end to end)

/**
 * Resume figures, store part: everything the runtime reads back to rebuild a run of 5 tasks ×
 * 3 sessions × 200 messages (+ ledgers, loaded tools, routes, usage totals).
 */
async function measureStoreResume() {
  const path = join(root, `bench-${++dbCounter}.db`);
  const writer = openStore(path, { redactor: createSecretRedactor(SECRETS) });
  const run = await writer.runs.create({ mission: 'bench', configPath: '/bench/mission.hcl', inputs: {} });
  await writer.transaction(async (tx) => {
    for (let t = 0; t < 5; t++) {
      const task = `task_${t}`;
      await tx.tasks.ensure(run.id, task);
      for (const agent of ['commander', 'worker', 'analyst']) {
        const s = await tx.sessions.open({ runId: run.id, task, agent, role: agent === 'commander' ? 'commander' : 'agent', model: 'm', systemPrompt: lorem(4000), tools: [], skills: [] });
        for (let i = 0; i < 200; i += 2) {
          await tx.messages.append(s.id, { role: 'assistant', parts: assistantParts(i), turn: i / 2 + 1 });
          await tx.ledger.recordStarted({ sessionId: s.id, callId: `toolu_${i}`, toolRef: 'builtins.http.get', apiName: 'builtins_http_get', input: {}, idempotent: true });
          await tx.ledger.recordCompleted(s.id, `toolu_${i}`, { content: [{ type: 'text', text: lorem(1900) }], isError: false });
          await tx.messages.append(s.id, { role: 'user', parts: toolResultParts(i), turn: i / 2 + 1 });
        }
        await tx.sessions.addLoadedTool(s.id, 'builtins.http.get');
      }
    }
  });
  await writer.close();

  const ms = await timeIt(async () => {
    const store = openStore(path, { redactor: createSecretRedactor(SECRETS) });
    await store.runs.get(run.id);
    await store.tasks.list(run.id);
    await store.routes.list(run.id);
    await store.turns.totalsForRun(run.id);
    for (const s of await store.sessions.listForRun(run.id)) {
      await store.messages.list(s.id);
      await store.ledger.listForSession(s.id);
      await store.sessions.loadedTools(s.id);
    }
    await store.close();
  });
  report('resume, store part: open + read back a whole run', fmtMs(ms), '5 tasks × 3 sessions × 200 messages + ledgers', ms);
}

/**
 * Resume figures, runtime part: wall time of `squadron resume` (a real CLI process against the fake
 * model server) for a killed run holding ~10,000 stored messages. The run has one task; its commander
 * has delegated with call_agent (ledger `started`) and its worker's session holds the rest:
 *   - "answer in store": the worker had finished; resume delivers its stored answer without a model
 *     call on the long session, then the commander completes (1 small model call);
 *   - "session continues": the worker was cut off after a tool result; resume rebuilds the session
 *     and re-issues its model call carrying all of it (then 1 small commander call);
 *   - the same two shapes with 10 messages, for the fixed cost (process start, config, SDK);
 *   - the continuing 10,000-message session once more on a model block whose context_window holds it
 *     whole: nothing is cut, and the call resends every message (the resend cost).
 * Median of 3, each on a freshly built database. The worker's messages are the ~2 KB parts used above.
 */
async function measureRuntimeResume() {
  const workerCalls = [];
  const server = await startFakeModelServer({
    respond: (req) => {
      if (req.canonical.system.startsWith('You are the commander')) {
        return { toolCalls: [{ name: 'task_complete', input: { summary: 'resumed and completed' } }] };
      }
      workerCalls.push(req.canonical.messages.length);
      return { text: 'All pages fetched.' };
    },
  });
  try {
    // The same mission on two model blocks: the catalog's window of claude_haiku_4_5 (200,000 tokens,
    // which 10,000 messages of ~2 KB do not fit: the session is compacted before its call), and a
    // window set large enough to hold the whole session (it is sent whole: the resend cost).
    const writeProject = (name, contextWindow) => {
      const project = join(root, name);
      mkdirSync(project, { recursive: true });
      writeFileSync(
        join(project, 'mission.hcl'),
        `model "fake" {
  provider = "anthropic"
  base_url = "${server.anthropicBaseURL}"
  api_key  = "bench-key-0123456789"
${contextWindow ? `  context_window = ${contextWindow}\n` : ''}}

mission "bench" {
  commander { model = models.fake.claude_haiku_4_5 }
  task "long" {
    objective = "Fetch every article."
    tools     = [builtins.http.get]
    # The worker's session already holds ~5,000 turns; the default limit (40) would stop it.
    max_turns = 10000
  }
}
`,
      );
      return project;
    };
    const project = writeProject('resume-project');
    const wideProject = writeProject('resume-project-wide', 100_000_000);
    const variants = [
      ['10 messages, answer in store', 4, true, project],
      ['10,000 messages, answer in store', 4998, true, project],
      ['10 messages, session continues', 4, false, project],
      ['10,000 messages, session continues', 4999, false, project],
      ['10,000 messages, session continues, sent whole (context_window = 100,000,000)', 4999, false, wideProject],
    ].flatMap(([label, workerPairs, finished, projectDir]) =>
      [CLI, ...otherClis].map((cli, n) => ({ label: n === 0 ? label : `${label} (cli #${n}: ${cli})`, cli, workerPairs, finished, projectDir, wide: projectDir === wideProject, samples: [], cpu: [], messages: 0 })),
    );
    // Variants interleaved per repetition, so a change in machine load hits them all alike.
    for (let rep = 0; rep < 3; rep++) {
      for (const v of variants) {
        const built = await buildKilledRun(v.projectDir, v.workerPairs, v.finished);
        v.messages = built.messages;
        workerCalls.length = 0;
        const profName = cpuProfDir ? `${v.label.replace(/[^a-z0-9]+/gi, '-')}-${rep}.cpuprofile` : undefined;
        const { ms, cpu, code, stderr } = await timeResume(built.dbPath, built.runId, v.cli, profName);
        if (code !== 0) throw new Error(`squadron resume exited with ${code}: ${stderr.slice(-500)}`);
        // Measure what the label says: the stored answer delivered, or one call continuing the session
        // (the whole session, or — once it no longer fits the model's window, as 10,000 messages of
        // ~2 KB do not — its compacted view: the session is still read back whole to build it).
        const expected = v.finished ? [] : [2 * v.workerPairs + 1];
        // With the wide window nothing is cut: the call carries every message.
        const continued = !v.finished && workerCalls.length === 1 && (v.wide ? workerCalls[0] === expected[0] : workerCalls[0] <= expected[0]);
        if ((!continued && JSON.stringify(workerCalls) !== JSON.stringify(expected)) || stderr.includes('call_agent (error)')) {
          throw new Error(`resume of "${v.label}" made worker calls ${JSON.stringify(workerCalls)}, expected ${JSON.stringify(expected)}: ${stderr.slice(-500)}`);
        }
        v.samples.push(ms);
        v.cpu.push(cpu);
      }
    }
    for (const v of variants) {
      v.samples.sort((a, b) => a - b);
      v.cpu.sort((a, b) => a - b);
      const cpu = Number.isNaN(v.cpu[1]) ? '' : `; CPU ${fmtMs(v.cpu[1])}, ${(v.cpu[1] / nodeFloorCpuMs).toFixed(2)}× node -e 0`;
      report(`squadron resume, ${v.label}`, fmtMs(v.samples[1]), `median of 3; ${v.messages.toLocaleString('en-US')} stored messages, whole CLI process${cpu}`, v.samples[1]);
    }
  } finally {
    await server.close();
  }
}

/**
 * The fixed part of the resume rows: CPU time of a fresh process that only imports what `squadron
 * resume` loads before it reads the store (median of 5, interleaved), beside `node -e 0`'s.
 */
function measureResumeImports() {
  if (!HAS_TIME) return;
  const repo = join(dirname(CLI), '..', '..');
  const rows = [
    ['node -e 0', ''],
    ['zod', "await import('zod');"],
    ['better-sqlite3', "await import('better-sqlite3');"],
    ['@anthropic-ai/sdk (its client, with @opentelemetry/api)', "await import('@anthropic-ai/sdk');"],
    ['the store (dist/store: zod, better-sqlite3)', `await import(${JSON.stringify(new URL('../dist/store/index.js', import.meta.url).href)});`],
    ['what resume loads (dist/api + dist/runtime/run/run.js)', `await import(${JSON.stringify(new URL('../dist/api/index.js', import.meta.url).href)}); await import(${JSON.stringify(new URL('../dist/runtime/run/run.js', import.meta.url).href)});`],
  ].map(([label, code]) => ({ label, code, cpu: [] }));
  const timeFile = join(root, 'import-time.txt');
  for (let rep = 0; rep < 5; rep++) {
    for (const row of rows) {
      const argv = ['-f', '%U %S', '-o', timeFile, process.execPath, '--input-type=module', '-e', row.code || '0'];
      const result = spawnSync('/usr/bin/time', argv, { cwd: repo, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`importing for "${row.label}" failed: ${result.stderr.slice(-500)}`);
      row.cpu.push(cpuOf(timeFile));
    }
  }
  const floor = rows[0].cpu.sort((a, b) => a - b)[2];
  for (const row of rows.slice(1)) {
    const cpu = row.cpu.sort((a, b) => a - b)[2];
    report(`  import alone: ${row.label}`, `${fmtMs(cpu)} CPU`, `median of 5; +${fmtMs(cpu - floor)} over node -e 0's ${fmtMs(floor)}; ${(cpu / floor).toFixed(2)}× node -e 0 CPU`);
  }
}

/** A run killed while its commander waited on call_agent; returns its db, id and message count. */
async function buildKilledRun(project, workerPairs, finished) {
  const dbPath = join(root, `bench-${++dbCounter}.db`);
  const store = openStore(dbPath);
  // The workspace exists, as a real run's does: resume refuses a run whose workspace is gone.
  const workspaceDir = join(root, `ws-${dbCounter}`);
  mkdirSync(workspaceDir, { recursive: true });
  const run = await store.runs.create({
    mission: 'bench',
    configPath: project,
    inputs: {},
    options: { workspaceDir, taskGraph: [{ name: 'long', dependsOn: [], routes: [], sendTo: [] }], overrides: { noTools: false, skills: [], noSkills: false } },
  });
  let messages = 0;
  await store.transaction(async (tx) => {
    await tx.tasks.ensure(run.id, 'long');
    await tx.tasks.markRunning(run.id, 'long');
    const open = (agent, role) =>
      tx.sessions.open({ runId: run.id, task: 'long', agent, role, model: 'claude-haiku-4-5', systemPrompt: `You are the ${agent === 'commander' ? 'commander' : 'worker agent'} of task "long". ${lorem(3000)}`, tools: [], skills: [] });
    const commander = await open('commander', 'commander');
    const worker = await open('worker', 'agent');
    const append = async (sessionId, m) => {
      await tx.messages.append(sessionId, m);
      messages++;
    };
    await append(commander.id, { role: 'user', parts: [{ type: 'text', text: 'Fetch every article.' }], turn: 1, kind: 'instruction' });
    await append(commander.id, { role: 'assistant', parts: [{ type: 'tool_use', id: 'toolu_c1', name: 'call_agent', input: { name: 'worker', task: 'Fetch every article.' } }], turn: 1 });
    await tx.ledger.recordStarted({ sessionId: commander.id, callId: 'toolu_c1', toolRef: 'call_agent', apiName: 'call_agent', input: {}, idempotent: true });
    await append(worker.id, { role: 'user', parts: [{ type: 'text', text: 'Fetch every article.' }], turn: 1, kind: 'instruction', callId: 'toolu_c1' });
    for (let i = 0; i < workerPairs; i++) {
      await append(worker.id, { role: 'assistant', parts: assistantParts(i), turn: i + 1 });
      await tx.ledger.recordStarted({ sessionId: worker.id, callId: `toolu_${i}`, toolRef: 'builtins.http.get', apiName: 'builtins_http_get', input: {}, idempotent: true });
      await tx.ledger.recordCompleted(worker.id, `toolu_${i}`, { content: [{ type: 'text', text: lorem(1900) }], isError: false });
      await append(worker.id, { role: 'user', parts: toolResultParts(i), turn: i + 1, kind: 'tool_results' });
    }
    if (finished) await append(worker.id, { role: 'assistant', parts: [{ type: 'text', text: 'All pages fetched.' }], turn: workerPairs + 1 });
  });
  await store.close();
  return { dbPath, runId: run.id, messages };
}

// ---- reading a run back: a long session proven by its checksums or validated in full, and the CLI
// commands that read runs (inspect --transcript, runs). Each row also shows its time as a ratio to
// `node -e 0` measured just before, so figures taken on a busy machine can be compared.

async function benchReadback() {
  const { spawnSync } = await import('node:child_process');
  const { default: Database } = await import('better-sqlite3');
  // Wall and CPU time of a whole process; CPU (user + system, from /usr/bin/time when there is one)
  // is the steadier figure when other work shares the cores.
  const timeFile = join(root, 'time.txt');
  const timed = existsSync('/usr/bin/time');
  const spawnTimed = (args) => {
    const start = performance.now();
    const result = timed
      ? spawnSync('/usr/bin/time', ['-f', '%U %S', '-o', timeFile, process.execPath, ...args], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' })
      : spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    const ms = performance.now() - start;
    if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${result.status}: ${result.stderr.slice(-500)}`);
    const cpu = timed ? readFileSync(timeFile, 'utf8').trim().split(/\s+/).slice(-2).reduce((sum, s) => sum + Number(s) * 1000, 0) : NaN;
    return { ms, cpu };
  };
  const median = (samples) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)];
  const medians = (runs) => ({ ms: median(runs.map((r) => r.ms)), cpu: median(runs.map((r) => r.cpu)) });
  spawnTimed(['-e', '0']);
  const floor = medians([1, 2, 3, 4, 5, 6, 7].map(() => spawnTimed(['-e', '0'])));
  console.log(`node -e 0: wall ${fmtMs(floor.ms)}, CPU ${fmtMs(floor.cpu)} (median of 7; the ratios below are to these)`);
  const row = (name, { ms, cpu }, detail) =>
    report(name, fmtMs(ms), `${detail}; ${(ms / floor.ms).toFixed(2)}× node -e 0${Number.isNaN(cpu) ? '' : `; CPU ${fmtMs(cpu)}, ${(cpu / floor.cpu).toFixed(2)}×`}`);
  const inProcess = async (fn) => {
    const cpu0 = process.cpuUsage();
    const ms = await timeIt(fn);
    const cpu = process.cpuUsage(cpu0);
    return { ms, cpu: (cpu.user + cpu.system) / 1000 };
  };

  // A session of 10,000 messages read back, its rows proven by their checksums, then the same rows
  // as a database from before checksums holds them (validated in full).
  const store = freshStore({ redact: true });
  const { sessionId } = await seed(store);
  await store.transaction(async (tx) => {
    for (let i = 0; i < 10_000; i += 2) {
      await tx.messages.append(sessionId, { role: 'assistant', parts: assistantParts(i), turn: i / 2 + 1 });
      await tx.messages.append(sessionId, { role: 'user', parts: toolResultParts(i), turn: i / 2 + 1, kind: 'tool_results' });
    }
  });
  await store.messages.list(sessionId); // warm the page cache and the statement
  const threeLoads = async () => {
    const runs = [];
    for (let k = 0; k < 3; k++) runs.push(await inProcess(() => store.messages.list(sessionId)));
    return runs;
  };
  row('load a session of 10,000 messages, rows proven by checksum', medians(await threeLoads()), 'median of 3, with redactor');
  const raw = new Database(store.path);
  const checksummed = raw.prepare("SELECT 1 FROM pragma_table_info('messages') WHERE name = 'checksum'").get() !== undefined;
  if (checksummed) raw.prepare('UPDATE messages SET checksum = NULL').run();
  raw.close();
  row(`load a session of 10,000 messages, ${checksummed ? 'rows without checksum' : 'no checksums (schema before 0003)'}`, medians(await threeLoads()), 'median of 3, with redactor: every part validated');
  await store.close();

  // The CLI reading runs back: a whole process each time.
  const cli = (args) => spawnTimed([CLI, ...args]);
  const project = join(root, 'readback-project');
  mkdirSync(project, { recursive: true });
  const long = await buildKilledRun(project, 4999, true);
  row('squadron inspect --transcript --json, 10,000 messages', medians([1, 2, 3].map(() => cli(['inspect', long.runId, '--db', long.dbPath, '--transcript', '--json']))), 'median of 3, whole CLI process');
  const small = await buildKilledRun(project, 4, true);
  row('squadron inspect, 10 messages', medians([1, 2, 3].map(() => cli(['inspect', small.runId, '--db', small.dbPath]))), 'median of 3, whole CLI process');

  // 50 runs of 3 tasks each in one database.
  const listed = openStore(join(root, `bench-${++dbCounter}.db`));
  for (let r = 0; r < 50; r++) {
    const run = await listed.runs.create({ mission: 'bench', configPath: project, inputs: { topic: 'owls' }, options: { taskGraph: ['a', 'b', 'c'].map((name) => ({ name, dependsOn: [], routes: [], sendTo: [] })) } });
    for (const task of ['a', 'b', 'c']) await listed.tasks.ensure(run.id, task);
    await listed.runs.setStatus(run.id, 'completed');
  }
  const listedPath = listed.path;
  await listed.close();
  row('squadron runs --json, 50 runs', medians([1, 2, 3].map(() => cli(['runs', '--db', listedPath, '--json']))), 'median of 3, whole CLI process');
}

/** Wall and CPU time (user + system, from /usr/bin/time when there is one) of `squadron resume`. */
function timeResume(dbPath, runId, cli = CLI, profName = undefined) {
  return new Promise((resolve, reject) => {
    const timeFile = join(root, `resume-time-${++dbCounter}.txt`);
    const prof = profName ? ['--cpu-prof', '--cpu-prof-dir', cpuProfDir, '--cpu-prof-name', profName] : [];
    const args = [...prof, cli, 'resume', runId, '--db', dbPath, '--json'];
    const start = performance.now();
    const child = HAS_TIME
      ? spawn('/usr/bin/time', ['-f', '%U %S', '-o', timeFile, process.execPath, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
      : spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: performance.now() - start, cpu: HAS_TIME ? cpuOf(timeFile) : NaN, code, stderr }));
  });
}

const HAS_TIME = existsSync('/usr/bin/time');

/** User + system seconds written by /usr/bin/time -f '%U %S', in ms. */
function cpuOf(timeFile) {
  return readFileSync(timeFile, 'utf8').trim().split(/\s+/).slice(-2).reduce((sum, s) => sum + Number(s) * 1000, 0);
}

/** Median CPU time of `node -e 0`, the yardstick of the CPU ratios. */
function measureNodeFloorCpu(runs = 7) {
  if (!HAS_TIME) return NaN;
  const timeFile = join(root, 'floor-time.txt');
  const samples = [];
  for (let i = 0; i <= runs; i++) {
    spawnSync('/usr/bin/time', ['-f', '%U %S', '-o', timeFile, process.execPath, '-e', '0'], { stdio: 'ignore' });
    if (i > 0) samples.push(cpuOf(timeFile));
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

let nodeFloorCpuMs = NaN;

try {
  console.log(`SQLite persistence figures (node ${process.version}, databases in ${root})`);
  nodeFloorMs = measureNodeFloor();
  nodeFloorCpuMs = measureNodeFloorCpu();
  console.log(`node -e 0: ${fmtMs(nodeFloorMs)}, CPU ${fmtMs(nodeFloorCpuMs)} (median of 7, the yardsticks of the ratios below)\n`);
  if (wanted('events')) await benchEvents();
  if (wanted('messages')) {
    await benchMessages(false);
    await benchMessages(true);
  }
  if (wanted('turn')) {
    benchControl();
    await benchTurn();
    await benchTurn({ checkpointPages: 1000 });
    await benchTurn({ synchronous: 'FULL' });
    await benchTurn({ redact: true });
  }
  if (wanted('load')) {
    await benchLoad(false);
    await benchLoad(true);
  }
  if (wanted('resume')) {
    await measureStoreResume();
    await measureRuntimeResume();
    measureResumeImports();
  }
  if (wanted('readback')) await benchReadback();
} finally {
  rmSync(root, { recursive: true, force: true });
}
