// The cost of durability per model turn on each store backend, driving the Store interface directly
// (no runtime): a turn is made durable in two transactions as the runtime writes it — the model's
// reply (assistant message, model turn row, two tool calls started, two events), then the tools'
// results (two calls completed, the tool-results message, one event). Also single appends outside a
// transaction and reading a long session back. Prints figures only; nothing here is asserted.
// Run after building:
//   npm run build --silent && node bench/store-backends.mjs [--backend sqlite|postgres|both] [--turns 300]
// Options: --db postgres://… measures an existing server (it writes a bench run into that database;
// the schema is migrated first) instead of starting an embedded one with fsync and synchronous_commit
// on; --no-fsync starts the embedded one with them off instead (what remains is the cost of the
// statements and round trips, without the disk); --dir <folder> for the SQLite file (default: the OS
// temp folder; use a real disk).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openStore } from '../dist/store/index.js';
import { openPostgresStore } from '../dist/store/postgres/index.js';
import { startPostgres } from '../dist/test/support/postgres.js';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const backend = option('--backend', 'both');
const turns = Number(option('--turns', '300'));
const dbUrl = option('--db', undefined);
const baseDir = option('--dir', tmpdir());
const durable = !args.includes('--no-fsync');

const lorem = (n) => 'The quick brown fox jumps over the lazy dog; '.repeat(Math.ceil(n / 45)).slice(0, n);

/** An assistant message of about 2 KB of JSON: reasoning text plus two tool calls. */
const assistantParts = (i) => [
  { type: 'text', text: lorem(1500) },
  { type: 'tool_use', id: `toolu_${i}_a`, name: 'builtins_http_get', input: { url: `https://example.com/${i}/a` } },
  { type: 'tool_use', id: `toolu_${i}_b`, name: 'builtins_http_get', input: { url: `https://example.com/${i}/b` } },
];
const resultParts = (i) => [
  { type: 'tool_result', toolUseId: `toolu_${i}_a`, isError: false, content: [{ type: 'text', text: lorem(900) }] },
  { type: 'tool_result', toolUseId: `toolu_${i}_b`, isError: false, content: [{ type: 'text', text: lorem(900) }] },
];
const usage = { inputTokens: 1200, outputTokens: 300, cacheReadTokens: 1000, cacheWriteTokens: 0 };

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
    tools: ['builtins.http.get'],
    skills: [],
  });
  return { runId: run.id, sessionId: session.id };
}

async function replyDurable(store, runId, sessionId, i) {
  await store.transaction(async (tx) => {
    await tx.messages.append(sessionId, { role: 'assistant', parts: assistantParts(i), turn: i });
    await tx.turns.record({ runId, task: 'research', sessionId, turn: i, model: 'claude-sonnet-4', usage, costUsd: 0.004, durationMs: 1234, stopReason: 'tool_use' });
    for (const c of ['a', 'b']) {
      await tx.ledger.recordStarted({ sessionId, callId: `toolu_${i}_${c}`, toolRef: 'builtins.http.get', apiName: 'builtins_http_get', input: { url: `https://example.com/${i}/${c}` }, idempotent: true });
    }
    await tx.events.appendMany([
      { runId, type: 'model.turn', task: 'research', sessionId, data: { turn: i, usage } },
      { runId, type: 'tool.started', task: 'research', sessionId, data: { calls: 2 } },
    ]);
  });
}

async function resultsDurable(store, runId, sessionId, i) {
  await store.transaction(async (tx) => {
    const parts = resultParts(i);
    for (const [k, c] of ['a', 'b'].entries()) await tx.ledger.recordCompleted(sessionId, `toolu_${i}_${c}`, { content: parts[k].content, isError: false });
    await tx.messages.append(sessionId, { role: 'user', parts, turn: i, kind: 'tool_results' });
    await tx.events.append({ runId, type: 'tool.finished', task: 'research', sessionId, data: { calls: 2 } });
  });
}

const timed = async (fn) => {
  const start = performance.now();
  await fn();
  return performance.now() - start;
};

function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function row(label, samples) {
  const f = (ms) => `${ms.toFixed(2).padStart(7)} ms`;
  console.log(`  ${label.padEnd(46)} p50 ${f(percentile(samples, 50))}   p99 ${f(percentile(samples, 99))}   (n=${samples.length})`);
}

async function measure(name, store, extra = async () => undefined) {
  console.log(`${name} (${store.path})`);
  const { runId, sessionId } = await seed(store);
  for (let i = 1; i <= 20; i++) {
    await replyDurable(store, runId, sessionId, i);
    await resultsDurable(store, runId, sessionId, i);
  }
  const reply = [];
  const results = [];
  const turn = [];
  const cpu = process.cpuUsage();
  for (let i = 21; i < 21 + turns; i++) {
    const a = await timed(() => replyDurable(store, runId, sessionId, i));
    const b = await timed(() => resultsDurable(store, runId, sessionId, i));
    reply.push(a);
    results.push(b);
    turn.push(a + b);
  }
  row('reply durable (message+turn+2 ledger+2 events)', reply);
  row('results durable (2 ledger+message+event)', results);
  row('one turn, both transactions', turn);
  // The whole process's CPU (user + system) over those turns, per turn: steadier than their wall time
  // on a busy machine, where the wall time also counts waiting for a CPU.
  const used = process.cpuUsage(cpu);
  console.log(`  ${'CPU per turn, whole process'.padEnd(46)} ${(((used.user + used.system) / turns) / 1000).toFixed(2).padStart(6)} ms   (user ${(used.user / turns / 1000).toFixed(2)}, system ${(used.system / turns / 1000).toFixed(2)})`);
  const single = [];
  const { sessionId: other } = await seed(store);
  for (let i = 1; i <= turns; i++) single.push(await timed(() => store.messages.append(other, { role: 'user', parts: [{ type: 'text', text: lorem(2000) }], turn: i })));
  row('one message append, no transaction (2 KB)', single);
  const events = [];
  for (let i = 1; i <= turns; i++) events.push(await timed(() => store.events.append({ runId, type: 'tick', data: { i } })));
  row('one event append, no transaction', events);
  const load = [];
  for (let i = 0; i < 20; i++) load.push(await timed(() => store.messages.list(sessionId)));
  row(`read a session of ${2 * (20 + turns)} messages back`, load);
  await extra();
}

if (backend === 'sqlite' || backend === 'both') {
  const dir = mkdtempSync(join(baseDir, 'squadron-bench-'));
  try {
    const store = await openStore(join(dir, 'bench.db'));
    await measure('SQLite, synchronous=NORMAL', store);
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (backend === 'postgres' || backend === 'both') {
  const server = dbUrl === undefined ? await startPostgres({ durable }) : undefined;
  try {
    const url = dbUrl ?? (await server.createDatabase());
    const store = await openPostgresStore(url);
    const label = dbUrl !== undefined ? 'PostgreSQL' : `PostgreSQL, embedded on 127.0.0.1, fsync and synchronous_commit ${durable ? 'on' : 'off'}`;
    await measure(label, store, async () => {
      // The floor under every statement: one round trip to the server.
      const pool = new pg.Pool({ connectionString: url, max: 1 });
      const rtt = [];
      for (let i = 0; i < turns; i++) rtt.push(await timed(() => pool.query('SELECT 1')));
      row('one round trip (SELECT 1)', rtt);
      await pool.end();
    });
    await store.close();
  } finally {
    await server?.stop();
  }
}
