// `squadron serve` figures, whole-process, on the offline quickstart (replayed model, real tools and
// SQLite): webhook → 202 latency under 50 concurrent senders; GET /v1/runs over 10,000 stored runs;
// time from a SIGKILL of the server (mid-run) to every interrupted run resumed by the next server.
// Prints figures only. Run after building:
//   npm run build --silent && node bench/serve.mjs [--deliveries 200] [--senders 50] [--runs 10000] [--only webhook|list|recovery]

import { spawn, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openStore } from '../dist/store/index.js';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.cjs');
const HOOK = join(ROOT, 'dist', 'test', 'support', 'crashHook.js');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const deliveries = option('--deliveries', 200);
const senders = option('--senders', 50);
const storedRuns = option('--runs', 10_000);
const SECRET = 'whsec-bench-0123456789';
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

function project() {
  const dir = mkdtempSync(join(tmpdir(), 'squadron-bench-serve-'));
  cpSync(join(ROOT, 'examples', 'quickstart'), dir, { recursive: true });
  const hcl = join(dir, 'mission.hcl');
  writeFileSync(hcl, readFileSync(hcl, 'utf8').replace('mission "quickstart" {', `mission "quickstart" {\n  trigger {\n    webhook_path = "bench"\n    secret       = "${SECRET}"\n  }\n`));
  const made = spawnSync(process.execPath, [CLI, 'token', 'create', 'bench'], { cwd: dir, encoding: 'utf8' });
  return { dir, token: made.stdout.trim() };
}

function serve(dir, env = {}) {
  const child = spawn(process.execPath, [CLI, 'serve', dir, '--port', '0'], { cwd: dir, env: { ...process.env, SQUADRON_SERVE_RECOVER_MS: '200', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = [];
  const waiters = [];
  let pending = '';
  child.stderr.setEncoding('utf8').on('data', (d) => {
    pending += d;
    const parts = pending.split('\n');
    pending = parts.pop();
    for (const l of parts) {
      if (!l.startsWith('{')) continue;
      const j = JSON.parse(l);
      lines.push(j);
      for (const w of [...waiters]) if (w.match(j)) waiters.splice(waiters.indexOf(w), 1), w.done(j);
    }
  });
  const exited = new Promise((done) => child.on('exit', (code, signal) => { if (process.env.BENCH_DEBUG) console.error('serve exited', code, signal, lines.filter((l) => l.level !== 'info').slice(-5)); done(); }));
  const url = new Promise((done) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) done(m[1]);
    });
  });
  const waitFor = (match) => new Promise((done) => (lines.find(match) ? done(lines.find(match)) : waiters.push({ match, done })));
  return { child, url, lines, waitFor, exited };
}

async function webhookLatency() {
  const { dir } = project();
  const s = serve(dir);
  const url = await s.url;
  // One delivery first, untimed, to its run's end: the server has loaded what a delivery needs.
  {
    const body = JSON.stringify({ topic: 'warm-up' });
    const t = Math.floor(Date.now() / 1000);
    const sig = `t=${t},v1=${createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex')}`;
    const res = await fetch(`${url}/webhooks/bench`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-squadron-signature': sig }, body });
    const { run_id: warm } = await res.json();
    await s.waitFor((l) => l.msg === 'run ended' && l.run_id === warm);
  }
  const times = [];
  const resets = [];
  let next = 0;
  const sender = async () => {
    while (next < deliveries) {
      const n = next++;
      // A distinct body each: the same signed body twice in one second is a replay (409). Other topics
      // than the cassette's make the runs stop at their first model call; the 202 comes before that.
      const body = JSON.stringify({ topic: `tide pools ${n}` });
      const t = Math.floor(Date.now() / 1000);
      const sig = `t=${t},v1=${createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex')}`;
      const start = performance.now();
      let res;
      try {
        res = await fetch(`${url}/webhooks/bench`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-squadron-signature': sig, 'idempotency-key': `d-${n}` }, body });
      } catch (error) {
        // A kept-alive connection the server closed as the request went out: counted, not timed.
        resets.push(String(error.cause?.code ?? error));
        continue;
      }
      await res.text();
      if (res.status !== 202) throw new Error(`delivery ${n}: HTTP ${res.status}\n${s.lines.filter((l) => l.level === 'error').map((l) => JSON.stringify(l)).slice(0, 3).join('\n')}`);
      times.push(performance.now() - start);
    }
  };
  const burst = performance.now();
  await Promise.all(Array.from({ length: senders }, sender));
  const elapsed = performance.now() - burst;
  if (resets.length > 0) console.log(`  ${resets.length} deliveries failed to connect (${[...new Set(resets)].join(', ')}) and are not timed`);
  const inServer = s.lines.filter((l) => l.msg === 'request' && l.status === 202).map((l) => l.ms);
  if (inServer.length > 0) console.log(`  of which inside the handler (the server's own request log): p50 ${pct(inServer, 50)} ms   p99 ${pct(inServer, 99)} ms`);
  console.log(`webhook → 202, ${deliveries} deliveries from ${senders} concurrent senders (each starts a run after its 202, on the server's run threads; the runs stop at the cassette): p50 ${pct(times, 50).toFixed(1)} ms   p99 ${pct(times, 99).toFixed(1)} ms   (${(deliveries / (elapsed / 1000)).toFixed(0)} deliveries/s)`);
  if (process.env.BENCH_DEBUG) {
    const count = (f) => s.lines.filter(f).length;
    console.error({ started: count((l) => l.msg === 'run started'), ended: count((l) => l.msg === 'run ended'), errors: s.lines.filter((l) => l.level === 'error').map((l) => l.msg + ': ' + String(l.error).slice(0, 80)).slice(0, 5) });
  }
  s.child.kill('SIGKILL');
  await s.exited;
  rmSync(dir, { recursive: true, force: true });
}

async function listLatency() {
  const { dir, token } = project();
  const store = openStore(join(dir, '.squadron', 'squadron.db'));
  const t0 = performance.now();
  await store.transaction(async (tx) => {
    for (let i = 0; i < storedRuns; i += 1) {
      const r = await tx.runs.create({ mission: 'quickstart', configPath: dir, inputs: { topic: `t${i}` } });
      await tx.runs.setStatus(r.id, 'completed');
    }
  });
  await store.close();
  const seeded = performance.now() - t0;
  const s = serve(dir);
  const url = await s.url;
  for (const limit of [50, 1000]) {
    const times = [];
    for (let i = 0; i < (limit === 50 ? 50 : 5); i += 1) {
      const start = performance.now();
      const res = await fetch(`${url}/v1/runs?limit=${limit}`, { headers: { authorization: `Bearer ${token}` } });
      const doc = await res.json();
      if (doc.runs.length !== limit) throw new Error(`listed ${doc.runs.length}`);
      times.push(performance.now() - start);
    }
    console.log(`GET /v1/runs?limit=${limit} over ${storedRuns} stored runs (seeded in ${(seeded / 1000).toFixed(1)} s): p50 ${pct(times, 50).toFixed(1)} ms   p99 ${pct(times, 99).toFixed(1)} ms`);
  }
  s.child.kill('SIGKILL');
  await s.exited;
  rmSync(dir, { recursive: true, force: true });
}

async function recovery() {
  const { dir, token } = project();
  // The server kills itself (SIGKILL) right after the 12th tool-call write: runs are mid-flight.
  const doomed = serve(dir, { NODE_OPTIONS: `--import ${HOOK}`, SQUADRON_TEST_CRASH_AFTER: 'tool_calls:12' });
  const url = await doomed.url;
  for (let i = 0; i < 8; i += 1) void fetch(`${url}/v1/runs`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' }).catch(() => undefined);
  await doomed.exited;
  const killedAt = performance.now();
  const store = openStore(join(dir, '.squadron', 'squadron.db'));
  const interrupted = (await store.runs.list({ limit: 100 })).filter((r) => r.status === 'running').map((r) => r.id);
  await store.close();
  const s = serve(dir);
  await s.url;
  const listening = performance.now() - killedAt;
  await Promise.all(interrupted.map((id) => s.waitFor((l) => l.msg === 'run resumed' && l.run_id === id)));
  const resumed = performance.now() - killedAt;
  await Promise.all(interrupted.map((id) => s.waitFor((l) => l.msg === 'run ended' && l.run_id === id)));
  const done = performance.now() - killedAt;
  console.log(`kill -9 with ${interrupted.length} runs in flight → restart: listening after ${listening.toFixed(0)} ms, every run resumed after ${resumed.toFixed(0)} ms, all completed after ${done.toFixed(0)} ms (restart started at once)`);
  s.child.kill('SIGKILL');
  await s.exited;
  rmSync(dir, { recursive: true, force: true });
}

// The figures depend on what else the machine runs: its load is printed with them.
console.log(`machine: ${availableParallelism()} cores, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
if (!only || only === 'webhook') await webhookLatency();
if (!only || only === 'list') await listLatency();
if (!only || only === 'recovery') await recovery();
