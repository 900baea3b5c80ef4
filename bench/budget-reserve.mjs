// The cost of a budget reservation on each store backend, driving the Store interface directly (no
// runtime): a model call of a budgeted run reserves (one transaction: lock the run, read its totals,
// store the reservation) and then drops the reservation in the transaction that stores its turn.
// The settled totals are summed from the run's stored turns, so the figures are given for runs that
// have already stored 0, 1,000 and 10,000 turns; and, on PostgreSQL, for four runners reserving
// against one run at the same time (they take turns on the run's lock). Prints figures only.
// Run after building:
//   npm run build --silent && node bench/budget-reserve.mjs [--backend sqlite|postgres|both] [--calls 300]
// Options: --db postgres://… an existing server instead of an embedded one; --dir <folder> for the
// SQLite file (default: the OS temp folder).

import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openStore } from '../dist/store/index.js';
import { openPostgresStore } from '../dist/store/postgres/index.js';
import { startPostgres } from '../dist/test/support/postgres.js';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const backend = option('--backend', 'both');
const calls = Number(option('--calls', '300'));
const dbUrl = option('--db', undefined);
const baseDir = option('--dir', tmpdir());
const OWNER = { id: 'own_bench', pid: process.pid, host: hostname() };

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const row = (label, xs) => console.log(`  ${label.padEnd(58)} p50 ${pct(xs, 50).toFixed(3)} ms   p99 ${pct(xs, 99).toFixed(3)} ms`);

async function seededRun(store, storedTurns) {
  const run = await store.runs.create({ mission: 'bench', configPath: '/bench.hcl', inputs: {} });
  await store.leases.acquire(run.id, OWNER, 60_000);
  const session = await store.sessions.open({ runId: run.id, task: 't', agent: 'worker', role: 'agent', model: 'm', systemPrompt: '', tools: [], skills: [] });
  const record = (tx, turn) =>
    tx.turns.record({ runId: run.id, task: 't', sessionId: session.id, turn, model: 'm', usage: { inputTokens: 100, outputTokens: 50, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0.001, durationMs: 1, stopReason: 'end_turn' });
  for (let done = 0; done < storedTurns; done += 500) {
    await store.transaction(async (tx) => {
      for (let i = done; i < Math.min(storedTurns, done + 500); i++) await record(tx, i + 1);
    });
  }
  return { runId: run.id, record };
}

const decide = () => undefined;

async function oneCall(store, runId, record, turn) {
  const t0 = performance.now();
  const r = await store.budgets.reserve({ runId, scopes: ['mission', 't'], amount: { tokens: 1000, dollars: 0.01 }, holder: { owner: OWNER.id }, decide });
  const t1 = performance.now();
  await store.transaction(async (tx) => {
    await record(tx, turn);
    if (r.ok) await tx.budgets.drop(r.id);
  });
  return { reserve: t1 - t0, total: performance.now() - t0 };
}

async function measure(label, store, others = []) {
  console.log(label);
  for (const stored of [0, 1_000, 10_000]) {
    const { runId, record } = await seededRun(store, stored);
    const reserve = [];
    const plain = [];
    for (let i = 0; i < calls; i++) {
      const { reserve: r } = await oneCall(store, runId, record, stored + i + 1);
      reserve.push(r);
      const t0 = performance.now();
      await store.transaction((tx) => record(tx, stored + calls + i + 1));
      plain.push(performance.now() - t0);
    }
    row(`reserve, ${stored.toLocaleString('en')} turns stored`, reserve);
    row(`  (for scale: storing one turn, no budget)`, plain);
  }
  if (others.length > 0) {
    const { runId, record } = await seededRun(store, 1_000);
    const stores = [store, ...others];
    const times = [];
    const t0 = performance.now();
    await Promise.all(
      stores.map(async (s, k) => {
        for (let i = 0; i < calls; i++) times.push((await oneCall(s, runId, record, 2_000 + k * calls + i)).reserve);
      }),
    );
    const wall = performance.now() - t0;
    row(`reserve, ${stores.length} runners at once on one run (1,000 turns)`, times);
    console.log(`  ${`${stores.length} runners: reservations per second on one run`.padEnd(58)} ${Math.round((stores.length * calls) / (wall / 1000))}`);
  }
}

if (backend === 'sqlite' || backend === 'both') {
  const dir = mkdtempSync(join(baseDir, 'squadron-bench-budget-'));
  try {
    const store = openStore(join(dir, 'bench.db'));
    await measure('SQLite (synchronous=NORMAL)', store);
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (backend === 'postgres' || backend === 'both') {
  const server = dbUrl === undefined ? await startPostgres({ durable: true }) : undefined;
  try {
    const url = dbUrl ?? (await server.createDatabase());
    const store = await openPostgresStore(url);
    const others = await Promise.all([1, 2, 3].map(() => openPostgresStore(url)));
    await measure(dbUrl !== undefined ? 'PostgreSQL' : 'PostgreSQL, embedded on 127.0.0.1, fsync on', store, others);
    for (const s of [store, ...others]) await s.close();
  } finally {
    await server?.stop();
  }
}
