// `squadron serve` figures, whole-process, on the offline quickstart (replayed model, real tools and
// SQLite): webhook → 202 latency under 50 concurrent senders; GET /v1/runs over 10,000 stored runs;
// time from a SIGKILL of the server (mid-run) to every interrupted run resumed by the next server.
// Prints figures only. Run after building:
//   npm run build --silent && node bench/serve.mjs [--deliveries 1000] [--senders 50] [--runs 10000] [--only webhook|list|recovery] [--floor] [--server-node-options '--max-semi-space-size=2']

import { spawn, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { closeSync, cpSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openStore } from '../dist/store/index.js';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.cjs');
const HOOK = join(ROOT, 'dist', 'test', 'support', 'crashHook.js');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const deliveries = option('--deliveries', 1000);
const senders = option('--senders', 50);
const storedRuns = option('--runs', 10_000);
const SECRET = 'whsec-bench-0123456789';
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
// NODE_OPTIONS for the server processes only (docs/commands/serve.md: `--max-semi-space-size=2` for a service).
const serverNodeOptions = args.includes('--server-node-options') ? args[args.indexOf('--server-node-options') + 1] : undefined;

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

function project() {
  const dir = mkdtempSync(join(tmpdir(), 'squadron-bench-serve-'));
  cpSync(join(ROOT, 'examples', 'quickstart'), dir, { recursive: true });
  const hcl = join(dir, 'mission.hcl');
  writeFileSync(hcl, readFileSync(hcl, 'utf8').replace('mission "quickstart" {', `mission "quickstart" {\n  trigger {\n    webhook_path = "bench"\n    secret       = "${SECRET}"\n  }\n`));
  const made = spawnSync(process.execPath, [CLI, 'token', 'create', 'bench'], { cwd: dir, encoding: 'utf8' });
  return { dir, token: made.stdout.trim() };
}

// The server's log goes to a file, read when a figure needs it: a pipe the bench reads while it sends
// would time the bench's own reading (Node writes to a pipe synchronously, so a full pipe stalls the
// server until the busy bench drains it).
function serve(dir, env = {}) {
  const logPath = join(dir, 'serve.log');
  const logFd = openSync(logPath, 'w');
  const child = spawn(process.execPath, [CLI, 'serve', dir, '--port', '0'], { cwd: dir, env: { ...process.env, ...(serverNodeOptions !== undefined ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${serverNodeOptions}`.trim() } : {}), ...env }, stdio: ['ignore', 'pipe', logFd] });
  closeSync(logFd);
  const lines = [];
  let read = 0;
  const readLog = () => {
    const text = readFileSync(logPath, 'utf8');
    const end = text.lastIndexOf('\n') + 1;
    for (const l of text.slice(read, end).split('\n')) if (l.startsWith('{')) lines.push(JSON.parse(l));
    read = end;
    return lines;
  };
  const exited = new Promise((done) => child.on('exit', (code, signal) => { if (process.env.BENCH_DEBUG) console.error('serve exited', code, signal, readLog().filter((l) => l.level !== 'info').slice(-5)); done(); }));
  const url = new Promise((done) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) done(m[1]);
    });
  });
  // Resolves once `count` log lines match.
  const waitFor = async (match, count = 1) => {
    while (readLog().filter(match).length < count) await new Promise((done) => setTimeout(done, 20));
  };
  return { child, url, readLog, waitFor, exited };
}

// The load: one kept-alive connection per sender, each request's bytes built (and signed) before
// the burst, responses read by content-length. On 2 cores the sending process shares the CPU with
// the server; a node:http client spends ~0.3 ms of it per request, this one ~0.06 ms, so what is
// timed is the server. `--floor` times the same load against a bare node:http server answering 202.
function connection(url) {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port), noDelay: true });
  let pending = Buffer.alloc(0);
  let waiting;
  const answer = () => {
    const end = pending.indexOf('\r\n\r\n');
    if (!waiting || end < 0) return;
    const head = pending.subarray(0, end).toString('latin1');
    if (/\r\ntransfer-encoding:/i.test(head)) throw new Error('a chunked answer: the bench reads answers by content-length');
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    if (pending.length < end + 4 + length) return;
    const res = { status: Number(head.slice(9, 12)), text: pending.subarray(end + 4, end + 4 + length).toString('utf8') };
    pending = pending.subarray(end + 4 + length);
    const w = waiting;
    waiting = undefined;
    w.done(res);
  };
  socket.on('data', (d) => {
    pending = pending.length > 0 ? Buffer.concat([pending, d]) : d;
    answer();
  });
  socket.on('error', (error) => waiting?.fail(error));
  const ready = new Promise((done, fail) => socket.once('connect', done).once('error', fail));
  return { ready, send: (bytes) => new Promise((done, fail) => ((waiting = { done, fail }), socket.write(bytes))), close: () => socket.destroy() };
}

function webhookRequest(url, body, key) {
  const head = Object.entries({ host: new URL(url).host, ...signed(body), 'idempotency-key': key, 'content-length': Buffer.byteLength(body) }).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  return Buffer.from(`POST /webhooks/bench HTTP/1.1\r\n${head}\r\n${body}`);
}

const signed = (body) => {
  const t = Math.floor(Date.now() / 1000);
  return { 'content-type': 'application/json', 'x-squadron-signature': `t=${t},v1=${createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex')}` };
};

// Each connection posts deliveries one after another until `count` are answered; returns each one's
// time to its answer. A distinct body each: the same signed body twice in one second is a replay
// (409). Other topics than the cassette's make the runs stop at their first model call; the 202
// comes before that.
async function burst(url, count, label) {
  // Connected before the clock starts (a kept-alive connection idle for 5 s is closed by the server).
  const connections = Array.from({ length: senders }, () => connection(url));
  await Promise.all(connections.map((c) => c.ready));
  const requests = Array.from({ length: count }, (_, n) => webhookRequest(url, JSON.stringify({ topic: `tide pools ${label} ${n}` }), `${label}-${n}`));
  const times = [];
  let next = 0;
  const sender = async (c) => {
    while (next < count) {
      const n = next++;
      const start = performance.now();
      const res = await c.send(requests[n]);
      if (res.status !== 202) throw new Error(`delivery ${label} ${n}: HTTP ${res.status} ${res.text}`);
      times.push(performance.now() - start);
    }
  };
  const began = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(connections.map(sender));
  const { user, system } = process.cpuUsage(cpu);
  for (const c of connections) c.close();
  return { times, perSecond: count / ((performance.now() - began) / 1000), senderCpuMs: (user + system) / 1000 };
}

async function webhookLatency() {
  const { dir } = project();
  const s = serve(dir);
  const url = await s.url;
  // Untimed first: one delivery to its run's end, then as many as the timed burst, their runs ended
  // too: the server has loaded and compiled what a delivery needs.
  const one = connection(url);
  await one.ready;
  const first = JSON.parse((await one.send(webhookRequest(url, '{"topic":"warm-up"}', 'first'))).text).run_id;
  one.close();
  await s.waitFor((l) => l.msg === 'run ended' && l.run_id === first);
  await burst(url, deliveries, 'warm');
  await s.waitFor((l) => l.msg === 'run ended', deliveries + 1);
  const skip = s.readLog().filter((l) => l.msg === 'request').length;
  const { times, perSecond, senderCpuMs } = await burst(url, deliveries, 'timed');
  const inServer = s.readLog().filter((l) => l.msg === 'request').slice(skip).filter((l) => l.status === 202).map((l) => l.ms);
  console.log(`  of which inside the handler (the server's own request log, the shared commit included): p50 ${pct(inServer, 50)} ms   p99 ${pct(inServer, 99)} ms`);
  console.log(`webhook → 202, ${deliveries} deliveries from ${senders} concurrent senders (each starts a run after its 202, on the server's run threads; the runs stop at the cassette): p50 ${pct(times, 50).toFixed(1)} ms   p99 ${pct(times, 99).toFixed(1)} ms   (${perSecond.toFixed(0)} deliveries/s; the senders used ${senderCpuMs.toFixed(0)} ms of CPU)`);
  if (process.env.BENCH_DEBUG) {
    const lines = s.readLog();
    const count = (f) => lines.filter(f).length;
    console.error({ started: count((l) => l.msg === 'run started'), ended: count((l) => l.msg === 'run ended'), errors: lines.filter((l) => l.level === 'error').map((l) => l.msg + ': ' + String(l.error).slice(0, 80)).slice(0, 5) });
  }
  s.child.kill('SIGKILL');
  await s.exited;
  rmSync(dir, { recursive: true, force: true });
}

// The same load against a bare node:http server (a process of its own) that reads the body and
// answers 202: what the machine, the sending process and HTTP cost without squadron.
const BARE_SERVER = `require('node:http').createServer((req, res) => req.resume().on('end', () => res.writeHead(202, { 'content-type': 'application/json', 'content-length': 14 }).end('{"run_id":"r"}'))).listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port); });`;

async function webhookFloor() {
  const child = spawn(process.execPath, ['-e', BARE_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((done) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) done(m[1]);
    });
  });
  await burst(url, deliveries, 'warm');
  const { times, perSecond } = await burst(url, deliveries, 'timed');
  console.log(`the same load against a bare node:http server answering 202: p50 ${pct(times, 50).toFixed(1)} ms   p99 ${pct(times, 99).toFixed(1)} ms   (${perSecond.toFixed(0)}/s)`);
  child.kill();
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
  // A recovery pass every 200 ms (the default is 5 s): the figure is the server's, not the period's.
  const s = serve(dir, { SQUADRON_SERVE_RECOVER_MS: '200' });
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
console.log(`machine: ${availableParallelism()} cores, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}${serverNodeOptions !== undefined ? `; server NODE_OPTIONS: ${serverNodeOptions}` : ''}`);
if (!only || only === 'webhook') await webhookLatency();
if (args.includes('--floor')) await webhookFloor();
if (!only || only === 'list') await listLatency();
if (!only || only === 'recovery') await recovery();
